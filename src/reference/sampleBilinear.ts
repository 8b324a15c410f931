/** A gray image's value at (x, y), interpolated between the four nearest pixels (centres at integers, clamped). */
export function sampleBilinear(gray: ArrayLike<number>, w: number, h: number, x: number, y: number): number {
  const cx = Math.min(w - 1, Math.max(0, x));
  const cy = Math.min(h - 1, Math.max(0, y));
  const x0 = Math.min(w - 2, Math.floor(cx));
  const y0 = Math.min(h - 2, Math.floor(cy));
  const fx = cx - x0;
  const fy = cy - y0;
  const at = (xx: number, yy: number) => gray[yy * w + xx];
  return (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
}
