#!/usr/bin/env python3
"""The labeling references of BENCHMARKS.md, measured on the machine at hand: cupy's GPU labeler
(cupyx.scipy.ndimage.label, 8-connectivity) and OpenCV's connectedComponentsWithStats (16 threads and 1) on random
2048×2048 images as bench/timing/labeling.ts makes them (each g×g block foreground with probability d), means over
densities 0.0-1.0 in steps of 0.1. Prints a markdown table. A test-time and benchmark tool, never a dependency.

Usage: label-baselines.py [SIZE] [REPS]   (default 2048 20). Needs cupy (optional: its column is left out without
it) and cv2.
"""
import statistics
import sys
import time

import cv2
import numpy as np

size = int(sys.argv[1]) if len(sys.argv) > 1 else 2048
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
try:
    import cupy
    import cupyx.scipy.ndimage as cnd
except ImportError:
    cupy = None

rng = np.random.default_rng(1)


def image(d, g):
    blocks = (rng.random((size // g + 1, size // g + 1)) < d).astype(np.uint8)
    return np.kron(blocks, np.ones((g, g), np.uint8))[:size, :size] * 255


def cupy_ms(img):
    gpu = cupy.asarray(img > 0)
    structure = cupy.ones((3, 3), dtype=bool)
    cnd.label(gpu, structure)  # compile and warm
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(reps):
        start.record()
        cnd.label(gpu, structure)
        end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end))
    return statistics.median(times)


def opencv_ms(img, threads):
    cv2.setNumThreads(threads)
    cv2.connectedComponentsWithStats(img, connectivity=8)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        cv2.connectedComponentsWithStats(img, connectivity=8)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


print(f'labeling references, {size}×{size}, 8-connectivity, median of {reps} runs a cell, mean over densities 0.0-1.0 (ms)')
print(f'OpenCV {cv2.__version__}' + (f', cupy {cupy.__version__}' if cupy else ', no cupy'))
print()
print('| granularity | cupyx.scipy.ndimage.label (GPU) | OpenCV connectedComponentsWithStats, 16 threads | 1 thread |')
print('|---|---|---|---|')
for g in (1, 4, 16):
    rows = []
    for d in [i / 10 for i in range(11)]:
        img = image(d, g)
        rows.append((cupy_ms(img) if cupy else float('nan'), opencv_ms(img, 16), opencv_ms(img, 1)))
    means = [statistics.mean(r[k] for r in rows) for k in range(3)]
    print(f'| {g} | {means[0]:.3f} | {means[1]:.3f} | {means[2]:.3f} |')
