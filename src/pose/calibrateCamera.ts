/**
 * Camera calibration from views of a flat target (a board of markers): Zhang's method (IEEE PAMI 22(11), 2000) —
 * a homography per view, the intrinsics in closed form from their constraints (zero skew), each view's pose from its
 * homography — then Levenberg–Marquardt over everything at once (fx, fy, cx, cy, the Brown–Conrady terms asked for,
 * and every view's pose) on the reprojection error, as OpenCV's `calibrateCamera` does.
 */
import { InvalidOptionError } from '../core/errors.js';
import type { DetectedMarker } from '../core/results.js';
import type { Board } from './Board.js';
import type { CharucoBoard } from './charucoBoard.js';
import { cameraModel, projectPoints, type CameraModel } from './CameraModel.js';
import { mul3, rotationFromVector, type Mat3, type Vec3 } from './rotation.js';
import { planeHomography, poseFromHomography } from './homography.js';
import { solveLinear } from './solveLinear.js';

export interface CalibrationView {
  /** Points on the target's plane (z = 0), in the target's unit. */
  object: readonly (readonly number[])[];
  /** Where each was seen, pixels (centres at integers). */
  image: readonly (readonly [number, number])[];
}

export interface CalibrationOptions {
  /** Distortion terms estimated: 0 (none), 2 (k1, k2), 4 (k1, k2, p1, p2) or 5 (and k3: OpenCV's default). Default 5. */
  terms?: 0 | 2 | 4 | 5;
  /** Levenberg–Marquardt rounds at most (default 100). */
  rounds?: number;
}

export interface Calibration {
  camera: CameraModel;
  /** Root mean square reprojection error over all the points, pixels (what OpenCV's calibrateCamera returns). */
  error: number;
  /** Each view's target pose (X_camera = R X_target + t) and its own RMS error. */
  views: { R: Mat3; t: Vec3; error: number }[];
}

/** The intrinsics and distortion that best explain the views; at least two views of at least four points each. */
export function calibrateCamera(views: readonly CalibrationView[], width: number, height: number, options: CalibrationOptions = {}): Calibration {
  const terms = options.terms ?? 5;
  if (![0, 2, 4, 5].includes(terms)) throw new InvalidOptionError(`calibrateCamera: terms must be 0, 2, 4 or 5, got ${String(terms)}`);
  if (!(width > 0 && height > 0)) throw new InvalidOptionError(`calibrateCamera: width and height must be positive, got ${width} × ${height}`);
  const list: readonly CalibrationView[] = Array.isArray(views) ? views : [];
  if (list.length < 2) throw new InvalidOptionError(`calibrateCamera: needs at least two views, got ${list.length}`);
  views.forEach((v, k) => {
    if (v.object.length < 4 || v.object.length !== v.image.length) throw new InvalidOptionError(`calibrateCamera: view ${k} needs at least four points, as many seen as on the target`);
    if (v.object.some((p) => Math.abs(p[2] ?? 0) > 1e-9)) throw new InvalidOptionError(`calibrateCamera: view ${k}'s target is not flat (z must be 0)`);
  });
  // Zhang's closed form in coordinates scaled to about ±0.5 (pixels are badly conditioned for it).
  const s = Math.max(width, height);
  const [ox, oy] = [width / 2, height / 2];
  const Hs = views.map((v) => planeHomography(v.object, v.image.map(([u, w]) => [(u - ox) / s, (w - oy) / s])));
  const K = zhangIntrinsics(Hs);
  const start = { fx: K.fx * s, fy: K.fy * s, cx: K.cx * s + ox, cy: K.cy * s + oy };
  const poses = Hs.map((H) => poseFromHomography(H, K));
  return refine(views, start, poses, terms, options.rounds ?? 100);
}

/**
 * Calibration views from markers found on frames of a board (`markers()` results, one list per frame): each
 * frame's markers of the board, their corners matched to the board's. Frames with fewer than `minMarkers` of the
 * board's markers are left out, and frames where one of its ids is seen twice (which is which?). The board must be
 * flat (a `gridBoard` is).
 */
export function boardViews(board: Board, frames: readonly (readonly DetectedMarker[])[], minMarkers = 2): CalibrationView[] {
  const byId = new Map(board.markers.map((m) => [m.id, m]));
  return frames.flatMap((found) => {
    const seen = found.filter((m) => byId.has(m.id));
    if (new Set(seen.map((m) => m.id)).size !== seen.length || seen.length < minMarkers) return [];
    return [{ object: seen.flatMap((m) => byId.get(m.id)!.corners), image: seen.flatMap((m) => m.corners) }];
  });
}

/**
 * Calibration views from the chessboard corners found on frames of a ChArUco board (`charucoCorners`, refined by
 * `refineChessCorners` or not; one list per frame). Frames with fewer than `minCorners` corners (default 6), or
 * whose corners all lie on one line of the board (no plane to fit), are left out, and frames where an id is seen twice.
 */
export function charucoViews(board: CharucoBoard, frames: readonly (readonly { readonly id: number; readonly at: readonly [number, number] }[])[], minCorners = 6): CalibrationView[] {
  if (!Number.isInteger(minCorners) || minCorners < 4) throw new InvalidOptionError(`charucoViews: minCorners must be an integer of at least 4, got ${minCorners}`);
  return frames.flatMap((found) => {
    const seen = found.filter((c) => board.corners[c.id] !== undefined);
    if (new Set(seen.map((c) => c.id)).size !== seen.length || seen.length < minCorners) return [];
    const object = seen.map((c) => board.corners[c.id].at);
    return spread(object) ? [{ object, image: seen.map((c) => c.at) }] : [];
  });
}

/** Whether plane points span the plane (their scatter's smaller eigenvalue not negligible beside the larger). */
function spread(points: readonly (readonly number[])[]): boolean {
  const n = points.length;
  const [mx, my] = [points.reduce((a, p) => a + p[0], 0) / n, points.reduce((a, p) => a + p[1], 0) / n];
  let [sxx, syy, sxy] = [0, 0, 0];
  for (const [x, y] of points) [sxx, syy, sxy] = [sxx + (x - mx) ** 2, syy + (y - my) ** 2, sxy + (x - mx) * (y - my)];
  return sxx * syy - sxy * sxy > 1e-6 * (sxx + syy) ** 2;
}

/** fx, fy, cx, cy (zero skew) from the views' homographies: hᵢᵀ B hⱼ constraints, B = K⁻ᵀK⁻¹, B11 fixed at 1. */
function zhangIntrinsics(Hs: number[][]): { fx: number; fy: number; cx: number; cy: number } {
  // Column j of H (row-major) is (H[j], H[3 + j], H[6 + j]).
  const v = (H: number[], i: number, j: number) => {
    const [a, b] = [[H[i], H[3 + i], H[6 + i]], [H[j], H[3 + j], H[6 + j]]];
    // Coefficients of (B11, B22, B13, B23, B33), B12 = 0.
    return [a[0] * b[0], a[1] * b[1], a[2] * b[0] + a[0] * b[2], a[2] * b[1] + a[1] * b[2], a[2] * b[2]];
  };
  const N = Array.from({ length: 4 }, () => new Array<number>(4).fill(0));
  const g = new Array<number>(4).fill(0);
  for (const H of Hs) {
    const v12 = v(H, 0, 1);
    const v11 = v(H, 0, 0);
    const v22 = v(H, 1, 1);
    for (const row of [v12, v11.map((x, k) => x - v22[k])]) {
      // row · (1, B22, B13, B23, B33) = 0.
      for (let p = 0; p < 4; p++) {
        g[p] -= row[p + 1] * row[0];
        for (let q = 0; q < 4; q++) N[p][q] += row[p + 1] * row[q + 1];
      }
    }
  }
  const [B22, B13, B23, B33] = solveLinear(N, g);
  const cy = -B23 / B22;
  const lambda = B33 - (B13 * B13 - cy * B23);
  if (!(lambda > 0 && B22 > 0)) throw new InvalidOptionError('calibrateCamera: the views do not determine the intrinsics (too few, or all seen face-on from one direction: tilt the target between views)');
  const fx = Math.sqrt(lambda);
  const fy = Math.sqrt(lambda / B22);
  return { fx, fy, cx: (-B13 * fx * fx) / lambda, cy };
}

/** Levenberg–Marquardt over the intrinsics, `terms` distortion terms and every view's pose (numeric Jacobian). */
function refine(views: readonly CalibrationView[], start: { fx: number; fy: number; cx: number; cy: number }, poses: { R: Mat3; t: Vec3 }[], terms: number, rounds: number): Calibration {
  const ni = 4 + terms;
  const n = ni + 6 * views.length;
  // Intrinsics and distortion as parameters; each view's pose as R₀ turned by ω, and t.
  let intr = [start.fx, start.fy, start.cx, start.cy, 0, 0, 0, 0, 0].slice(0, ni);
  let base = poses.map((p) => ({ R: p.R, w: [0, 0, 0], t: [...p.t] }));
  const distortionOf = (x: number[]) => [0, 1, 2, 3, 4].map((k) => (k < terms ? x[4 + k] : 0));
  const residuals = (x: number[], view: number, R: Mat3, t: number[]) => {
    const cam = { fx: x[0], fy: x[1], cx: x[2], cy: x[3], distortion: distortionOf(x) };
    const seen = projectPoints(cam, R, t, views[view].object);
    return seen.flatMap(([u, v], i) => [u - views[view].image[i][0], v - views[view].image[i][1]]);
  };
  const viewR = (b: { R: Mat3; w: number[] }) => mul3(rotationFromVector(b.w), b.R);
  const sumSq = (x: number[], bs: typeof base) => bs.reduce((s, b, k) => s + residuals(x, k, viewR(b), b.t).reduce((a, r) => a + r * r, 0), 0);
  let cost = sumSq(intr, base);
  let lambda = 1e-3;
  for (let round = 0; round < rounds; round++) {
    const N = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    const g = new Array<number>(n).fill(0);
    base.forEach((b, k) => {
      const R = viewR(b);
      const r0 = residuals(intr, k, R, b.t);
      // Columns: the intrinsics (all views), then this view's six.
      const cols: { index: number; d: number[] }[] = [];
      for (let p = 0; p < ni; p++) {
        const h = p < 4 ? 1e-6 * Math.max(1, Math.abs(intr[p])) : 1e-7;
        const x = [...intr];
        x[p] += h;
        cols.push({ index: p, d: residuals(x, k, R, b.t).map((r, i) => (r - r0[i]) / h) });
      }
      for (let p = 0; p < 6; p++) {
        const h = 1e-7 * (p < 3 ? 1 : Math.max(1e-3, Math.hypot(...b.t)));
        const w = [...b.w];
        const t = [...b.t];
        if (p < 3) w[p] += h;
        else t[p - 3] += h;
        cols.push({ index: ni + 6 * k + p, d: residuals(intr, k, mul3(rotationFromVector(w), b.R), t).map((r, i) => (r - r0[i]) / h) });
      }
      for (const a of cols) {
        for (let i = 0; i < r0.length; i++) g[a.index] -= a.d[i] * r0[i];
        for (const c of cols) {
          let sum = 0;
          for (let i = 0; i < r0.length; i++) sum += a.d[i] * c.d[i];
          N[a.index][c.index] += sum;
        }
      }
    });
    let improved = false;
    for (let attempt = 0; attempt < 8 && !improved; attempt++) {
      const damped = N.map((row, p) => row.map((x, q) => (p === q ? x * (1 + lambda) + 1e-12 : x)));
      const d = solveLinear(damped, g);
      if (d.some((x) => !Number.isFinite(x))) {
        lambda *= 10;
        continue;
      }
      const x2 = intr.map((x, p) => x + d[p]);
      const b2 = base.map((b, k) => ({ R: b.R, w: b.w.map((w, j) => w + d[ni + 6 * k + j]), t: b.t.map((t, j) => t + d[ni + 6 * k + 3 + j]) }));
      const c2 = sumSq(x2, b2);
      if (c2 <= cost) {
        const gain = cost - c2;
        // Fold the turn into each view's rotation (ω stays small).
        [intr, base, cost] = [x2, b2.map((b) => ({ R: viewR(b), w: [0, 0, 0], t: b.t })), c2];
        lambda = Math.max(1e-12, lambda / 10);
        improved = true;
        if (gain <= 1e-12 * c2 + 1e-18) round = rounds;
      } else {
        lambda *= 10;
      }
    }
    if (!improved) break;
  }
  const points = views.reduce((s, v) => s + v.object.length, 0);
  const camera = cameraModel({ fx: intr[0], fy: intr[1], cx: intr[2], cy: intr[3], distortion: distortionOf(intr) as CameraModel['distortion'] });
  return {
    camera,
    error: Math.sqrt(cost / points),
    views: base.map((b, k) => {
      const r = residuals(intr, k, b.R, b.t);
      return { R: b.R, t: [b.t[0], b.t[1], b.t[2]] as Vec3, error: Math.sqrt(r.reduce((a, x) => a + x * x, 0) / views[k].object.length) };
    }),
  };
}
