// A ChArUco board's pose from its chessboard corners (charucoPose) and calibration views from them (charucoViews):
// corners projected through a distorting lens at known poses, with and without noise, against the truth; frames that
// cannot give a view left out; against OpenCV's solvePnP on the same corners (Debian's python3-opencv, a test-time
// reference).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError, cameraModel, charucoBoard, charucoPose, charucoViews, projectPoints } from '../../../index.js';
import { rotationBetween, rotationFromVector } from '../../../extend.js';
import { rng } from '../../../reference.js';

const lens = cameraModel({ fx: 612, fy: 598, cx: 327.5, cy: 233.2, distortion: [-0.18, 0.06, 0.0012, -0.0009, -0.008] });
const board = charucoBoard({ squaresX: 7, squaresY: 5, squareLength: 0.04, markerLength: 0.03, dictionary: 'DICT_4X4_50' });

/** Every corner of the board at pose (R, t), moved by up to ±noise px. */
function seen(R: number[], t: number[], noise: number, seed: number) {
  const r = rng(seed);
  return projectPoints(lens, R, t, board.corners.map((c) => c.at)).map(([u, v], id) => ({ id, at: [u + (r() - 0.5) * 2 * noise, v + (r() - 0.5) * 2 * noise] as [number, number] }));
}

describe('charucoPose', () => {
  const poses: [number[], number[]][] = [[[0.4, -0.3, 0.1], [-0.12, -0.08, 0.5]], [[-0.6, 0.2, -0.4], [-0.1, -0.1, 0.7]], [[0.05, 0.02, 1.2], [-0.1, -0.05, 0.45]]];

  it('gives the pose the corners were seen at, exactly from exact corners and to a fraction of a degree from noisy ones', () => {
    for (const [k, [rv, t]] of poses.entries()) {
      const R = rotationFromVector(rv);
      const exact = charucoPose(board, seen(R, t, 0, k), lens)!;
      expect(rotationBetween(exact.R, R), `pose ${k}`).toBeLessThan(1e-6);
      expect(Math.hypot(exact.t[0] - t[0], exact.t[1] - t[1], exact.t[2] - t[2])).toBeLessThan(1e-6);
      expect(exact.error).toBeLessThan(1e-6);
      // ±0.3 px on 24 corners: under 0.5° and 0.5 % of the distance (the noise alone: OpenCV comes to the same pose).
      const noisy = charucoPose(board, seen(R, t, 0.3, k), lens)!;
      expect((rotationBetween(noisy.R, R) * 180) / Math.PI).toBeLessThan(0.5);
      expect(Math.hypot(noisy.t[0] - t[0], noisy.t[1] - t[1], noisy.t[2] - t[2]) / Math.hypot(...t)).toBeLessThan(0.005);
    }
  });

  it("agrees with OpenCV's solvePnP on the same noisy corners", () => {
    const R = rotationFromVector(poses[0][0]);
    const corners = seen(R, poses[0][1], 0.3, 9);
    const ours = charucoPose(board, corners, lens)!;
    const script = `
import cv2, json, sys, numpy as np
j = json.loads(sys.argv[1])
ok, rv, tv = cv2.solvePnP(np.array(j['object'], dtype=np.float64), np.array(j['image'], dtype=np.float64), np.array(j['K'], dtype=np.float64).reshape(3, 3), np.array(j['d'], dtype=np.float64), flags=cv2.SOLVEPNP_ITERATIVE)
print(json.dumps({'R': cv2.Rodrigues(rv)[0].ravel().tolist(), 't': tv.ravel().tolist()}))`;
    const job = { object: corners.map((c) => board.corners[c.id].at), image: corners.map((c) => c.at), K: [lens.fx, 0, lens.cx, 0, lens.fy, lens.cy, 0, 0, 1], d: lens.distortion };
    const cv = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, JSON.stringify(job)]).toString()) as { R: number[]; t: number[] };
    // Both minimise the same reprojection error: the same pose to well under the noise's effect.
    expect((rotationBetween(ours.R, cv.R) * 180) / Math.PI).toBeLessThan(0.01);
    expect(Math.hypot(ours.t[0] - cv.t[0], ours.t[1] - cv.t[1], ours.t[2] - cv.t[2])).toBeLessThan(1e-4);
  });

  it('needs four corners not on one line; refuses a bad camera', () => {
    const all = seen(rotationFromVector(poses[0][0]), poses[0][1], 0, 1);
    expect(charucoPose(board, all.slice(0, 3), lens)).toBeNull();
    // One row of the board (corners 0–5): on one line.
    expect(charucoPose(board, all.slice(0, 6), lens)).toBeNull();
    // A diagonal (0, 7, 14, 21): on one line too.
    expect(charucoPose(board, [0, 7, 14, 21].map((i) => all[i]), lens)).toBeNull();
    expect(charucoPose(board, [0, 1, 6, 7].map((i) => all[i]), lens)).not.toBeNull();
    expect(() => charucoPose(board, all, { fx: -1, fy: 600, cx: 320, cy: 240 })).toThrow(InvalidOptionError);
  });
});

describe('charucoViews', () => {
  it('makes a view of each frame with enough corners spread over the board, leaving out the rest', () => {
    const all = seen(rotationFromVector([0.3, 0.2, 0]), [-0.12, -0.08, 0.5], 0, 2);
    const views = charucoViews(board, [all, all.slice(0, 5), all.slice(0, 6), [...all.slice(0, 6), all[6]], [...all, all[0]]]);
    // Every corner; too few (5 < 6); one row; a repeated id: only the first and the row plus one below.
    expect(views.map((v) => v.object.length)).toEqual([24, 7]);
    expect(views[0].object[5]).toEqual(board.corners[5].at);
    expect(views[0].image[5]).toEqual(all[5].at);
    expect(charucoViews(board, [all.slice(0, 5)], 4).length).toBe(0);
    expect(charucoViews(board, [[...all.slice(0, 3), all[8]]], 4).length).toBe(1);
    expect(() => charucoViews(board, [all], 3)).toThrow(InvalidOptionError);
  });
});
