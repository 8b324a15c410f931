import { solveLinear } from './solveLinear.js';

/** Row-major 3×3, h33 = 1. */
export type Homography = number[];

/** The homography taking four points to four others (direct linear solve with h33 = 1). */
export function homography(from: readonly (readonly number[])[], to: readonly (readonly number[])[]): Homography {
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i];
    const [u, v] = to[i];
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  return [...solveLinear(a, b), 1];
}

/** Where a homography takes the point (x, y). */
export function applyHomography(h: Homography, [x, y]: readonly number[]): [number, number] {
  const w = h[6] * x + h[7] * y + h[8];
  return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
}
