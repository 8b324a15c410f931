import { covered } from './boxShare.js';
import type { Track } from './Track.js';
import { insideShare } from './tuning.js';

/**
 * Track t's predicted box, written into `box`, widened back over where it would be had it not been drawn into its
 * groups' blobs (pullIntoGroup): the object of a member drawn back while a pillar hid its front may be where it
 * coasted to, and its front, out from behind the pillar apart from the group's blob, is a piece of it there.
 */
export function coastedOver(t: Track, box: Float64Array): Float64Array {
  for (let k = 0; k < 4; k++) box[k] = t.predicted[k];
  for (let axis = 0; axis < 2; axis++) {
    const d = t.pullOffset[axis];
    if (d > 0) box[axis] -= d;
    else box[axis + 2] -= d;
  }
  return box;
}

/**
 * Whether blob j (its bounds at bb[4j .. 4j + 4)) is a piece of an object a track already has, not a new object:
 * - at least half of it inside the box of a track an occluder cuts: the rest of that object, seen on the occluder's
 *   other side (sixteen seeds: 2011 → 1959 ID switches, MOTA 0.385 → 0.388);
 * - most of it (`insideShare`) inside the predicted box of a confirmed track (coastedOver): a piece of the object the
 *   foreground shows apart (noise, a shadow's edge across it). Made a track, such a piece was confirmed within three
 *   frames, followed the object as a second track (in its blob as a group of two once the pieces joined) and counted
 *   it a second time at a line (sixteen seeds: line error 18.1 → 17.8 %, ID switches 1402 → 1374, MOTA 0.402 → 0.404, IDF1
 *   0.532 → 0.531; held out 16.3 → 15.6 %, 274 → 261, 0.351 → 0.354, 0.496 → 0.497).
 * `held`: the tracks matched this frame and the members of this frame's groups (a member's object is as much there:
 * the front of one coming out from behind a pillar apart from its group's blob made a second track of it, which on
 * the street scenes counted its crossing again; the twelve replayed sets of bench/trackEval.js: ID switches 7282 →
 * 7234, line errors 2411 → 2388, MOTA up on ten of them); `blob` and `box` are scratch of 4 numbers.
 */
export function partOfTracked(held: readonly Track[], bb: Float64Array, j: number, blob: Float64Array, box: Float64Array): boolean {
  for (let k = 0; k < 4; k++) blob[k] = bb[4 * j + k];
  for (const t of held) {
    if (t.cutSide[0] !== 0 || t.cutSide[1] !== 0) {
      if (covered(blob, t.box(box), 0) >= 0.5) return true;
    } else if (t.state === 'confirmed' && covered(blob, coastedOver(t, box), 0) >= insideShare) {
      return true;
    }
  }
  return false;
}
