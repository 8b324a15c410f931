#!/usr/bin/python3
"""OpenCV's BackgroundSubtractorMOG2 over raw 8-bit gray frames: the test-time reference of flowmark's background().

Usage: opencv-mog2.py WIDTH HEIGHT FRAMES [history varThreshold detectShadows(0|1) learningRate] < frames.gray > masks
Reads FRAMES frames of WIDTH×HEIGHT bytes from stdin, writes one mask per frame (0 background, 127 shadow, 255
foreground), as OpenCV gives them. Needs Debian's python3-opencv (a test-time tool, never a library dependency).
"""
import sys

import cv2
import numpy as np

w, h, n = (int(a) for a in sys.argv[1:4])
history, var_threshold, shadows, rate = 500, 16.0, 1, -1.0
if len(sys.argv) > 4:
    history, var_threshold, shadows, rate = int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
mog = cv2.createBackgroundSubtractorMOG2(history=history, varThreshold=var_threshold, detectShadows=bool(shadows))
data = sys.stdin.buffer.read()
out = sys.stdout.buffer
for i in range(n):
    frame = np.frombuffer(data, np.uint8, w * h, i * w * h).reshape(h, w)
    out.write(mog.apply(frame, learningRate=rate).tobytes())
