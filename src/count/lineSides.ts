/**
 * A counting line's geometry and where a track was last seen clearly on one of its sides: the tests the tracker's
 * counting (CountingLines.count) makes for every track and line every frame.
 */
import type { CountingLine } from './CountingLine.js';
import { TURN_WORDS } from './lineTurn.js';

/** Which side of the line a point is on: > 0 on the right of a→b as seen on screen (image y grows downward). */
export const side = (l: CountingLine, x: number, y: number) => (l.b[0] - l.a[0]) * (y - l.a[1]) - (l.b[1] - l.a[1]) * (x - l.a[0]);

/** Whether a box's corners (its bounds at bb[at .. at + 4)) lie on both sides of the line (through it, not only its segment). */
export function boxAcross(l: CountingLine, bb: Float64Array, at: number): boolean {
  const [x0, y0, x1, y1] = [bb[at], bb[at + 1], bb[at + 2], bb[at + 3]];
  const s = Math.sign(side(l, x0, y0));
  return Math.sign(side(l, x1, y0)) !== s || Math.sign(side(l, x0, y1)) !== s || Math.sign(side(l, x1, y1)) !== s;
}

/**
 * Whether a box (bounds at bb[at .. at + 4)) lies over the line's segment: across the line (boxAcross), its centre
 * beside the segment rather than past one of its ends.
 */
export function boxOverSegment(l: CountingLine, bb: Float64Array, at: number): boolean {
  if (!boxAcross(l, bb, at)) return false;
  const [dx, dy] = [l.b[0] - l.a[0], l.b[1] - l.a[1]];
  const along = ((bb[at] + bb[at + 2]) / 2 - l.a[0]) * dx + ((bb[at + 1] + bb[at + 3]) / 2 - l.a[1]) * dy;
  return along >= 0 && along <= dx * dx + dy * dy;
}

/** Whether the segments p→q and a→b cross. */
export function crosses(l: CountingLine, px: number, py: number, qx: number, qy: number): boolean {
  const s1 = side(l, px, py);
  const s2 = side(l, qx, qy);
  if (s1 === 0 || s2 === 0 || Math.sign(s1) === Math.sign(s2)) return false;
  const t = (ax: number, ay: number) => (qx - px) * (ay - py) - (qy - py) * (ax - px);
  return Math.sign(t(l.a[0], l.a[1])) !== Math.sign(t(l.b[0], l.b[1]));
}

/** Numbers per line in Track.lineSide: side, x, y, then the turn's (lineTurn.ts). */
export const LINE_WORDS = 3 + TURN_WORDS;

/** Where a track was last seen clearly on one side of line k (Track.lineSide). */
export function note(seen: Float64Array, k: number, sign: number, x: number, y: number): void {
  const at = LINE_WORDS * k;
  seen[at] = sign;
  seen[at + 1] = x;
  seen[at + 2] = y;
}
