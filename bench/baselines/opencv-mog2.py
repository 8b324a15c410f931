#!/usr/bin/python3
"""OpenCV's BackgroundSubtractorMOG2 over raw 8-bit gray frames: the test-time reference of flowmark's background().

Usage: opencv-mog2.py WIDTH HEIGHT FRAMES [history varThreshold detectShadows(0|1) learningRate [channels]]
           < frames > masks
Reads FRAMES frames of WIDTH×HEIGHT bytes (× channels, 1 or 3: interleaved color) from stdin, writes one mask per
frame (0 background, 127 shadow, 255 foreground), as OpenCV gives them. Needs Debian's python3-opencv (a test-time tool, never a library dependency).

opencv-mog2.py --time WIDTH HEIGHT FRAMES REPEAT < frames.gray: the usual CPU pipeline over the frames REPEAT times
(MOG2 apply, shadows dropped, 3×3 open, 5×5 close, connectedComponentsWithStats), printing JSON with the median
milliseconds per frame of each stage (bench/chains/surveillance.ts's reference column).
"""
import json
import sys
import time

import cv2
import numpy as np

if sys.argv[1] == '--time':
    w, h, n, repeat = (int(a) for a in sys.argv[2:6])
    data = sys.stdin.buffer.read()
    frames = [np.frombuffer(data, np.uint8, w * h, i * w * h).reshape(h, w) for i in range(n)]
    mog = cv2.createBackgroundSubtractorMOG2()
    k3 = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
    k5 = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))
    stages = {'mog2': [], 'morphology': [], 'components': [], 'total': []}
    for _ in range(repeat):
        for f in frames:
            t0 = time.perf_counter()
            m = mog.apply(f)
            t1 = time.perf_counter()
            m = cv2.threshold(m, 200, 255, cv2.THRESH_BINARY)[1]
            m = cv2.morphologyEx(cv2.morphologyEx(m, cv2.MORPH_OPEN, k3), cv2.MORPH_CLOSE, k5)
            t2 = time.perf_counter()
            cv2.connectedComponentsWithStats(m, connectivity=8)
            t3 = time.perf_counter()
            for k, v in zip(stages, (t1 - t0, t2 - t1, t3 - t2, t3 - t0)):
                stages[k].append(v * 1000)
    print(json.dumps({'version': cv2.__version__, 'threads': cv2.getNumThreads(), **{k: sorted(v)[len(v) // 2] for k, v in stages.items()}}))
    sys.exit(0)
w, h, n = (int(a) for a in sys.argv[1:4])
history, var_threshold, shadows, rate, channels = 500, 16.0, 1, -1.0, 1
if len(sys.argv) > 4:
    history, var_threshold, shadows, rate = int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
if len(sys.argv) > 8:
    channels = int(sys.argv[8])
mog = cv2.createBackgroundSubtractorMOG2(history=history, varThreshold=var_threshold, detectShadows=bool(shadows))
data = sys.stdin.buffer.read()
out = sys.stdout.buffer
for i in range(n):
    size = w * h * channels
    frame = np.frombuffer(data, np.uint8, size, i * size).reshape((h, w) if channels == 1 else (h, w, channels))
    out.write(mog.apply(frame, learningRate=rate).tobytes())
