/** Turns an n×n grid (row-major) a quarter turn clockwise: cell (r, c) of the result is cell (n−1−c, r) of the source. */
export function turnClockwise(grid: ArrayLike<number>, n: number): Uint8Array {
  const out = new Uint8Array(n * n);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) out[r * n + c] = grid[(n - 1 - c) * n + r];
  return out;
}
