/** Intersection over union of two boxes given by inclusive pixel bounds (the tracker's and the scores' one rule). */
export function boxIou(ax0: number, ay0: number, ax1: number, ay1: number, bx0: number, by0: number, bx1: number, by1: number): number {
  const w = Math.min(ax1, bx1) - Math.max(ax0, bx0) + 1;
  const h = Math.min(ay1, by1) - Math.max(ay0, by0) + 1;
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / ((ax1 - ax0 + 1) * (ay1 - ay0 + 1) + (bx1 - bx0 + 1) * (by1 - by0 + 1) - inter);
}
