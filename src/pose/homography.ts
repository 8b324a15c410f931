import { solveLinear } from './solveLinear.js';
import { mul3, type Mat3, type Vec3 } from './rotation.js';

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

/** The homography from the plane's (x, y) to the image, least squares over all points (h33 = 1, Hartley-normalised). */
export function planeHomography(object: readonly (readonly number[])[], image: readonly (readonly number[])[]): number[] {
  const norm = (pts: readonly (readonly number[])[]) => {
    const n = pts.length;
    const [mx, my] = [pts.reduce((a, p) => a + p[0], 0) / n, pts.reduce((a, p) => a + p[1], 0) / n];
    const d = pts.reduce((a, p) => a + Math.hypot(p[0] - mx, p[1] - my), 0) / n || 1;
    const k = Math.SQRT2 / d;
    return { T: [k, 0, -k * mx, 0, k, -k * my, 0, 0, 1], pts: pts.map((p) => [k * (p[0] - mx), k * (p[1] - my)]) };
  };
  const a = norm(object);
  const b = norm(image);
  const N = Array.from({ length: 8 }, () => new Array<number>(8).fill(0));
  const g = new Array<number>(8).fill(0);
  a.pts.forEach(([x, y], i) => {
    const [u, v] = b.pts[i];
    for (const [row, rhs] of [
      [[x, y, 1, 0, 0, 0, -u * x, -u * y], u],
      [[0, 0, 0, x, y, 1, -v * x, -v * y], v],
    ] as const) {
      for (let p = 0; p < 8; p++) {
        g[p] += row[p] * rhs;
        for (let q = 0; q < 8; q++) N[p][q] += row[p] * row[q];
      }
    }
  });
  const Hn = [...solveLinear(N, g), 1];
  // H = Tb⁻¹ Hn Ta.
  const Tb = b.T;
  const TbInv = [1 / Tb[0], 0, -Tb[2] / Tb[0], 0, 1 / Tb[4], -Tb[5] / Tb[4], 0, 0, 1];
  const H = mul3(mul3(TbInv, Hn), a.T);
  return H.map((x) => x / H[8]);
}

/** A plane's pose from its homography and the intrinsics (K = 1 for normalised coordinates): r1, r2, t from K⁻¹H, made a rotation. */
export function poseFromHomography(H: number[], K: { fx: number; fy: number; cx: number; cy: number }): { R: Mat3; t: Vec3 } {
  const inv = (c: number) => [(H[c] - K.cx * H[6 + c]) / K.fx, (H[3 + c] - K.cy * H[6 + c]) / K.fy, H[6 + c]];
  const [h1, h2, h3] = [inv(0), inv(1), inv(2)];
  let l = 1 / Math.hypot(...h1);
  // The target in front of the camera.
  if (h3[2] * l < 0) l = -l;
  const r1 = h1.map((x) => x * l);
  const r2 = h2.map((x) => x * l);
  // Nearest rotation to [r1 r2 r1×r2]: orthonormalise symmetrically in the plane of r1, r2.
  const n1 = Math.hypot(...r1);
  const n2 = Math.hypot(...r2);
  const [a, b] = [r1.map((x) => x / n1), r2.map((x) => x / n2)];
  const c = [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
  const d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const [nc, nd] = [Math.hypot(...c), Math.hypot(...d)];
  const x = c.map((v, i) => (v / nc + d[i] / nd) / Math.SQRT2);
  const y = c.map((v, i) => (v / nc - d[i] / nd) / Math.SQRT2);
  const z = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
  return { R: [x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]], t: [h3[0] * l, h3[1] * l, h3[2] * l] };
}
