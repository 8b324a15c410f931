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
 * - the two facing edges stand on the same pixels as last frame's pair of such blobs, and at least one of the outer
 *   edges moved (an object crossing behind the occluder), or the pair was already joined last frame (the object has
 *   stopped behind it).
 * The joined blob is the two boxes' union (the object's box across the occluder) with both histograms summed. Both
 * axes: a post cuts objects into left and right pieces, a railing into upper and lower ones.
 *
 * Before, the tracker followed one piece at a time (by the edge it could see, Track.#occluded) and a wide object's
 * other piece made a second track or took a lost one. bench/trackEval.js, cached blobs of eighteen sets of people-
 * shaped boxes and people (fifty-fifth session, BENCHMARKS.md): ID switches 8548 → 8114, line errors (both lines)
 * 2944 → 2829, MOTA up on all eighteen; vehicles (`--walkers vehicles`, flat 1–8 / street 1–4): MOTA 0.326 → 0.394 /
 * 0.604 → 0.666, ID switches 518 → 403 / 166 → 116. Ends within 0.1 / 0.2 / 0.3 / 0.6 of the extent: switches 8307 /
 * 8269 / 8194 / 8081, line errors 2889 / 2881 / 2848 / 2838; both outer edges moving the same way (rather than either):
 * fewer joins and less gain (8228 / 2838 at 0.4); only left and right pieces: 8137 / 2822.
 */
import type { Box } from './TrackerSettings.js';

/** Tolerance, as a share of the shared extent (at least `minTolerance` px), on the pieces' ends across the gap. */
const extentShare = 0.4;
const minTolerance = 2;
/** Numbers kept per pair found: axis, the near piece's low and high bounds on it, the far piece's, joined (0 / 1). */
const pairWords = 6;
/** Blob indices packed under a low bound in the sort's keys: frames with more blobs are left as they are. */
const indexSpan = 4096;

export interface JoinedBlobs {
  boxes: Box[];
  /** Histograms of the joined blobs (counts added), or null without histograms. */
  hists: Float64Array | null;
  /** For each joined blob, the input blob it stands for (the larger piece where two were joined). */
  source: Int32Array;
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

export class PieceJoiner {
  /** This frame's boxes' bounds, 4 a box. */
  #bb = new Float64Array(64);
  #partner = new Int32Array(16);
  /** Sort keys: a blob's low bound on an axis, whole pixels, times indexSpan, plus its index. */
  #keys = new Float64Array(16);
  /** Pairs found this frame and last (pairWords numbers each), and how many. */
  #pairs = new Float64Array(16 * pairWords);
  #pairCount = 0;
  #last = new Float64Array(16 * pairWords);
  #lastCount = 0;
  /** Candidate pairs this frame, as (near · n + far) · 2 + axis, in that order. */
  #candidates: number[] = [];

  /**
   * This frame's blobs with pieces joined, or null where none were (the caller's blobs stand). `bins`: histogram
   * counts a blob. A blob joins at most one other.
   */
  join(boxes: readonly Box[], hists: ArrayLike<number> | null | undefined, bins: number): JoinedBlobs | null {
    const n = boxes.length;
    [this.#pairs, this.#last] = [this.#last, this.#pairs];
    this.#lastCount = this.#pairCount;
    this.#pairCount = 0;
    if (n < 2) return null;
    if (this.#bb.length < 4 * n) this.#bb = new Float64Array(8 * n);
    if (this.#partner.length < n) this.#partner = new Int32Array(2 * n);
    const bb = this.#bb;
    for (let j = 0; j < n; j++) {
      const b = boxes[j];
      bb[4 * j] = b[0];
      bb[4 * j + 1] = b[1];
      bb[4 * j + 2] = b[2];
      bb[4 * j + 3] = b[3];
    }
    // Pairs facing across a gap: on each axis, the far pieces whose low bound lies past the near one's high bound by
    // at most the near piece's extent across (the gap is no wider than the smaller extent), found in the pieces
    // sorted by their low bound. The sort is the typed array's own, of keys floor(low) · 4096 + index (a comparator's
    // calls cost more than the rest of the step), so the range is looked for on whole pixels, one wider, and
    // `facing` decides.
    const candidates = this.#candidates;
    candidates.length = 0;
    if (n >= indexSpan) return null;
    if (this.#keys.length < n) this.#keys = new Float64Array(2 * n);
    const keys = this.#keys.subarray(0, n);
    for (let axis = 0; axis < 2; axis++) {
      for (let j = 0; j < n; j++) keys[j] = Math.floor(bb[4 * j + axis]) * indexSpan + j;
      keys.sort();
      const other = 1 - axis;
      for (let a = 0; a < n; a++) {
        const from = Math.floor(bb[4 * a + axis + 2]) + 1;
        const to = bb[4 * a + axis + 2] + 2 + bb[4 * a + other + 2] - bb[4 * a + other];
        // The first key at `from` or after (binary search), then on while their low bound is `to` at most.
        let lo = 0;
        let hi = n;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (keys[mid] < from * indexSpan) lo = mid + 1;
          else hi = mid;
        }
        for (let k = lo; k < n; k++) {
          const low = Math.floor(keys[k] / indexSpan);
          if (low > to) break;
          const b = keys[k] - low * indexSpan;
          if (facing(bb, a, b, axis)) candidates.push((a * n + b) * 2 + axis);
        }
      }
    }
    if (candidates.length === 0) return null;
    // In the order (near, far, axis) a look at every pair would take them: which of two partners a piece joins.
    candidates.sort((p, q) => p - q);
    const partner = this.#partner;
    partner.fill(-1, 0, n);
    let joined = 0;
    for (const c of candidates) {
      const axis = c & 1;
      const a = Math.floor(c / 2 / n);
      const b = (c >> 1) - a * n;
      const join = partner[a] < 0 && partner[b] < 0 && this.#static(bb, a, b, axis);
      if (join) {
        partner[a] = b;
        partner[b] = a;
        joined++;
      }
      this.#keep(bb, a, b, axis, join);
    }
    if (joined === 0) return null;
    const out: Box[] = [];
    const source = new Int32Array(n - joined);
    const look = hists ? new Float64Array((n - joined) * bins) : null;
    const area = (j: number) => (bb[4 * j + 2] - bb[4 * j] + 1) * (bb[4 * j + 3] - bb[4 * j + 1] + 1);
    for (let i = 0; i < n; i++) {
      const p = partner[i];
      if (p >= 0 && p < i) continue;
      if (look) for (let k = 0; k < bins; k++) look[out.length * bins + k] = hists![i * bins + k] + (p >= 0 ? hists![p * bins + k] : 0);
      source[out.length] = p >= 0 && area(p) > area(i) ? p : i;
      out.push(p < 0 ? boxes[i] : [Math.min(bb[4 * i], bb[4 * p]), Math.min(bb[4 * i + 1], bb[4 * p + 1]), Math.max(bb[4 * i + 2], bb[4 * p + 2]), Math.max(bb[4 * i + 3], bb[4 * p + 3])]);
    }
    return { boxes: out, hists: look, source };
  }

  /** Keeps pair (a near, b far) on `axis` for next frame's #static. */
  #keep(bb: Float64Array, a: number, b: number, axis: number, joined: boolean): void {
    if ((this.#pairCount + 1) * pairWords > this.#pairs.length) {
      const more = new Float64Array(2 * this.#pairs.length);
      more.set(this.#pairs);
      this.#pairs = more;
    }
    const w = this.#pairs;
    const at = this.#pairCount++ * pairWords;
    w[at] = axis;
    w[at + 1] = bb[4 * a + axis];
    w[at + 2] = bb[4 * a + axis + 2];
    w[at + 3] = bb[4 * b + axis];
    w[at + 4] = bb[4 * b + axis + 2];
    w[at + 5] = joined ? 1 : 0;
  }

  /**
   * Whether last frame had a pair on this axis with its facing edges on the same pixels as pair (a near, b far), with
   * an outer edge moved since, or joined.
   */
  #static(bb: Float64Array, a: number, b: number, axis: number): boolean {
    const w = this.#last;
    const nearLo = bb[4 * a + axis];
    const nearHi = bb[4 * a + axis + 2];
    const farLo = bb[4 * b + axis];
    const farHi = bb[4 * b + axis + 2];
    for (let at = 0; at < this.#lastCount * pairWords; at += pairWords) {
      if (w[at] !== axis || w[at + 2] !== nearHi || w[at + 3] !== farLo) continue;
      if (w[at + 5] === 1 || w[at + 1] !== nearLo || w[at + 4] !== farHi) return true;
    }
    return false;
  }
}
