import type { Track } from './Track.js';

/**
 * A group's blob shows the outer edges of the objects in it: on each side, the member whose predicted edge is the
 * outermost, clearly (by a fifth of its size, 3 px at least, over the next member), and near the blob's edge (within
 * half its size), owns that edge; a member owning both edges of an axis (one object taller than the others walking
 * in front of it, say) is measured on that axis, the rest coast on their prediction. Measuring single edges too (at
 * the predicted size) scored worse in bench/evaluation/trackEval.js: more identity switches (162 against 145, seed 1).
 * `members[0 .. count)` are the group's tracks, its blob's bounds bb[at .. at + 4); `edges` holds at least 4 × count
 * numbers (overwritten).
 */
export function measureGroup(members: readonly Track[], count: number, bb: Float64Array, at: number, edges: Float64Array): void {
  for (let i = 0; i < 4 * count; i++) edges[i] = NaN;
  for (let side = 0; side < 4; side++) {
    // Sides 0, 1: the low x and y edges (outermost is least); 2, 3: the high ones.
    const out = side < 2 ? -1 : 1;
    const axis = side % 2;
    let best = -1;
    let next = -Infinity;
    let bestAt = -Infinity;
    for (let i = 0; i < count; i++) {
      const at = out * members[i].predicted[side];
      if (at > bestAt) {
        next = bestAt;
        bestAt = at;
        best = i;
      } else if (at > next) {
        next = at;
      }
    }
    const size = members[best].kf.p(axis + 2);
    if (bestAt - next < Math.max(3, 0.2 * size) || Math.abs(out * bestAt - bb[at + side]) > 0.5 * size) continue;
    edges[4 * best + side] = bb[at + side];
  }
  for (let i = 0; i < count; i++) {
    const x = Number.isNaN(edges[4 * i]) && Number.isNaN(edges[4 * i + 2]) ? 0 : 1;
    const y = Number.isNaN(edges[4 * i + 1]) && Number.isNaN(edges[4 * i + 3]) ? 0 : 2;
    members[i].ownsEdges = x | y;
    members[i].measureEdges(0, edges[4 * i], edges[4 * i + 2]);
    members[i].measureEdges(1, edges[4 * i + 1], edges[4 * i + 3]);
  }
}
