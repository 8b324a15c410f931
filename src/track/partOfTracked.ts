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
 *   other side;
 * - most of it (`insideShare`) inside the predicted box of a confirmed track (coastedOver): a piece of the object the
 *   foreground shows apart (noise, a shadow's edge across it), which made a track would count the object again.
 * `held`: the tracks matched this frame and the members of this frame's groups (a member's object is as much there).
 * Why, and the replays: docs/decisions/tracking.md#no-birth-in-tracked. `blob` and `box` are scratch of 4 numbers.
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
