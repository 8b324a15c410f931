/** The share of box a inside box b, both given by inclusive pixel bounds: 1 when a lies wholly in b, 0 apart. */
export function boxShare(ax0: number, ay0: number, ax1: number, ay1: number, bx0: number, by0: number, bx1: number, by1: number): number {
  const w = Math.min(ax1, bx1) - Math.max(ax0, bx0) + 1;
  const h = Math.min(ay1, by1) - Math.max(ay0, by0) + 1;
  return w <= 0 || h <= 0 ? 0 : (w * h) / ((ax1 - ax0 + 1) * (ay1 - ay0 + 1));
}

/** The part of box p inside box q (q's bounds at q[at .. at + 4)): boxShare over flat arrays of bounds. */
export function covered(p: Float64Array, q: Float64Array, at: number): number {
  return boxShare(p[0], p[1], p[2], p[3], q[at], q[at + 1], q[at + 2], q[at + 3]);
}
