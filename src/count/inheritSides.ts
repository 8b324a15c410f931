/** A new track that came apart from another's blob takes that track's first sides of the lines. */
import { boxShare } from '../track/boxShare.js';
import { LINE_WORDS } from './lineSides.js';
import type { LineState } from './LineState.js';
import { type Track } from '../track/Track.js';
import { observed, inheritWithin, splitRecent, splitShare } from '../track/tuning.js';

/**
 * Whether `splitShare` of blob j lies inside one of track u's own observations of the last `splitRecent`: its box
 * before the two came apart (its prediction has already shrunk to the object it kept, one frame after a split).
 */
function cameFrom(u: Track, bb: Float64Array, j: number): boolean {
  const b = u.seenBox;
  const n = Math.min(u.seenCount, splitRecent);
  for (let i = 1; i <= n; i++) {
    const e = (u.seenNext + observed - i) % observed;
    if (boxShare(bb[4 * j], bb[4 * j + 1], bb[4 * j + 2], bb[4 * j + 3], b[4 * e], b[4 * e + 1], b[4 * e + 2], b[4 * e + 3]) >= splitShare) return true;
  }
  return false;
}

/**
 * A new track (its lines' state `st`) made from blob j, a part of which (`splitShare`) lies inside a recent box of a confirmed track with a
 * blob of its own this frame (cameFrom), is an object that came apart from that track's: two objects that came in side
 * by side, or met and walked on together, make one blob under one track, and that track's one count at a line was the
 * only one for both. Such a track takes the other's first sides of the lines as where it was last seen clearly, so that it
 * counts the crossings it made with it once it is seen clearly on their other sides.
 *
 * Only the lines that track counted a crossing of within the last `inheritWithin` seconds: an object that joined it
 * after its crossing came apart with nothing to count. Why, and the replays: docs/decisions/counting.md#inherit-sides.
 */
export function inheritSides(st: LineState, held: readonly Track[], states: WeakMap<Track, LineState>, bb: Float64Array, j: number): void {
  for (const u of held) {
    if (u.state !== 'confirmed' || !cameFrom(u, bb, j)) continue;
    const us = states.get(u)!;
    for (let k = 0; 3 * k < us.firstSide.length; k++) {
      if (us.firstSide[3 * k] === 0 || u.life - us.countedAt[k] > inheritWithin) continue;
      for (let w = 0; w < 3; w++) st.lineSide[LINE_WORDS * k + w] = st.firstSide[3 * k + w] = us.firstSide[3 * k + w];
    }
    return;
  }
}
