// ChArUco boards through markers() on the GPU: rendered boards at known poses, their chessboard corners placed from
// the markers found (charucoCorners) and refined on the image (refineChessCorners), against the truth and against
// OpenCV's interpolateCornersCharuco on the same images (Debian's python3-opencv, a test-time reference). OpenCV's
// ChArUco corners carry a known +0.5 px shift in x and y (opencv/opencv#25539, fixed by PR 28380 after 4.6), which is
// taken off before comparing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cameraModel, charucoBoard, charucoCorners, markerDictionary, markers, refineChessCorners, InvalidOptionError, type GpuContext } from '../../../index.js';
import { rotationFromVector } from '../../../extend.js';
import { charucoScene } from '../../../reference.js';
import { gray, run, testContext } from '../../support/gpu.js';

let ctx: GpuContext;
beforeAll(async () => {
  ctx = await testContext();
});
afterAll(() => ctx?.destroy());

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];

describe('ChArUco corners', () => {
  it("are found at the true corners from markers() on rendered boards, nearer than OpenCV's", async () => {
    const board = charucoBoard({ squaresX: 5, squaresY: 7, squareLength: 0.04, markerLength: 0.03, dictionary: 'DICT_4X4_50' });
    const d = markerDictionary('DICT_4X4_50');
    // A pinhole camera, and a barrel lens (the board's straight edges bent).
    const pinhole = cameraModel({ fx: 700, fy: 700, cx: 320, cy: 240 });
    const barrel = cameraModel({ fx: 604, fy: 596, cx: 323.5, cy: 236.5, distortion: [-0.16, 0.05, 0, 0, 0] });
    const poses: [number[], number[], typeof pinhole][] = [[[0.3, -0.2, 0.05], [-0.1, -0.14, 0.55], pinhole], [[-0.4, 0.3, 0.3], [-0.08, -0.15, 0.6], pinhole], [[0.1, 0.5, -0.2], [-0.12, -0.12, 0.5], pinhole], [[0.4, 0.3, 0.2], [-0.1, -0.15, 0.42], barrel]];
    const scenes = poses.map(([rv, t, camera], k) => charucoScene(10 + k, camera, board, { R: rotationFromVector(rv), t }, { width: 640, height: 480, markerSize: 4, bits: (id) => d.bits(id), blur: 0.6, noise: 2 }));
    const results = await run(ctx, scenes.map((s) => gray(s.width, s.height, s.gray)), markers({ dictionary: 'DICT_4X4_50' }));
    const dir = mkdtempSync(join(tmpdir(), 'flowmark-charuco-'));
    const errs = { placed: [] as number[], refined: [] as number[], opencv: [] as number[], apart: [] as number[] };
    results.forEach((r, k) => {
      const s = scenes[k];
      expect(r.markers!.found.length, `frame ${k}`).toBe(board.markers.length);
      const placed = charucoCorners(board, r.markers!.found);
      expect(placed.map((c) => c.id), `frame ${k}: every corner`).toEqual(board.corners.map((c) => c.id));
      const refined = refineChessCorners(s.gray, s.width, s.height, placed.map((c) => c.at), { half: placed.map((c) => c.window) });
      const file = join(dir, `f${k}.gray`);
      writeFileSync(file, s.gray);
      const script = `
import cv2, json, numpy as np
g = np.fromfile(${JSON.stringify(file)}, dtype=np.uint8).reshape(${s.height}, ${s.width})
d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
b = cv2.aruco.CharucoBoard_create(5, 7, 0.04, 0.03, d)
c, ids, _ = cv2.aruco.detectMarkers(g, d)
n, cc, ci = cv2.aruco.interpolateCornersCharuco(c, ids, g, b)
print(json.dumps({'ids': ci.ravel().tolist(), 'corners': cc.reshape(-1, 2).tolist()}))`;
      const cv = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script]).toString()) as { ids: number[]; corners: [number, number][] };
      expect([...cv.ids].sort((a, b) => a - b), `frame ${k}: the same corner ids as OpenCV`).toEqual(placed.map((c) => c.id));
      placed.forEach((c, i) => {
        const t = s.corners[c.id];
        const o = cv.corners[cv.ids.indexOf(c.id)];
        errs.placed.push(Math.hypot(c.at[0] - t[0], c.at[1] - t[1]));
        errs.refined.push(Math.hypot(refined[i][0] - t[0], refined[i][1] - t[1]));
        errs.opencv.push(Math.hypot(o[0] - 0.5 - t[0], o[1] - 0.5 - t[1]));
        errs.apart.push(Math.hypot(o[0] - 0.5 - refined[i][0], o[1] - 0.5 - refined[i][1]));
      });
    });
    // Measured: placed 0.031 px median (0.20 worst), refined 0.039 (0.13), OpenCV 0.051 (0.20), 0.032 apart.
    expect(median(errs.placed)).toBeLessThan(0.05);
    expect(median(errs.refined)).toBeLessThan(0.06);
    expect(Math.max(...errs.refined)).toBeLessThan(0.3);
    expect(median(errs.refined)).toBeLessThan(median(errs.opencv));
    expect(median(errs.apart)).toBeLessThan(0.05);
  });

  it('refuses bad refinement options and images', () => {
    const img = new Uint8Array(100);
    expect(() => refineChessCorners(img, 10, 10, [[5, 5]], { half: 0 })).toThrow(InvalidOptionError);
    expect(() => refineChessCorners(img, 10, 10, [[5, 5]], { epsilon: 0 })).toThrow(InvalidOptionError);
    expect(() => refineChessCorners(img, 10, 10, [[5, 5]], { half: [3, 3] })).toThrow(/one per corner \(1\), got 2/);
    expect(() => refineChessCorners(img, 10, 10, [[5, 5]], { half: [0] })).toThrow(InvalidOptionError);
    expect(() => refineChessCorners(img, 10, 11, [[5, 5]])).toThrow(/needs 110 pixels, got 100/);
    // A flat window has no gradients: the corner keeps its place.
    expect(refineChessCorners(img, 10, 10, [[4.3, 5.6]])).toEqual([[4.3, 5.6]]);
  });
});
