// Marker pose on the CPU: rotations, the camera model, IPPE against the true pose and against OpenCV's
// solvePnP(SOLVEPNP_IPPE_SQUARE) on the same corners (Debian's python3-opencv, a test-time reference), the One
// Euro filter's jitter and lag, and MarkerPoser's flips and hysteresis.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError, MarkerPoser, OneEuroFilter, cameraModel, gridBoard, defaultOneEuroSettings, parseCamera, poseSettings, projectPoints, readOpenCvCalibration, reprojectionError, squareCorners, toNormalised, toPixels, type DetectedMarker, type Mat3 } from '../../../index.js';
import { mul3, ippeSquare, quaternionFromRotation, refinePose, rotationBetween, rotationFromVector, vectorFromRotation } from '../../../extend.js';
import { rng } from '../../../reference.js';

const deg = 180 / Math.PI;
const camera = cameraModel({ fx: 820, fy: 800, cx: 330, cy: 236, distortion: [-0.21, 0.08, 0.001, -0.0015, -0.01] });

/** A marker facing the camera (its z toward the lens), turned up to `tilt` radians, at a random place in view. */
function randomPose(r: () => number, tilt: number): { R: Mat3; t: [number, number, number] } {
  const axis = [r() - 0.5, r() - 0.5, r() - 0.5];
  const n = Math.hypot(axis[0], axis[1], axis[2]);
  const turn = rotationFromVector(axis.map((a) => (a / n) * tilt * r()));
  const z = 0.25 + r() * 0.6;
  return { R: mul3(turn, rotationFromVector([Math.PI, 0, 0])), t: [(r() - 0.5) * 0.5 * z, (r() - 0.5) * 0.4 * z, z] };
}

describe('rotations', () => {
  it('rotation vectors and matrices round-trip, near no turn and a half turn too', () => {
    const r = rng(3);
    const vectors = [[0, 0, 0], [1e-9, 0, 0], [Math.PI, 0, 0], [0, 0, -Math.PI + 1e-7], [0.3, -2.9, 0.2]];
    for (let k = 0; k < 200; k++) vectors.push([r() * 4 - 2, r() * 4 - 2, r() * 4 - 2].map((x) => x * (r() < 0.2 ? 2 : 1)));
    for (const v of vectors) {
      const R = rotationFromVector(v);
      const back = vectorFromRotation(R);
      expect(rotationBetween(rotationFromVector(back), R)).toBeLessThan(1e-6);
      expect(Math.hypot(back[0], back[1], back[2])).toBeLessThanOrEqual(Math.PI + 1e-9);
      // The quaternion turns a vector as R does.
      const [x, y, z, w] = quaternionFromRotation(R);
      const qR = [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w), 2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w), 2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)];
      qR.forEach((q, i) => expect(q).toBeCloseTo(R[i], 9));
    }
  });
});

describe('camera model', () => {
  it('undistorts what it distorts, over the whole image', () => {
    for (let v = 0; v <= 480; v += 40) {
      for (let u = 0; u <= 640; u += 40) {
        const [x, y] = toNormalised(camera, u, v);
        const [u2, v2] = toPixels(camera, x, y);
        expect(Math.hypot(u2 - u, v2 - v)).toBeLessThan(1e-6);
      }
    }
  });

  it('reads the files OpenCV writes (YAML and JSON) and the command line form', () => {
    const script = `
import cv2, numpy as np, sys
K = np.array([[820., 0, 330], [0, 800, 236], [0, 0, 1]])
d = np.array([[-0.21, 0.08, 0.001, -0.0015, -0.01]])
for name in sys.argv[1:]:
    fs = cv2.FileStorage(name, cv2.FILE_STORAGE_WRITE | cv2.FILE_STORAGE_MEMORY)
    fs.write('image_width', 640)
    fs.write('camera_matrix', K)
    fs.write('distortion_coefficients', d)
    print(fs.releaseAndGetString().replace('\\n', '\\\\n'))`;
    const [yaml, json] = execFileSync('/usr/bin/python3', ['-c', script, 'a.yml', 'a.json']).toString().trim().split('\n').map((s) => s.replace(/\\n/g, '\n'));
    expect(yaml).toContain('!!opencv-matrix');
    expect(json).toContain('"type_id"');
    for (const text of [yaml, json]) expect(readOpenCvCalibration(text)).toEqual(camera);
    expect(parseCamera('820,800,330,236,-0.21,0.08,0.001,-0.0015,-0.01')).toEqual(camera);
    expect(parseCamera('820,800,330,236').distortion).toEqual([0, 0, 0, 0, 0]);
    expect(() => parseCamera('820,800,330')).toThrow(InvalidOptionError);
    expect(() => readOpenCvCalibration('image_width: 640')).toThrow(/camera_matrix/);
    expect(() => cameraModel({ fx: -1, fy: 1, cx: 0, cy: 0 })).toThrow(InvalidOptionError);
    expect(() => cameraModel({ fx: 1, fy: 1, cx: 0, cy: 0, distortion: [0, 0, 0, 0, 0, 0.3] })).toThrow(/rational/);
  });
});

describe('IPPE for squares', () => {
  it('gives the true pose from exact corners (rotation < 1e-5°, translation < 1e-8 of the distance)', () => {
    const r = rng(11);
    for (let k = 0; k < 300; k++) {
      const { R, t } = randomPose(r, 1.3);
      const pixels = projectPoints(camera, R, t, squareCorners(0.04));
      const [best, other] = ippeSquare(pixels.map(([u, v]) => toNormalised(camera, u, v)), 0.04, [camera.fx, camera.fy]);
      expect(rotationBetween(best.R, R) * deg, `pose ${k}`).toBeLessThan(1e-5);
      expect(Math.hypot(best.t[0] - t[0], best.t[1] - t[1], best.t[2] - t[2]) / t[2]).toBeLessThan(1e-8);
      expect(best.error).toBeLessThan(1e-6);
      expect(other.error).toBeGreaterThanOrEqual(best.error);
    }
  });

  it('fits noisy corners at least as well as OpenCV IPPE_SQUARE on the same corners, and near its pose', () => {
    const r = rng(12);
    const cases = Array.from({ length: 100 }, () => {
      const { R, t } = randomPose(r, 1.2);
      const pixels = projectPoints(camera, R, t, squareCorners(0.05)).map(([u, v]) => [u + (r() - 0.5) * 1.2, v + (r() - 0.5) * 1.2]);
      return { R, t, pixels };
    });
    const script = `
import cv2, json, sys, numpy as np
cases = json.load(sys.stdin)
K = np.array([[820., 0, 330], [0, 800, 236], [0, 0, 1]])
d = np.array([-0.21, 0.08, 0.001, -0.0015, -0.01])
s = 0.05 / 2
obj = np.array([[-s, s, 0], [s, s, 0], [s, -s, 0], [-s, -s, 0]])
out = []
for c in cases:
    _, rv, tv, err = cv2.solvePnPGeneric(obj, np.array(c, dtype=np.float64).reshape(4, 1, 2), K, d, flags=cv2.SOLVEPNP_IPPE_SQUARE)
    out.append({'rvec': rv[0].ravel().tolist(), 'tvec': tv[0].ravel().tolist()})
print(json.dumps(out))`;
    const cv = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(cases.map((c) => c.pixels)) }).toString());
    cases.forEach((c, k) => {
      const image = c.pixels.map(([u, v]) => toNormalised(camera, u, v));
      const [best] = ippeSquare(image, 0.05, [camera.fx, camera.fy]);
      const theirs = { R: rotationFromVector(cv[k].rvec), t: cv[k].tvec as number[] };
      const object = squareCorners(0.05);
      // Their pose's error measured as ours is (RMS distance per corner, undistorted pixels).
      const err = Math.sqrt(object.reduce((s, X, i) => {
        const P = [0, 1, 2].map((j) => theirs.R[3 * j] * X[0] + theirs.R[3 * j + 1] * X[1] + theirs.R[3 * j + 2] * X[2] + theirs.t[j]);
        return s + (camera.fx * (P[0] / P[2] - image[i][0])) ** 2 + (camera.fy * (P[1] / P[2] - image[i][1])) ** 2;
      }, 0) / 4);
      expect(best.error, `case ${k}`).toBeLessThanOrEqual(err + 1e-9);
      // The same flip, near the same pose (both within what 0.6 px of noise allows).
      if (rotationBetween(theirs.R, best.R) * deg < 20) {
        expect(Math.hypot(best.t[0] - theirs.t[0], best.t[1] - theirs.t[1], best.t[2] - theirs.t[2]) / c.t[2]).toBeLessThan(0.01);
      }
    });
    // Mostly the same flip as OpenCV.
    const same = cases.filter((_, k) => rotationBetween(rotationFromVector(cv[k].rvec), ippeSquare(cases[k].pixels.map(([u, v]) => toNormalised(camera, u, v)), 0.05, [camera.fx, camera.fy])[0].R) * deg < 5).length;
    expect(same).toBeGreaterThanOrEqual(90);
  });
});

describe('refinePose', () => {
  it('brings a pose started 8° and 5 % off back to the least reprojection error', () => {
    const r = rng(13);
    for (let k = 0; k < 50; k++) {
      const { R, t } = randomPose(r, 1.2);
      const pixels = projectPoints(camera, R, t, squareCorners(0.05)).map(([u, v]) => [u + (r() - 0.5), v + (r() - 0.5)] as [number, number]);
      const image = pixels.map(([u, v]) => toNormalised(camera, u, v));
      const [best] = ippeSquare(image, 0.05, [camera.fx, camera.fy]);
      const axis = [r() - 0.5, r() - 0.5, r() - 0.5];
      const n = Math.hypot(axis[0], axis[1], axis[2]);
      const off = { R: mul3(rotationFromVector(axis.map((a) => (a / n) * (8 / deg))), best.R), t: best.t.map((x) => x * 1.05) as [number, number, number] };
      const start = reprojectionError(off.R, off.t, squareCorners(0.05), image, [camera.fx, camera.fy]);
      const back = refinePose(off, squareCorners(0.05), image, [camera.fx, camera.fy]);
      expect(start, `pose ${k}: the start is off`).toBeGreaterThan(best.error + 0.5);
      expect(back.error, `pose ${k}`).toBeLessThan(best.error + 1e-6);
      expect(rotationBetween(back.R, best.R) * deg, `pose ${k}`).toBeLessThan(0.01);
    }
  });
});

describe('One Euro filter', () => {
  it('cuts jitter at rest at least 3× and follows motion with at most a frame of lag', () => {
    const r = rng(5);
    const gauss = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    const dt = 1 / 30;
    // At rest: 0.3 px of noise on a corner; 60 frames after 30 to settle.
    const f = new OneEuroFilter(1, defaultOneEuroSettings);
    const raw: number[] = [];
    const out: number[] = [];
    for (let i = 0; i < 90; i++) {
      const x = 100 + 0.3 * gauss();
      const y = f.filter([x], dt)[0];
      if (i >= 30) [raw.push(x), out.push(y)];
    }
    const std = (a: number[]) => Math.sqrt(a.reduce((s, x) => s + (x - a.reduce((p, q) => p + q, 0) / a.length) ** 2, 0) / a.length);
    expect(std(raw) / std(out)).toBeGreaterThan(3);
    // In motion: a corner at 300 px/s (10 px a frame, a hand's slow move at half a metre) with the same noise.
    const g = new OneEuroFilter(1, defaultOneEuroSettings);
    let lag = 0;
    for (let i = 0; i < 60; i++) {
      const truth = 10 * i;
      const y = g.filter([truth + 0.3 * gauss()], dt)[0];
      if (i >= 20) lag = Math.max(lag, (truth - y) / 10);
    }
    expect(lag).toBeLessThanOrEqual(1);
  });
});

describe('MarkerPoser', () => {
  const marker = (id: number, corners: [number, number][]): DetectedMarker => ({ id, dictionary: 'DICT_4X4_50', corners: corners as DetectedMarker['corners'], rotation: 0, distance: 0, margin: 3, residual: 0.1, contrast: 50 });

  it('keeps the flip of the previous frame where both fit about as well', () => {
    // A small far marker nearly facing the camera, turned slowly, with noisy corners: each frame alone picks
    // either flip; the poser holds the true one.
    const r = rng(8);
    const poser = new MarkerPoser(poseSettings({ camera, markerSize: 0.03, smoothing: false }));
    let wrongAlone = 0;
    let wrongKept = 0;
    for (let i = 0; i < 100; i++) {
      const R = mul3(rotationFromVector([0.25 + 0.001 * i, 0.1, 0]), rotationFromVector([Math.PI, 0, 0]));
      const t: [number, number, number] = [0.02, -0.01, 1.2];
      const pixels = projectPoints(camera, R, t, squareCorners(0.03)).map(([u, v]) => [u + (r() - 0.5) * 0.6, v + (r() - 0.5) * 0.6] as [number, number]);
      const [best] = ippeSquare(pixels.map(([u, v]) => toNormalised(camera, u, v)), 0.03, [camera.fx, camera.fy]);
      if (rotationBetween(best.R, R) * deg > 10) wrongAlone++;
      const p = poser.update([marker(7, pixels)], i * 33_333).markers[0];
      // The first frame has nothing to go by.
      if (i > 0 && rotationBetween(rotationFromVector(p.rvec), R) * deg > 10) wrongKept++;
    }
    expect(wrongAlone).toBeGreaterThan(5);
    expect(wrongKept).toBeLessThan(wrongAlone / 5);
  });

  it('reports a marker after foundAfter frames, keeps it lostAfter frames unseen, with found and lost events', () => {
    const { R, t } = { R: rotationFromVector([Math.PI, 0, 0]), t: [0, 0, 0.5] };
    const seen = projectPoints(camera, R, t, squareCorners(0.05)) as [number, number][];
    const poser = new MarkerPoser(poseSettings({ camera, markerSize: 0.05, foundAfter: 3, lostAfter: 2 }));
    const pattern = [1, 1, 1, 1, 0, 0, 1, 0, 0, 0, 1];
    const log = pattern.map((on, i) => {
      const r = poser.update(on ? [marker(4, seen)] : [], i * 33_333);
      return `${r.markers.map((m) => (m.seen ? 'S' : 's')).join('')}${r.events.map((e) => e.type[0]).join('')}`;
    });
    expect(log).toEqual(['', '', 'Sf', 'S', 's', 's', 'S', 's', 's', 'l', '']);
    expect(() => poseSettings({ camera, markerSize: 0 })).toThrow(InvalidOptionError);
    expect(() => poseSettings({ camera, markerSize: 1, foundAfter: 0 })).toThrow(InvalidOptionError);
    expect(() => poseSettings({ camera, markerSize: 1, smoothing: { minCutoff: -1 } })).toThrow(InvalidOptionError);
    expect(() => poseSettings({ camera: { fx: 1 } as never, markerSize: 1 })).toThrow(InvalidOptionError);
  });

  it('keeps one id of two dictionaries as two markers; a board of a dictionary takes only its own', () => {
    const at = (x: number) => projectPoints(camera, rotationFromVector([Math.PI, 0, 0]), [x, 0, 0.5], squareCorners(0.05)) as [number, number][];
    const aruco = marker(3, at(-0.1));
    const april = { ...marker(3, at(0.1)), dictionary: 'DICT_APRILTAG_36h11' };
    const board = gridBoard({ name: 'april', columns: 1, rows: 1, markerSize: 0.05, separation: 0, firstId: 3, dictionary: 'DICT_APRILTAG_36H11' });
    const poser = new MarkerPoser(poseSettings({ camera, markerSize: 0.05, boards: [board], smoothing: false }));
    const first = poser.update([aruco, april], 0);
    expect(first.markers.map((m) => [m.id, m.dictionary, m.tvec[0].toFixed(3)])).toEqual([[3, 'DICT_4X4_50', '-0.100'], [3, 'DICT_APRILTAG_36h11', '0.100']]);
    expect(first.events.filter((e) => e.id === 3).map((e) => `${e.type} ${e.dictionary}`)).toEqual(['found DICT_4X4_50', 'found DICT_APRILTAG_36h11']);
    // The board is the AprilTag's place, not the ArUco marker's of the same id.
    expect(first.boards[0].tvec[0]).toBeCloseTo(0.1 - 0.025, 3);
    const second = poser.update([april], 33_333);
    expect(second.markers.map((m) => m.dictionary)).toEqual(['DICT_APRILTAG_36h11']);
    expect(second.events.map((e) => `${e.type} ${e.id} ${e.dictionary}`)).toEqual(['lost 3 DICT_4X4_50']);
    // Only the ArUco marker seen: the AprilTag board is not.
    expect(poser.update([aruco], 66_666).boards).toEqual([]);
  });
});
