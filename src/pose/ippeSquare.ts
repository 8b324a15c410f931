/**
 * The pose of a square from its four corners: IPPE, Infinitesimal Plane-based Pose Estimation (Collins & Bartoli,
 * IJCV 2014), which gives both rotations a plane's homography allows (the two "flips" a small or far square cannot
 * tell apart), each with its translation, then each refined by Gauss–Newton (Levenberg–Marquardt) on the
 * reprojection error (refinePose.ts). The square lies on z = 0 with its centre at the origin, corners in OpenCV's
 * `SOLVEPNP_IPPE_SQUARE` order: (−s/2, s/2), (s/2, s/2), (s/2, −s/2), (−s/2, −s/2) — top-left, top-right,
 * bottom-right, bottom-left as printed, x to the right, y up, z out of the marker toward whoever sees it.
 */
import { homography } from './homography.js';
import { refinePose, type PoseSolution } from './refinePose.js';
import { mul3, type Mat3 } from './rotation.js';
import { solveLinear } from './solveLinear.js';

/** The square's corners on its plane, in the order of `ippeSquare`'s corners. */
export function squareCorners(side: number): [number, number, number][] {
  const h = side / 2;
  return [
    [-h, h, 0],
    [h, h, 0],
    [h, -h, 0],
    [-h, -h, 0],
  ];
}

/**
 * Both poses of a square of this side from its corners in normalised coordinates (undistorted, x / z and y / z), the
 * better first (smaller reprojection error); errors in the units of `scale` (pass fx and fy to get pixels).
 */
export function ippeSquare(corners: readonly (readonly [number, number])[], side: number, scale: readonly [number, number] = [1, 1]): [PoseSolution, PoseSolution] {
  const object = squareCorners(side);
  const h = homography(
    object.map((p) => [p[0], p[1]]),
    corners,
  );
  // The image of the plane's origin and the homography's Jacobian there (h33 = 1).
  const v: [number, number] = [h[2], h[5]];
  const J = [h[0] - h[6] * h[2], h[1] - h[7] * h[2], h[3] - h[6] * h[5], h[4] - h[7] * h[5]];
  const solutions = ippeRotations(v, J).map((R) => {
    const t = translationFor(R, object, corners);
    return refinePose({ R, t }, object, corners, scale);
  });
  solutions.sort((a, b) => a.error - b.error);
  return [solutions[0], solutions[1]];
}

/**
 * IPPE's two rotations from the image v of the plane's origin and the Jacobian J (row-major 2×2) of the
 * plane-to-image homography there (the paper's Algorithm 1).
 */
function ippeRotations(v: [number, number], J: number[]): [Mat3, Mat3] {
  // Rv turns the optical axis onto the ray through v.
  const t = Math.hypot(v[0], v[1]);
  let Rv: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  if (t > 1e-12) {
    const s = Math.hypot(t, 1);
    const cosT = 1 / s;
    const sinT = Math.sqrt(1 - 1 / (s * s));
    // K = [[0, 0, v0], [0, 0, v1], [−v0, −v1, 0]] / t; Rv = I + sin K + (1 − cos) K².
    const K = [0, 0, v[0] / t, 0, 0, v[1] / t, -v[0] / t, -v[1] / t, 0];
    const K2 = mul3(K, K);
    Rv = Rv.map((x, i) => x + sinT * K[i] + (1 - cosT) * K2[i]);
  }
  // B: the first two columns of [I | −v] Rv; A = B⁻¹ J.
  const B = [Rv[0] - v[0] * Rv[6], Rv[1] - v[0] * Rv[7], Rv[3] - v[1] * Rv[6], Rv[4] - v[1] * Rv[7]];
  const det = B[0] * B[3] - B[1] * B[2];
  const Bi = [B[3] / det, -B[1] / det, -B[2] / det, B[0] / det];
  const A = [Bi[0] * J[0] + Bi[1] * J[2], Bi[0] * J[1] + Bi[1] * J[3], Bi[2] * J[0] + Bi[3] * J[2], Bi[2] * J[1] + Bi[3] * J[3]];
  // gamma: A's largest singular value.
  const p = A[0] * A[0] + A[1] * A[1] + A[2] * A[2] + A[3] * A[3];
  const q = A[0] * A[3] - A[1] * A[2];
  const gamma = Math.sqrt((p + Math.sqrt(Math.max(0, p * p - 4 * q * q))) / 2);
  const R22 = A.map((x) => x / gamma);
  // The third row's first two entries, b, from R22ᵀR22 + b bᵀ = I; the third column from the first two's cross product.
  const rr = [1 - (R22[0] * R22[0] + R22[2] * R22[2]), -(R22[0] * R22[1] + R22[2] * R22[3]), 1 - (R22[1] * R22[1] + R22[3] * R22[3])];
  const b = [Math.sqrt(Math.max(0, rr[0])), (rr[1] < 0 ? -1 : 1) * Math.sqrt(Math.max(0, rr[2]))];
  const c1 = [R22[0], R22[2], b[0]];
  const c2 = [R22[1], R22[3], b[1]];
  const c = [c1[1] * c2[2] - c1[2] * c2[1], c1[2] * c2[0] - c1[0] * c2[2], c1[0] * c2[1] - c1[1] * c2[0]];
  const R1 = mul3(Rv, [R22[0], R22[1], c[0], R22[2], R22[3], c[1], b[0], b[1], c[2]]);
  const R2 = mul3(Rv, [R22[0], R22[1], -c[0], R22[2], R22[3], -c[1], -b[0], -b[1], c[2]]);
  return [R1, R2];
}

/** The translation that best fits the points (normalised) for this rotation: linear least squares. */
export function translationFor(R: Mat3, object: readonly (readonly number[])[], image: readonly (readonly [number, number])[]): [number, number, number] {
  // Each point: (RX + t)x − x (RX + t)z = 0 and the same in y, linear in t.
  const N = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const r = [0, 0, 0];
  object.forEach((X, i) => {
    const [x, y] = image[i];
    const P = [R[0] * X[0] + R[1] * X[1] + R[2] * X[2], R[3] * X[0] + R[4] * X[1] + R[5] * X[2], R[6] * X[0] + R[7] * X[1] + R[8] * X[2]];
    for (const [row, rhs] of [
      [[1, 0, -x], x * P[2] - P[0]],
      [[0, 1, -y], y * P[2] - P[1]],
    ] as const) {
      for (let a = 0; a < 3; a++) {
        r[a] += row[a] * rhs;
        for (let c = 0; c < 3; c++) N[a][c] += row[a] * row[c];
      }
    }
  });
  const t = solveLinear(N, r);
  return [t[0], t[1], t[2]];
}

