// Boards (several markers, one pose) on the CPU: gridBoard's layout against OpenCV's aruco.GridBoard, boardPose
// against the true pose (exact and noisy corners, any subset of markers seen) and against OpenCV's
// estimatePoseBoard on the same corners (Debian's python3-opencv, a test-time reference), and MarkerPoser's boards:
// hysteresis, events, sizes from the board, refusals.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError, MarkerPoser, board, markerKey, boardPose, cameraModel, gridBoard, poseSettings, projectPoints, reprojectionError, toNormalised, type Board, type DetectedMarker, type Mat3 } from '../../../index.js';
import { ippeSquare, mul3, rotationBetween, rotationFromVector } from '../../../extend.js';
import { rng } from '../../../reference.js';

const deg = 180 / Math.PI;
const camera = cameraModel({ fx: 820, fy: 800, cx: 330, cy: 236, distortion: [-0.21, 0.08, 0.001, -0.0015, -0.01] });
const grid = gridBoard({ name: 'table', columns: 4, rows: 3, markerSize: 0.04, separation: 0.01, firstId: 10 });
const scale: [number, number] = [camera.fx, camera.fy];

/** The board facing the camera (its z, into the board, away from the lens), turned up to `tilt`, its centre in view. */
function randomPose(r: () => number, tilt: number): { R: Mat3; t: [number, number, number] } {
  const axis = [r() - 0.5, r() - 0.5, r() - 0.5];
  const n = Math.hypot(axis[0], axis[1], axis[2]);
  const R = rotationFromVector(axis.map((a) => (a / n) * tilt * r()));
  const z = 0.45 + r() * 0.5;
  const centre = [0.095, 0.07, 0];
  const at = [(r() - 0.5) * 0.3 * z, (r() - 0.5) * 0.2 * z, z];
  const Rc = [0, 1, 2].map((i) => R[3 * i] * centre[0] + R[3 * i + 1] * centre[1] + R[3 * i + 2] * centre[2]);
  return { R, t: [at[0] - Rc[0], at[1] - Rc[1], at[2] - Rc[2]] };
}

/** The board's markers as seen from a pose: pixels (distorted), with noise of ± noise / 2. */
function seenFrom(b: Board, pose: { R: Mat3; t: number[] }, r: () => number, noise: number): { id: number; pixels: [number, number][] }[] {
  return b.markers.map((m) => ({ id: m.id, pixels: projectPoints(camera, pose.R, pose.t, m.corners).map(([u, v]) => [u + (r() - 0.5) * noise, v + (r() - 0.5) * noise] as [number, number]) }));
}

/** boardPose over these markers of the board. */
function solve(b: Board, seen: { id: number; pixels: [number, number][] }[]) {
  const parts = seen.map((s) => {
    const image = s.pixels.map(([u, v]) => toNormalised(camera, u, v));
    return { marker: b.markers.find((m) => m.id === s.id)!, image, poses: ippeSquare(image, 0.04, scale) };
  });
  return boardPose(parts, scale);
}

const translationError = (t: readonly number[], truth: readonly number[]) => Math.hypot(t[0] - truth[0], t[1] - truth[1], t[2] - truth[2]) / Math.hypot(truth[0], truth[1], truth[2]);
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];

describe('gridBoard', () => {
  it("lays markers out as OpenCV's aruco.GridBoard does: the same ids at the same corners", () => {
    const script = `
import cv2, json, numpy as np
d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
out = []
for (cols, rows, side, gap, first) in [(4, 3, 0.04, 0.01, 10), (3, 2, 0.05, 0.002, 0), (1, 5, 30, 6, 7)]:
    b = cv2.aruco.GridBoard_create(cols, rows, side, gap, d, first)
    out.append({'ids': np.array(b.ids).ravel().tolist(), 'corners': np.array(b.objPoints).tolist()})
print(json.dumps(out))`;
    const cv = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script]).toString());
    const ours = [grid, gridBoard({ columns: 3, rows: 2, markerSize: 0.05, separation: 0.002 }), gridBoard({ columns: 1, rows: 5, markerSize: 30, separation: 6, firstId: 7 })];
    ours.forEach((b, k) => {
      expect(b.markers.map((m) => m.id)).toEqual(cv[k].ids);
      b.markers.forEach((m, i) => m.corners.forEach((p, c) => p.forEach((x, j) => expect(x).toBeCloseTo(cv[k].corners[i][c][j], 5))));
    });
  });

  it('refuses layouts that are not boards', () => {
    expect(() => gridBoard({ columns: 0, rows: 2, markerSize: 1, separation: 0 })).toThrow(InvalidOptionError);
    expect(() => gridBoard({ columns: 2, rows: 2, markerSize: -1, separation: 0 })).toThrow(InvalidOptionError);
    expect(() => gridBoard({ columns: 2, rows: 2, markerSize: 1, separation: 0, ids: [1, 2, 3] })).toThrow(InvalidOptionError);
    expect(() => gridBoard({ columns: 2, rows: 1, markerSize: 1, separation: 0, ids: [4, 4] })).toThrow(InvalidOptionError);
    const square = grid.markers[0].corners;
    expect(() => board({ name: 'x', markers: [{ id: 1, corners: [square[0], square[1], square[2], [0, 0.05, 0]] }] })).toThrow(/not a square/);
    expect(() => board({ name: '', markers: [{ id: 1, corners: square }] })).toThrow(InvalidOptionError);
    expect(() => board({ name: 'x', markers: [] })).toThrow(InvalidOptionError);
  });
});

describe('boardPose', () => {
  it('gives the true pose from exact corners, from all markers or any one of them, in any layout', () => {
    const r = rng(21);
    // A layout of OpenCV's own Board::create kind: markers turned and lifted off one plane (a corner of a box).
    const turned = board({
      name: 'box corner',
      markers: [
        { id: 1, corners: [[0, 0, 0], [0.04, 0, 0], [0.04, 0.04, 0], [0, 0.04, 0]] },
        { id: 2, corners: [[0.1, 0.05, 0], [0.1, 0.01, 0], [0.14, 0.01, 0], [0.14, 0.05, 0]] },
        { id: 3, corners: [[0, 0.06, 0], [0.04, 0.06, 0], [0.04, 0.06, -0.04], [0, 0.06, -0.04]] },
      ],
    });
    for (let k = 0; k < 60; k++) {
      const truth = randomPose(r, 0.9);
      for (const b of [grid, turned]) {
        const seen = seenFrom(b, truth, r, 0);
        for (const subset of [seen, [seen[k % seen.length]]]) {
          const [best] = solve(b, subset);
          expect(rotationBetween(best.R, truth.R) * deg, `pose ${k}, ${b.name}, ${subset.length} markers`).toBeLessThan(1e-5);
          expect(translationError(best.t, truth.t)).toBeLessThan(1e-8);
          expect(best.error).toBeLessThan(1e-6);
        }
      }
    }
  });

  it('from noisy corners is several times nearer the truth than its markers alone, from all of them or three', () => {
    const r = rng(22);
    const boardErrors: number[] = [];
    const partialErrors: number[] = [];
    const markerErrors: number[] = [];
    const partialShifts: number[] = [];
    const markerShifts: number[] = [];
    for (let k = 0; k < 100; k++) {
      const truth = randomPose(r, 1.0);
      const seen = seenFrom(grid, truth, r, 1.2);
      const [best] = solve(grid, seen);
      boardErrors.push(rotationBetween(best.R, truth.R) * deg);
      expect(translationError(best.t, truth.t), `pose ${k}`).toBeLessThan(0.01);
      // Each marker's own best pose, carried to the board's frame (its rotation is the board's, turned by the layout).
      for (const s of seen.slice(0, 3)) {
        const [alone] = solve(grid, [s]);
        markerErrors.push(rotationBetween(alone.R, truth.R) * deg);
        markerShifts.push(translationError(alone.t, truth.t));
      }
      // Most of the board hidden: three markers left.
      const few = [0, 5, 11].map((i) => seen[(i + k) % seen.length]);
      const [partial] = solve(grid, few);
      partialErrors.push(rotationBetween(partial.R, truth.R) * deg);
      partialShifts.push(translationError(partial.t, truth.t));
      // Three neighbouring markers leave the pose loose (a few degrees at worst): what is left is the noise's doing,
      // as the pose found fits the corners at least as well as the true one.
      const object = few.flatMap((s) => grid.markers.find((m) => m.id === s.id)!.corners);
      const image = few.flatMap((s) => s.pixels.map(([u, v]) => toNormalised(camera, u, v)));
      expect(partial.error).toBeLessThanOrEqual(reprojectionError(truth.R, truth.t, object, image, scale));
    }
    expect(median(boardErrors) * 4).toBeLessThan(median(markerErrors));
    expect(median(partialErrors) * 2).toBeLessThan(median(markerErrors));
    expect(median(partialShifts) * 2).toBeLessThan(median(markerShifts));
    expect(Math.max(...boardErrors)).toBeLessThan(1);
  });

  it("fits noisy corners at least as well as OpenCV's estimatePoseBoard on the same corners, and near its pose", () => {
    const r = rng(23);
    const cases = Array.from({ length: 60 }, (_, k) => {
      const truth = randomPose(r, 1.1);
      // Some markers hidden in some frames.
      const seen = seenFrom(grid, truth, r, 1.5).filter((_, i) => (i * 7 + k) % 5 !== 0 || k % 2 === 0);
      return { truth, seen };
    });
    const script = `
import cv2, json, sys, numpy as np
cases = json.load(sys.stdin)
K = np.array([[820., 0, 330], [0, 800, 236], [0, 0, 1]])
d = np.array([-0.21, 0.08, 0.001, -0.0015, -0.01])
b = cv2.aruco.GridBoard_create(4, 3, 0.04, 0.01, cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), 10)
out = []
for c in cases:
    corners = [np.array(m['pixels'], dtype=np.float32).reshape(1, 4, 2) for m in c]
    ids = np.array([[m['id']] for m in c], dtype=np.int32)
    n, rv, tv = cv2.aruco.estimatePoseBoard(corners, ids, b, K, d, None, None)
    out.append({'n': int(n), 'rvec': np.array(rv).ravel().tolist(), 'tvec': np.array(tv).ravel().tolist()})
print(json.dumps(out))`;
    const cv = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(cases.map((c) => c.seen)) }).toString());
    let nearer = 0;
    cases.forEach((c, k) => {
      expect(cv[k].n).toBe(c.seen.length);
      const [best] = solve(grid, c.seen);
      // Their pose's error measured as ours is (RMS over the corners, undistorted pixels): their corners are float32.
      const object = c.seen.flatMap((s) => grid.markers.find((m) => m.id === s.id)!.corners);
      const image = c.seen.flatMap((s) => s.pixels.map(([u, v]) => toNormalised(camera, Math.fround(u), Math.fround(v))));
      const theirs = { R: rotationFromVector(cv[k].rvec), t: cv[k].tvec as number[] };
      const err = Math.sqrt(object.reduce((sum, X, i) => {
        const P = [0, 1, 2].map((j) => theirs.R[3 * j] * X[0] + theirs.R[3 * j + 1] * X[1] + theirs.R[3 * j + 2] * X[2] + theirs.t[j]);
        return sum + (scale[0] * (P[0] / P[2] - image[i][0])) ** 2 + (scale[1] * (P[1] / P[2] - image[i][1])) ** 2;
      }, 0) / object.length);
      expect(best.error, `case ${k}`).toBeLessThanOrEqual(err * 1.0001 + 1e-4);
      expect(rotationBetween(best.R, theirs.R) * deg, `case ${k}`).toBeLessThan(0.5);
      expect(translationError(best.t, theirs.t), `case ${k}`).toBeLessThan(0.005);
      if (rotationBetween(best.R, c.truth.R) <= rotationBetween(theirs.R, c.truth.R)) nearer++;
    });
    // As near the truth as OpenCV's about as often (the same least-squares problem; float32 corners on their side).
    expect(nearer).toBeGreaterThanOrEqual(20);
  });
});

describe('MarkerPoser with boards', () => {
  const marker = (id: number, corners: [number, number][]): DetectedMarker => ({ id, dictionary: 'DICT_4X4_50', corners: corners as DetectedMarker['corners'], rotation: 0, distance: 0, margin: 3, residual: 0.1, contrast: 50 });

  it("reports the board while any of its markers is seen, with the same hysteresis and events as a marker's", () => {
    const truth = { R: rotationFromVector([0.2, -0.1, 0.05]), t: [-0.09, -0.07, 0.6] };
    const seen = seenFrom(grid, truth, rng(24), 0);
    // Markers of the board seen per frame (indices into the board), and a marker on no board (id 40).
    const frames = [[0, 1, 2], [5], [11], [], [], [3, 4], [], [], [], [7]];
    const stray = projectPoints(camera, mul3(rotationFromVector([0.1, 0, 0]), truth.R), [0.1, 0, 0.5], grid.markers[0].corners.map((p) => [p[0] - 0.02, p[1] - 0.02, 0])) as [number, number][];
    const poser = new MarkerPoser(poseSettings({ camera, boards: [grid], foundAfter: 2, lostAfter: 2, smoothing: false }));
    const log = frames.map((on, f) => {
      const r = poser.update([...on.map((i) => marker(seen[i].id, seen[i].pixels)), marker(40, stray)], f * 33_333);
      // Without markerSize the stray marker, on no board, has no pose.
      expect(r.markers.map((m) => m.id).every((id) => id >= 10 && id < 22)).toBe(true);
      for (const b of r.boards.filter((x) => x.seen)) {
        expect(rotationBetween(rotationFromVector(b.rvec), truth.R) * deg).toBeLessThan(1e-4);
        expect(translationError(b.tvec, truth.t)).toBeLessThan(1e-6);
        expect(b.markers).toEqual(on.map((i) => seen[i].id));
      }
      return `${r.boards.map((b) => (b.seen ? 'S' : 's') + b.markers.length).join('')}${r.events.filter((e) => e.board).map((e) => e.type[0] + e.board).join('')}`;
    });
    expect(log).toEqual(['', 'S1ftable', 'S1', 's0', 's0', 'S2', 's0', 's0', 'ltable', '']);
  });

  it('takes marker sides from the boards, and refuses boards that clash', () => {
    const s = poseSettings({ camera, markerSize: 0.1, boards: [grid], sizes: { 3: 0.2 } });
    const side = (id: number) => s.boardSides.get(markerKey('', id));
    expect([side(10), side(21), s.sizes[3], s.markerSize].map((x) => x!.toFixed(12))).toEqual(['0.040000000000', '0.040000000000', '0.200000000000', '0.100000000000']);
    expect(() => poseSettings({ camera })).toThrow(/markerSize/);
    expect(() => poseSettings({ camera, boards: [grid], sizes: { 12: 0.05 } })).toThrow(/sizes gives marker 12/);
    expect(() => poseSettings({ camera, boards: [grid, gridBoard({ name: 'other', columns: 2, rows: 1, markerSize: 0.04, separation: 0.01, firstId: 21 })] })).toThrow(/marker 21 is on boards/);
    expect(() => poseSettings({ camera, boards: [grid, grid] })).toThrow(/two boards are named/);
    // Boards of two dictionaries may share ids; one of a dictionary and one of any may not.
    const of = (name: string, dictionary?: string) => gridBoard({ name, columns: 2, rows: 1, markerSize: 0.04, separation: 0.01, firstId: 21, dictionary });
    expect(() => poseSettings({ camera, boards: [of('a', 'DICT_4X4_50'), of('b', 'DICT_APRILTAG_36h11')] })).not.toThrow();
    expect(() => poseSettings({ camera, boards: [of('a', 'DICT_4X4_50'), of('b', 'dict_4x4_50')] })).toThrow(/marker 21 is on boards 'a' and 'b'/);
    expect(() => poseSettings({ camera, boards: [of('a', 'DICT_4X4_50'), of('b')] })).toThrow(/marker 21 is on boards 'a' and 'b'/);
    expect(() => gridBoard({ name: 'x', columns: 1, rows: 1, markerSize: 1, separation: 0, dictionary: '' })).toThrow(InvalidOptionError);
    expect(() => poseSettings({ camera, boards: {} as never })).toThrow(InvalidOptionError);
  });
});
