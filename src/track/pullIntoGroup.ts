import type { Track } from './Track.js';
import { pullLimit, pullRate } from './tuning.js';

/**
 * Draws group member t's estimate back toward its group's blob, bb[at .. at + 4) (inclusive pixel bounds), on the
 * axis it moves along most (its velocity's larger component), to where its box lies wholly inside the blob on that
 * axis, by at most `pullRate` of its size a second (`dt` seconds this frame) and `pullLimit` in all; what it was drawn
 * is kept (`pullOffset`, for partOfTracked). The other axis is left alone: across the way it walks, a member's box
 * outside the blob is mostly the blob showing only part of its object (a dark part taken for shadow, a fading
 * foreground), where pulling made a box off its object. So is a member as large as the blob or larger on that axis.
 * Why, and the replays that chose it: docs/decisions/tracking.md#pull-into-group.
 */
export function pullIntoGroup(t: Track, bb: Float64Array, at: number, dt: number): void {
  const kf = t.kf;
  const axis = Math.abs(kf.v(0)) >= Math.abs(kf.v(1)) ? 0 : 1;
  const size = Math.max(1, kf.p(axis + 2));
  const lo = bb[at + axis];
  const hi = bb[at + axis + 2];
  if (size >= hi - lo + 1 || t.pulledBy >= pullLimit) return;
  const c = kf.p(axis);
  const d = Math.min(Math.max(c, lo + size / 2 - 0.5), hi - size / 2 + 0.5) - c;
  if (d === 0) return;
  const step = Math.sign(d) * Math.min(Math.abs(d), pullRate * dt * size);
  t.pulledBy += Math.abs(step) / size;
  t.pullOffset[axis] += step;
  kf.shift(axis, step);
}
