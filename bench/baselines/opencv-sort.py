#!/usr/bin/python3
"""The usual CPU tracker, as the baseline of flowmark's tracking evaluation (a test-time tool, never a dependency):
OpenCV's BackgroundSubtractorMOG2 (defaults; shadows marked, then dropped), a 3x3 opening and a 5x5 closing,
connectedComponentsWithStats, blobs of at least MIN_AREA pixels, and SORT (Bewley et al., 2016: a Kalman filter on
centre, area and aspect, Hungarian assignment on IoU >= 0.3, max_age 1, min_hits 3), written here after the
reference implementation (numpy only, as Debian's python3-opencv brings it; no filterpy or scipy).

Usage: opencv-sort.py VIDEO MIN_AREA [color] > rows   (color: MOG2 on the color frames, else on their gray)
Prints MOTChallenge rows frame,id,x,y,w,h,1,-1,-1,-1 (frame 1-based, x and y the box's top-left pixel, 1-based).
"""
import sys

import cv2
import numpy as np


def hungarian(cost):
    """Minimum-cost assignment of a rows x cols matrix (rows <= cols): list of (row, col)."""
    n, m = cost.shape
    transposed = n > m
    if transposed:
        cost, n, m = cost.T, m, n
    u, v = np.zeros(n + 1), np.zeros(m + 1)
    p, way = np.zeros(m + 1, dtype=int), np.zeros(m + 1, dtype=int)
    for i in range(1, n + 1):
        p[0], j0 = i, 0
        minv, used = np.full(m + 1, np.inf), np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0, delta, j1 = p[j0], np.inf, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = cost[i0 - 1, j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    pairs = [(p[j] - 1, j - 1) for j in range(1, m + 1) if p[j] != 0]
    return [(c, r) for r, c in pairs] if transposed else pairs


def iou(a, b):
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def to_z(b):
    w, h = b[2] - b[0], b[3] - b[1]
    return np.array([b[0] + w / 2, b[1] + h / 2, w * h, w / float(h)])


def to_box(x):
    w = np.sqrt(max(x[2] * x[3], 0.0))
    h = x[2] / w if w > 0 else 0.0
    return [x[0] - w / 2, x[1] - h / 2, x[0] + w / 2, x[1] + h / 2]


class Track:
    count = 0

    def __init__(self, box):
        self.F = np.eye(7)
        self.F[0, 4] = self.F[1, 5] = self.F[2, 6] = 1
        self.H = np.eye(4, 7)
        self.R = np.eye(4)
        self.R[2:, 2:] *= 10
        self.P = np.eye(7) * 10
        self.P[4:, 4:] *= 1000
        self.Q = np.eye(7)
        self.Q[-1, -1] *= 0.01
        self.Q[4:, 4:] *= 0.01
        self.x = np.zeros(7)
        self.x[:4] = to_z(box)
        Track.count += 1
        self.id = Track.count
        self.since_update = 0
        self.hit_streak = 0

    def predict(self):
        if self.x[6] + self.x[2] <= 0:
            self.x[6] = 0
        self.x = self.F @ self.x
        self.P = self.F @ self.P @ self.F.T + self.Q
        if self.since_update > 0:
            self.hit_streak = 0
        self.since_update += 1
        return to_box(self.x)

    def update(self, box):
        self.since_update = 0
        self.hit_streak += 1
        y = to_z(box) - self.H @ self.x
        S = self.H @ self.P @ self.H.T + self.R
        K = self.P @ self.H.T @ np.linalg.inv(S)
        self.x = self.x + K @ y
        self.P = (np.eye(7) - K @ self.H) @ self.P


def main():
    video, min_area = sys.argv[1], int(sys.argv[2])
    # 'color': MOG2 on the BGR frames, as on a color camera's; else on their gray.
    color = len(sys.argv) > 3 and sys.argv[3] == 'color'
    cap = cv2.VideoCapture(video)
    mog = cv2.createBackgroundSubtractorMOG2()
    k3 = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
    k5 = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))
    tracks, frame, out = [], 0, []
    max_age, min_hits, threshold = 1, 3, 0.3
    while True:
        ok, img = cap.read()
        if not ok:
            break
        frame += 1
        pixels = img if color else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        m = cv2.threshold(mog.apply(pixels), 200, 255, cv2.THRESH_BINARY)[1]
        m = cv2.morphologyEx(cv2.morphologyEx(m, cv2.MORPH_OPEN, k3), cv2.MORPH_CLOSE, k5)
        n, _, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
        dets = [[s[0], s[1], s[0] + s[2], s[1] + s[3]] for s in stats[1:n] if s[4] >= min_area]
        predicted = [t.predict() for t in tracks]
        keep = [i for i, p in enumerate(predicted) if not np.any(np.isnan(p))]
        tracks, predicted = [tracks[i] for i in keep], [predicted[i] for i in keep]
        matched, used_d, used_t = [], set(), set()
        if dets and tracks:
            M = np.array([[iou(d, p) for p in predicted] for d in dets])
            a = (M > threshold).astype(int)
            pairs = [tuple(x) for x in np.argwhere(a)] if a.sum(1).max() == 1 and a.sum(0).max() == 1 else hungarian(-M)
            for d, t in pairs:
                if M[d, t] >= threshold:
                    matched.append((d, t))
        for d, t in matched:
            tracks[t].update(dets[d])
            used_d.add(d)
            used_t.add(t)
        for d, box in enumerate(dets):
            if d not in used_d:
                tracks.append(Track(box))
        alive = []
        for t in tracks:
            if t.since_update < 1 and (t.hit_streak >= min_hits or frame <= min_hits):
                b = to_box(t.x)
                out.append(f'{frame},{t.id},{b[0] + 1:.2f},{b[1] + 1:.2f},{b[2] - b[0]:.2f},{b[3] - b[1]:.2f},1,-1,-1,-1')
            if t.since_update <= max_age:
                alive.append(t)
        tracks = alive
    sys.stdout.write('\n'.join(out) + '\n')


main()
