#!/usr/bin/python3
"""OpenCV's ArUco detector on raw gray frames: the reference flowmark's marker evaluation compares with (a test-time
tool; flowmark never depends on OpenCV). Reads a JSON job on stdin:
  {"dictionary": "DICT_4X4_50", "frames": [{"path": "f0.gray", "width": 640, "height": 480}, ...],
   "methods": ["NONE", "SUBPIX", "CONTOUR", "APRILTAG"]}
and prints {"opencv": "4.6.0", "threads": N, "results": {method: [{"markers": [{"id", "corners": [[x, y] x4]}], "ms"}]}}
with OpenCV's corners (pixel centres at integers, outer border corners, printed top-left first). Run with
/usr/bin/python3 (Debian's python3-opencv, 4.6) or any Python with OpenCV 4.7+ (its ArucoDetector API).
"""
import json
import sys
import time

import cv2
import numpy as np


def main():
    job = json.load(sys.stdin)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, job['dictionary'].replace('APRILTAG_36H11', 'APRILTAG_36h11')))
    frames = [np.fromfile(f['path'], dtype=np.uint8).reshape(f['height'], f['width']) for f in job['frames']]
    results = {}
    for method in job.get('methods', ['NONE', 'SUBPIX', 'CONTOUR', 'APRILTAG']):
        modern = hasattr(cv2.aruco, 'ArucoDetector')
        params = cv2.aruco.DetectorParameters() if modern else cv2.aruco.DetectorParameters_create()
        params.cornerRefinementMethod = getattr(cv2.aruco, 'CORNER_REFINE_' + method)
        detector = cv2.aruco.ArucoDetector(dictionary, params) if modern else None
        out = []
        for img in frames:
            t0 = time.perf_counter()
            if modern:
                corners, ids, _ = detector.detectMarkers(img)
            else:
                corners, ids, _ = cv2.aruco.detectMarkers(img, dictionary, parameters=params)
            ms = (time.perf_counter() - t0) * 1000
            found = [] if ids is None else [
                {'id': int(i), 'corners': [[float(x), float(y)] for x, y in c.reshape(4, 2)]} for i, c in zip(ids.ravel(), corners)
            ]
            out.append({'markers': found, 'ms': ms})
        results[method] = out
    json.dump({'opencv': cv2.__version__, 'threads': cv2.getNumThreads(), 'results': results}, sys.stdout)


main()
