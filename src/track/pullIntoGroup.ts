import type { Track } from './Track.js';
import { pullLimit, pullRate } from './tuning.js';

/**
 * Draws group member t's estimate back toward its group's blob, bb[at .. at + 4) (inclusive pixel bounds), on the
 * axis it moves along most (its velocity's larger component), to where its box lies wholly inside the blob on that
 * axis, by at most `pullRate` of its size a second (`dt` seconds this frame) and `pullLimit` in all; what it was drawn
 * is kept (`pullOffset`, for partOfTracked). The other axis is left alone: across the way it walks, a member's box
 * outside the blob is mostly the blob showing only part of its object (a dark part taken for shadow, a fading
 * foreground), where pulling made a box off its object. So is a member as large as the blob or larger on that axis.
 *
 * bench/trackEval.js replays of cached blobs (fifty-second session, BENCHMARKS.md), without → with, ID switches,
 * mean MOTA and IDF1, line errors: the twelve sets of boxes 7234 → 6918, 0.5248 → 0.5287, 0.6309 → 0.6361, 2388 →
 * 2402; people (`--walkers people`, never used to choose a rule before) flat seeds 1–8 838 → 766 (the baseline's
 * 1649), street 1–4 380 → 326; held out from the choice, people flat 9–12 424 → 355 (the baseline's 847), MOTA
 * 0.363 → 0.386, IDF1 0.504 → 0.544, street 9–12 399 → 357 (961), 0.510 → 0.514, 0.628 → 0.646. Tried: on both
 * axes at 0.1 a frame without a limit (fifty-first session), MOTA down on the flat scenes and at lower densities,
 * members drawn onto parts of the blob their objects were not in; only a member behind its blob (a rear pull, never
 * one that ran ahead, as into a pillar): the twelve sets 7116 switches, lines 2364, people flat 1–8 789, 9–12 411.
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
