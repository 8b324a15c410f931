// Camera calibration from views of a board (Zhang's closed form, then Levenberg–Marquardt over everything): the
// true camera back from exact corners, and against OpenCV's calibrateCamera on the same noisy corners (Debian's
// python3-opencv, a test-time reference); boardViews' matching; refusals.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError, boardViews, calibrateCamera, cameraModel, gridBoard, projectPoints, type CalibrationView, type DetectedMarker, type Mat3 } from '../../../index.js';
import { mul3, rotationBetween, rotationFromVector } from '../../../extend.js';
import { rng } from '../../../reference.js';

const [width, height] = [640, 480];
const truth = cameraModel({ fx: 612, fy: 598, cx: 327.5, cy: 233.2, distortion: [-0.18, 0.06, 0.0012, -0.0009, -0.008] });
const board = gridBoard({ name: 'calibration', columns: 7, rows: 5, markerSize: 0.03, separation: 0.006 });

/** `n` views of the board: 0.35–0.7 m away, tilted 15–45° every way, turned in its plane, every corner in the frame. */
function views(n: number, seed: number, noise: number): { views: CalibrationView[]; poses: { R: Mat3; t: number[] }[] } {
  const r = rng(seed);
  const out: CalibrationView[] = [];
  const poses: { R: Mat3; t: number[] }[] = [];
  const object = board.markers.flatMap((m) => m.corners);
  while (out.length < n) {
    const tilt = ((15 + 30 * r()) * Math.PI) / 180;
    const axis = 2 * Math.PI * r();
    const R = mul3(rotationFromVector([Math.cos(axis) * tilt, Math.sin(axis) * tilt, 0]), rotationFromVector([0, 0, (r() - 0.5) * 0.6]));
    const z = 0.35 + 0.35 * r();
    const middle = [0.1236, 0.0864, 0].map((_, j) => R[3 * j] * 0.1236 + R[3 * j + 1] * 0.0864);
    const t = [(r() - 0.5) * 0.1 - middle[0], (r() - 0.5) * 0.08 - middle[1], z - middle[2]];
    const image = projectPoints(truth, R, t, object);
    if (!image.every(([u, v]) => u > 1 && v > 1 && u < width - 2 && v < height - 2)) continue;
    out.push({ object, image: image.map(([u, v]) => [u + (r() - 0.5) * 2 * noise, v + (r() - 0.5) * 2 * noise] as [number, number]) });
    poses.push({ R, t });
  }
  return { views: out, poses };
}

describe('calibrateCamera', () => {
  it('gives back the camera, distortion and view poses from exact corners', () => {
    const set = views(8, 41, 0);
    const c = calibrateCamera(set.views, width, height);
    expect(c.error).toBeLessThan(1e-4);
    expect(Math.abs(c.camera.fx - truth.fx)).toBeLessThan(1e-3);
    expect(Math.abs(c.camera.fy - truth.fy)).toBeLessThan(1e-3);
    expect(Math.abs(c.camera.cx - truth.cx)).toBeLessThan(1e-3);
    expect(Math.abs(c.camera.cy - truth.cy)).toBeLessThan(1e-3);
    c.camera.distortion.forEach((k, i) => expect(Math.abs(k - truth.distortion[i]), `distortion ${i}`).toBeLessThan(1e-4));
    c.views.forEach((v, k) => {
      expect(rotationBetween(v.R, set.poses[k].R)).toBeLessThan(1e-6);
      expect(Math.hypot(v.t[0] - set.poses[k].t[0], v.t[1] - set.poses[k].t[1], v.t[2] - set.poses[k].t[2])).toBeLessThan(1e-6);
    });
    // Fewer terms fit worse where the lens has them (the intrinsics take up what they can).
    expect(calibrateCamera(set.views, width, height, { terms: 0 }).error).toBeGreaterThan(0.1);
    expect(calibrateCamera(set.views, width, height, { terms: 2 }).error).toBeGreaterThan(1e-3);
  });

  it("fits noisy corners as well as OpenCV's calibrateCamera on the same corners, to the same camera", () => {
    for (const [seed, n] of [[42, 10], [43, 5]]) {
      const set = views(n, seed, 0.3);
      const script = `
import cv2, json, sys, numpy as np
job = json.load(sys.stdin)
obj = [np.array(v['object'], dtype=np.float32) for v in job]
img = [np.array(v['image'], dtype=np.float32).reshape(-1, 1, 2) for v in job]
err, K, d, rv, tv = cv2.calibrateCamera(obj, img, (${width}, ${height}), None, None)
print(json.dumps({'error': err, 'K': K.ravel().tolist(), 'd': d.ravel().tolist()}))`;
      const cv = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(set.views) }).toString());
      const ours = calibrateCamera(set.views, width, height);
      // The same least-squares problem (their corners are float32): the same minimum.
      expect(ours.error, `seed ${seed}`).toBeLessThanOrEqual(cv.error * 1.001 + 1e-4);
      expect(Math.abs(ours.camera.fx - cv.K[0]) / cv.K[0], `seed ${seed} fx`).toBeLessThan(0.002);
      expect(Math.abs(ours.camera.fy - cv.K[4]) / cv.K[4], `seed ${seed} fy`).toBeLessThan(0.002);
      expect(Math.abs(ours.camera.cx - cv.K[2]), `seed ${seed} cx`).toBeLessThan(1);
      expect(Math.abs(ours.camera.cy - cv.K[5]), `seed ${seed} cy`).toBeLessThan(1);
      // And near the truth: focal lengths within 1 %, principal point within 3 px.
      expect(Math.abs(ours.camera.fx - truth.fx) / truth.fx).toBeLessThan(0.01);
      expect(Math.hypot(ours.camera.cx - truth.cx, ours.camera.cy - truth.cy)).toBeLessThan(3);
    }
  });

  it('takes views from markers found on a board, and refuses what cannot be calibrated', () => {
    const set = views(3, 44, 0);
    const found = (k: number, skip: (id: number) => boolean): DetectedMarker[] =>
      board.markers.filter((m) => !skip(m.id)).map((m) => ({ id: m.id, dictionary: 'DICT_4X4_50', corners: projectPoints(truth, set.poses[k].R, set.poses[k].t, m.corners) as DetectedMarker['corners'], rotation: 0, distance: 0, margin: 3, residual: 0.1, contrast: 50 }));
    const stray: DetectedMarker = { id: 49, dictionary: 'DICT_4X4_50', corners: [[1, 1], [9, 1], [9, 9], [1, 9]], rotation: 0, distance: 0, margin: 3, residual: 0.1, contrast: 50 };
    const v = boardViews(board, [[...found(0, () => false), stray], found(1, (id) => id % 3 === 0), found(2, (id) => id > 0)]);
    // The third frame has one marker of the board: left out; the stray marker is on no board.
    expect(v.map((x) => x.object.length)).toEqual([140, 4 * board.markers.filter((m) => m.id % 3 !== 0).length]);
    v[1].object.forEach((p, i) => {
      const [u, w] = projectPoints(truth, set.poses[1].R, set.poses[1].t, [p])[0];
      expect(Math.hypot(u - v[1].image[i][0], w - v[1].image[i][1])).toBeLessThan(1e-9);
    });
    expect(() => calibrateCamera([set.views[0]], width, height)).toThrow(InvalidOptionError);
    expect(() => calibrateCamera(set.views, width, height, { terms: 3 as never })).toThrow(InvalidOptionError);
    expect(() => calibrateCamera([{ object: [[0, 0, 1], [1, 0, 0], [1, 1, 0], [0, 1, 0]], image: [[0, 0], [1, 0], [1, 1], [0, 1]] }, set.views[0]], width, height)).toThrow(/not flat/);
    // Two views of the board face-on, only moved: nothing fixes the focal length.
    const flat = [0.4, 0.6].map((z) => ({ object: set.views[0].object, image: projectPoints(truth, rotationFromVector([0, 0, 0.1]), [-0.1, -0.08, z], set.views[0].object) }));
    expect(() => calibrateCamera(flat, width, height, { terms: 0 })).toThrow(/do not determine/);
  });
});
