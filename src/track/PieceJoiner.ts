/**
 * Pieces of one object cut apart by something standing in front of it (a lamp post, a pillar, a tree, a railing),
 * joined into one blob before tracking.
 *
 * Where a fixed occluder stands between the camera and a moving object, the foreground shows the object as two blobs
 * on either side of it, and the edges they turn to the occluder stand still, frame after frame, at the occluder's
 * sides, while their outer edges move with the object. Two objects that happen to walk side by side move their
 * facing edges too. So two blobs are taken as one object's pieces where, this frame and the last:
 * - they face each other across a gap no wider than the smaller's extent across the other axis (its height for
 *   pieces side by side), and share that extent (both ends within 0.4 of it, or 2 px: the foreground shows the two
 *   pieces' ends unevenly);
 * - each facing edge stands on a pixel where a blob of last frame had that edge (it stood still), and at least one
 *   of the outer edges lies where none had (it moved: an object crossing behind the occluder), or a pair with these
 *   facing edges was joined last frame (the object has stopped behind it). Which blob of last frame is not asked:
 *   the edges alone are looked up, in tables by pixel, so that a frame costs little more than reading its blobs.
 * The joined blob is the two boxes' union (the object's box across the occluder) with both histograms summed. Both
 * axes: a post cuts objects into left and right pieces, a railing into upper and lower ones.
 *
 * Why, and the replays that chose it: docs/decisions/tracking.md#join-pieces.
 */
import type { Box } from './TrackSettings.js';
import { extentShare, minTolerance } from './tuning.js';

/** Edges are remembered on whole pixels from 0 up to this; a box with a bound elsewhere joins nothing. */
const maxEdge = 1 << 14;
/** The frame counter's period. */
const frameWrap = 1 << 30;

export interface JoinedBlobs {
  boxes: Box[];
  /** Histograms of the joined blobs (counts added), or null without histograms. */
  hists: Float64Array | null;
  /** For each joined blob, the input blob it stands for (the larger piece where two were joined). */
  source: Int32Array;
  /** For each joined blob, the other piece where two were joined, else -1. */
  other: Int32Array;
}

/**
 * Whether boxes a (near) and b (far), inclusive bounds at bb[4a..] and bb[4b..], face each other across a gap on
 * `axis` (0: x, 1: y), sharing their extent on the other.
 */
function facing(bb: Float64Array, a: number, b: number, axis: number): boolean {
  const gap = bb[4 * b + axis] - bb[4 * a + axis + 2] - 1;
  if (gap < 1) return false;
  // The other axis's bounds.
  const lo = 1 - axis;
  const hi = lo + 2;
  const extent = Math.min(bb[4 * a + hi] - bb[4 * a + lo], bb[4 * b + hi] - bb[4 * b + lo]) + 1;
  if (gap > extent) return false;
  const tol = Math.max(minTolerance, extentShare * extent);
  return Math.abs(bb[4 * a + lo] - bb[4 * b + lo]) <= tol && Math.abs(bb[4 * a + hi] - bb[4 * b + hi]) <= tol;
}

/** The first index of ascending `keys` whose key is at least k (keys.length where none is). */
function lowerBound(keys: Float64Array, k: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Which blobs of a frame are pieces to join: a frame's pairs, and the facing edges of those joined last frame. */
export class PieceJoiner {
  /** This frame's boxes' bounds, 4 a box. */
  #bb = new Float64Array(64);
  #partner = new Int32Array(16);
  /**
   * For each bound (x0, y0, x1, y1) and pixel, at [bound · #size + pixel]: the last frame a blob had that bound there,
   * and the frame before that one (-1: none): whether an edge stood still since last frame, without sorting or
   * hashing the frame's edges.
   */
  #size = 2048;
  #seen = new Int32Array(4 * 2048).fill(-1);
  #before = new Int32Array(4 * 2048).fill(-1);
  #frame = 0;
  /** This frame's blobs whose facing edge on an axis stood still: near (their high bound) and far (their low one). */
  #near = new Int32Array(16);
  #far = new Int32Array(16);
  /** Pairs joined last frame and this one, as [axis, the near piece's high bound, the far piece's low one] each. */
  #joined: number[] = [];
  #joinedNow: number[] = [];
  /** Candidate pairs this frame, as (near · n + far) · 2 + axis. */
  #candidates: number[] = [];
  /** Scratch of #sorted: the near pieces' keys and the far ones'. */
  #keys = [new Float64Array(16), new Float64Array(16)];

  /**
   * This frame's blobs with pieces joined, or null where none were (the caller's blobs stand). `bins`: histogram
   * counts a blob. A blob joins at most one other.
   */
  join(boxes: readonly Box[], hists: ArrayLike<number> | null | undefined, bins: number): JoinedBlobs | null {
    const n = boxes.length;
    // Frames counted modulo 2³⁰ (the tables are 32-bit: a camera at 30 frames a second passes 2³¹ in 2.3 years).
    const frame = (this.#frame = (this.#frame + 1) % frameWrap);
    const previous = (frame + frameWrap - 1) % frameWrap;
    [this.#joined, this.#joinedNow] = [this.#joinedNow, this.#joined];
    this.#joinedNow.length = 0;
    if (this.#bb.length < 4 * n) this.#bb = new Float64Array(8 * n);
    if (this.#partner.length < n) [this.#partner, this.#near, this.#far] = [new Int32Array(2 * n), new Int32Array(2 * n), new Int32Array(2 * n)];
    const bb = this.#bb;
    for (let j = 0; j < n; j++) {
      const b = boxes[j];
      bb[4 * j] = b[0];
      bb[4 * j + 1] = b[1];
      bb[4 * j + 2] = b[2];
      bb[4 * j + 3] = b[3];
    }
    let size = this.#size;
    for (let i = 0; i < 4 * n; i++) {
      const v = bb[i];
      // Whole pixels from 0 only ((v | 0) is v for those below 2³¹).
      if ((v | 0) !== v || v < 0 || v >= maxEdge) continue;
      if (v >= size) size = this.#grow(v);
      const at = (i & 3) * size + v;
      if (this.#seen[at] !== frame) {
        this.#before[at] = this.#seen[at];
        this.#seen[at] = frame;
      }
    }
    const before = this.#before;
    // Whether bound e of blob j lay on the same pixel in a blob of last frame (and no more than that: not which blob).
    const still = (j: number, e: number) => {
      const v = bb[4 * j + e];
      return (v | 0) === v && v >= 0 && v < size && before[e * size + v] === previous;
    };
    // Candidates: pairs facing across a gap whose facing edges both stood still since last frame, with an outer edge
    // that moved (on the gap's axis: the object crossing behind the occluder) or facing edges where a pair was
    // joined last frame (an object stopped behind it). Most blobs move and most edges that stand still are those
    // across the way objects walk, so the near pieces with their outer edge moving, the far pieces with theirs, and
    // last frame's joined pairs are few, and only pairs with one of them are looked at.
    const candidates = this.#candidates;
    candidates.length = 0;
    const near = this.#near;
    const far = this.#far;
    const joinedBefore = this.#joined;
    for (let axis = 0; axis < 2; axis++) {
      let nn = 0;
      let nf = 0;
      for (let j = 0; j < n; j++) {
        if (still(j, axis + 2)) near[nn++] = j;
        if (still(j, axis)) far[nf++] = j;
      }
      if (nn === 0 || nf === 0) continue;
      // Near pieces whose outer edge moved, with the far ones; far pieces whose outer edge moved, with the near ones
      // whose did not; and, neither having moved, pairs on the facing edges of last frame's joined ones. A still
      // scene of many blobs looks at no pair but those. Each piece looks only at those whose facing edge lies across
      // a gap it could face (1 px up to its own extent: facing's bounds), found in the others sorted by that edge: in
      // a flood of small blobs (4096 of noise over 1080p) most edges stand where some blob's stood last frame, and
      // every near piece against every far one was a fifth of the tracker's frame.
      const lo = 1 - axis;
      const nearBy = this.#sorted(near, nn, axis + 2, n, 0);
      const farBy = this.#sorted(far, nf, axis, n, 1);
      const extent = (j: number) => bb[4 * j + lo + 2] - bb[4 * j + lo] + 1;
      for (let p = 0; p < nn; p++) {
        const a = near[p];
        if (still(a, axis)) continue;
        const edge = bb[4 * a + axis + 2];
        for (let q = lowerBound(farBy, (edge + 2) * n), end = (edge + 2 + extent(a)) * n; q < nf && farBy[q] < end; q++) {
          const b = farBy[q] % n;
          if (facing(bb, a, b, axis)) candidates.push((a * n + b) * 2 + axis);
        }
      }
      for (let q = 0; q < nf; q++) {
        const b = far[q];
        if (still(b, axis + 2)) continue;
        const edge = bb[4 * b + axis];
        for (let p = lowerBound(nearBy, (edge - 1 - extent(b)) * n), end = (edge - 1) * n; p < nn && nearBy[p] < end; p++) {
          const a = nearBy[p] % n;
          if (still(a, axis) && facing(bb, a, b, axis)) candidates.push((a * n + b) * 2 + axis);
        }
      }
      for (let i = 0; i < joinedBefore.length; i += 3) {
        if (joinedBefore[i] !== axis) continue;
        const [nearEdge, farEdge] = [joinedBefore[i + 1], joinedBefore[i + 2]];
        const farFrom = lowerBound(farBy, farEdge * n);
        for (let p = lowerBound(nearBy, nearEdge * n); p < nn && nearBy[p] < (nearEdge + 1) * n; p++) {
          const a = nearBy[p] % n;
          if (!still(a, axis)) continue;
          for (let q = farFrom; q < nf && farBy[q] < (farEdge + 1) * n; q++) {
            const b = farBy[q] % n;
            if (still(b, axis + 2) && facing(bb, a, b, axis)) candidates.push((a * n + b) * 2 + axis);
          }
        }
      }
    }
    if (candidates.length === 0) return null;
    // In the order (near, far, axis): which of two partners a piece joins does not follow the blobs' order on an axis.
    candidates.sort((p, q) => p - q);
    const partner = this.#partner;
    partner.fill(-1, 0, n);
    let joined = 0;
    for (const c of candidates) {
      const axis = c & 1;
      const a = Math.floor(c / 2 / n);
      const b = (c >> 1) - a * n;
      if (partner[a] >= 0 || partner[b] >= 0) continue;
      partner[a] = b;
      partner[b] = a;
      joined++;
      this.#joinedNow.push(axis, bb[4 * a + axis + 2], bb[4 * b + axis]);
    }
    const out: Box[] = [];
    const source = new Int32Array(n - joined);
    const other = new Int32Array(n - joined);
    const look = hists ? new Float64Array((n - joined) * bins) : null;
    const area = (j: number) => (bb[4 * j + 2] - bb[4 * j] + 1) * (bb[4 * j + 3] - bb[4 * j + 1] + 1);
    for (let i = 0; i < n; i++) {
      const p = partner[i];
      if (p >= 0 && p < i) continue;
      if (look) for (let k = 0; k < bins; k++) look[out.length * bins + k] = hists![i * bins + k] + (p >= 0 ? hists![p * bins + k] : 0);
      const larger = p >= 0 && area(p) > area(i) ? p : i;
      source[out.length] = larger;
      other[out.length] = p < 0 ? -1 : larger === i ? p : i;
      out.push(p < 0 ? boxes[i] : [Math.min(bb[4 * i], bb[4 * p]), Math.min(bb[4 * i + 1], bb[4 * p + 1]), Math.max(bb[4 * i + 2], bb[4 * p + 2]), Math.max(bb[4 * i + 3], bb[4 * p + 3])]);
    }
    return { boxes: out, hists: look, source, other };
  }

  /**
   * Blobs `list[0..count)` as keys `edge · n + blob` in ascending order, edge being bound e of their boxes (a whole
   * pixel below maxEdge: they are edges that stood still), into scratch array `slot`.
   */
  #sorted(list: Int32Array, count: number, e: number, n: number, slot: 0 | 1): Float64Array {
    if (this.#keys[slot].length < count) this.#keys[slot] = new Float64Array(2 * count);
    const keys = this.#keys[slot].subarray(0, count);
    for (let i = 0; i < count; i++) keys[i] = this.#bb[4 * list[i] + e] * n + list[i];
    return keys.sort();
  }

  /** The edge tables grown to hold pixel v; their new size. */
  #grow(v: number): number {
    const old = this.#size;
    const size = Math.min(maxEdge, Math.max(2 * v + 2, 2 * old));
    const grown = (a: Int32Array) => {
      const b = new Int32Array(4 * size).fill(-1);
      for (let e = 0; e < 4; e++) b.set(a.subarray(e * old, (e + 1) * old), e * size);
      return b;
    };
    this.#seen = grown(this.#seen);
    this.#before = grown(this.#before);
    this.#size = size;
    return size;
  }
}
