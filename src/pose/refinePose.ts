/**
 * Gauss–Newton with Levenberg–Marquardt damping on the reprojection error of a pose: the rotation updated on its
 * tangent space (R ← exp([ω]×) R), the translation additively, residuals in normalised coordinates scaled by fx and
 * fy (pixels, when those are given).
 */
import { rotationFromVector, mul3, type Mat3 } from './rotation.js';
import { solveLinear } from './solveLinear.js';

export interface PoseSolution {
  /** Object to camera: X_camera = R X_object + t. */
  R: Mat3;
  t: [number, number, number];
  /** Root mean square reprojection error over the points (pixels when scaled by fx, fy). */
  error: number;
}

/** RMS distance between the points projected by (R, t) and where they were seen (normalised, scaled). */
export function reprojectionError(R: Mat3, t: readonly number[], object: readonly (readonly number[])[], image: readonly (readonly [number, number])[], scale: readonly [number, number]): number {
  let sum = 0;
  object.forEach((X, i) => {
    const x = R[0] * X[0] + R[1] * X[1] + R[2] * X[2] + t[0];
    const y = R[3] * X[0] + R[4] * X[1] + R[5] * X[2] + t[1];
    const z = R[6] * X[0] + R[7] * X[1] + R[8] * X[2] + t[2];
    sum += (scale[0] * (x / z - image[i][0])) ** 2 + (scale[1] * (y / z - image[i][1])) ** 2;
  });
  return Math.sqrt(sum / object.length);
}

/**
 * The pose refined from `start`: at most `rounds` steps, ending when a step lowers the error by less than a millionth
 * of it (IPPE starts near the minimum: two or three steps) or no damped step lowers it.
 */
export function refinePose(start: Pick<PoseSolution, 'R' | 't'>, object: readonly (readonly number[])[], image: readonly (readonly [number, number])[], scale: readonly [number, number], rounds = 20): PoseSolution {
  let { R, t } = start;
  let error = reprojectionError(R, t, object, image, scale);
  let lambda = 1e-3;
  for (let round = 0; round < rounds && error > 0; round++) {
    // Normal equations JᵀJ δ = −Jᵀr over the six parameters (ω, δt).
    const N = Array.from({ length: 6 }, () => new Array<number>(6).fill(0));
    const g = new Array<number>(6).fill(0);
    object.forEach((X, i) => {
      const a = [R[0] * X[0] + R[1] * X[1] + R[2] * X[2], R[3] * X[0] + R[4] * X[1] + R[5] * X[2], R[6] * X[0] + R[7] * X[1] + R[8] * X[2]];
      const P = [a[0] + t[0], a[1] + t[1], a[2] + t[2]];
      const iz = 1 / P[2];
      const u = P[0] * iz;
      const v = P[1] * iz;
      // d(u, v)/dP, then dP/dω = −[a]×, dP/dt = I.
      const du = [iz, 0, -u * iz];
      const dv = [0, iz, -v * iz];
      const row = (d: number[], s: number): number[] => {
        // d · (−[a]×) = d × a … written out: (−[a]×)ᵀ d = a × d.
        const w = [a[1] * d[2] - a[2] * d[1], a[2] * d[0] - a[0] * d[2], a[0] * d[1] - a[1] * d[0]];
        return [w[0] * s, w[1] * s, w[2] * s, d[0] * s, d[1] * s, d[2] * s];
      };
      for (const [jr, res] of [
        [row(du, scale[0]), scale[0] * (u - image[i][0])],
        [row(dv, scale[1]), scale[1] * (v - image[i][1])],
      ] as const) {
        for (let p = 0; p < 6; p++) {
          g[p] -= jr[p] * res;
          for (let q = 0; q < 6; q++) N[p][q] += jr[p] * jr[q];
        }
      }
    });
    let improved = false;
    for (let attempt = 0; attempt < 4 && !improved; attempt++) {
      const damped = N.map((r, p) => r.map((x, q) => (p === q ? x * (1 + lambda) + 1e-12 : x)));
      const d = solveLinear(damped, g);
      if (d.some((x) => !Number.isFinite(x))) break;
      const R2 = mul3(rotationFromVector([d[0], d[1], d[2]]), R);
      const t2: [number, number, number] = [t[0] + d[3], t[1] + d[4], t[2] + d[5]];
      const e2 = reprojectionError(R2, t2, object, image, scale);
      if (e2 <= error) {
        const gain = error - e2;
        [R, t, error] = [R2, t2, e2];
        lambda = Math.max(1e-9, lambda / 10);
        improved = true;
        if (gain <= 1e-6 * e2 + 1e-12) round = rounds;
      } else {
        lambda *= 10;
      }
    }
    if (!improved) break;
  }
  return { R, t, error };
}
