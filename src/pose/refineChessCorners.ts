/**
 * Chessboard corners refined to subpixel on the gray image, as OpenCV's `cornerSubPix`: at a saddle corner every
 * image gradient near it is orthogonal to the line from the corner to where it is taken, so the corner q solves
 * Σ w·g gᵀ (q − p) = 0 over the window's pixels p (gradients g, Gaussian weights w); the window is resampled at the
 * new q and the solve repeated until q moves less than `epsilon`. A corner that leaves its window, or a window
 * without gradients, keeps its place as given. Pixel centres at integers.
 */
import { InvalidOptionError } from '../core/errors.js';

export interface RefineChessOptions {
  /**
   * Half the window's side in pixels: the window is 2·half + 1 square (default 5). One number for every corner, or
   * one per corner (a ChArUco corner's `window`: as large as stays clear of its markers).
   */
  half?: number | readonly number[];
  /** Steps at most (default 40) and the movement under which it stops, pixels (default 0.001). */
  maxIterations?: number;
  epsilon?: number;
}

export function refineChessCorners(gray: ArrayLike<number>, width: number, height: number, corners: readonly (readonly [number, number])[], options: RefineChessOptions = {}): [number, number][] {
  const halves = options.half ?? 5;
  const maxIterations = options.maxIterations ?? 40;
  const epsilon = options.epsilon ?? 0.001;
  const each = typeof halves === 'number' ? null : halves;
  if (each !== null && (!Array.isArray(each) || each.length !== corners.length)) throw new InvalidOptionError(`refineChessCorners: half must be a number or one per corner (${corners.length}), got ${Array.isArray(each) ? each.length : String(each)}`);
  for (const half of each ?? [halves as number]) {
    if (!Number.isInteger(half) || half < 1 || half > 32) throw new InvalidOptionError(`refineChessCorners: half must be an integer 1..32, got ${half}`);
  }
  if (!Number.isInteger(maxIterations) || maxIterations < 1) throw new InvalidOptionError(`refineChessCorners: maxIterations must be a positive integer, got ${maxIterations}`);
  if (!(epsilon > 0)) throw new InvalidOptionError(`refineChessCorners: epsilon must be > 0, got ${epsilon}`);
  if (gray.length !== width * height) throw new InvalidOptionError(`refineChessCorners: a ${width}×${height} image needs ${width * height} pixels, got ${gray.length}`);
  const at = (x: number, y: number) => gray[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))];
  return corners.map(([x0, y0], k) => {
    const half = each ? each[k] : (halves as number);
    const side = 2 * half + 3;
    const patch = new Float64Array(side * side);
    // OpenCV's weights: exp(−x²) exp(−y²) with x, y the offset in windows' halves.
    const weight = Array.from({ length: 2 * half + 1 }, (_, i) => Math.exp(-(((i - half) / half) ** 2)));
    let [qx, qy] = [x0, y0];
    for (let iter = 0; iter < maxIterations; iter++) {
      // The window around q resampled bilinearly, one pixel more each side for the gradients.
      const [fx, fy] = [Math.floor(qx), Math.floor(qy)];
      const [ax, ay] = [qx - fx, qy - fy];
      for (let i = 0; i < side; i++) {
        for (let j = 0; j < side; j++) {
          const [x, y] = [fx + j - half - 1, fy + i - half - 1];
          patch[i * side + j] = (at(x, y) * (1 - ax) + at(x + 1, y) * ax) * (1 - ay) + (at(x, y + 1) * (1 - ax) + at(x + 1, y + 1) * ax) * ay;
        }
      }
      let [a, b, c, b1, b2] = [0, 0, 0, 0, 0];
      for (let i = 1; i < side - 1; i++) {
        for (let j = 1; j < side - 1; j++) {
          const m = weight[i - 1] * weight[j - 1];
          const gx = patch[i * side + j + 1] - patch[i * side + j - 1];
          const gy = patch[(i + 1) * side + j] - patch[(i - 1) * side + j];
          const [gxx, gxy, gyy] = [gx * gx * m, gx * gy * m, gy * gy * m];
          const [px, py] = [j - half - 1, i - half - 1];
          a += gxx;
          b += gxy;
          c += gyy;
          b1 += gxx * px + gxy * py;
          b2 += gxy * px + gyy * py;
        }
      }
      const det = a * c - b * b;
      if (!(Math.abs(det) > 1e-9 * (a * c + 1e-30))) return [x0, y0];
      const [nx, ny] = [qx + (c * b1 - b * b2) / det, qy + (a * b2 - b * b1) / det];
      const moved = Math.hypot(nx - qx, ny - qy);
      [qx, qy] = [nx, ny];
      if (Math.abs(qx - x0) > half || Math.abs(qy - y0) > half) return [x0, y0];
      if (moved < epsilon) break;
    }
    return [qx, qy];
  });
}
