/**
 * One tracked object's state (Tracker.ts): its Kalman filter, its recent own observations and the velocity they
 * show while it coasts, and its average look. What counting lines, zones and trails keep of it is theirs (src/count/,
 * Trails.ts).
 */
import { KalmanBox } from './KalmanBox.js';
import { median } from './median.js';
import type { TrackInfo } from '../core/results.js';
import type { TrackSettings } from './TrackSettings.js';
import { appearanceRate, observed, observedEnough, observedFor, shrinkPerFrame, shrinkRate } from './tuning.js';

/**
 * Work arrays of Track.#observedSpeed, one set for all tracks (they run one at a time): an axis's followed values and
 * times in order, and the slopes between every two of them.
 */
const values = new Float64Array(observed);
const times = new Float64Array(observed);
const slopes = new Float64Array((observed * (observed - 1)) / 2);
/** Whether either edge of a blob on `axis` lies on the frame's border (`border`: bits x0, y0, x1, y1, as Track.measure). */
const onBorder = (border: number, axis: 0 | 1) => (((border >> axis) | (border >> (axis + 2))) & 1) !== 0;
/** Bins of a blob's histogram (`features({ histogram: true })`). */
export const bins = 16;

/** A fraction stored first in fields that count seconds or sizes, so V8 keeps them as doubles from the start. */
const asDouble = 0.5;

export class Track {
  readonly kf: KalmanBox;
  state: TrackInfo['state'] = 'tentative';
  hits = 1;
  age = 1;
  /** Seconds unseen (lost; 0 while seen or in a group). A double from its first store (asDouble). */
  unseen = asDouble;
  merged = false;
  blob: number;
  /** The box predicted for this frame, before any measurement (written in place each frame), and its diagonal. */
  readonly predicted = new Float64Array(4);
  predictedDiagonal = 0;
  /** This frame: given a blob of its own; coasting in a group's blob, the index of that blob (-1: in no group). */
  matched = false;
  group = -1;
  /** In a group this frame: the axes on which it owns an edge of the group's blob (bit 1 x, bit 2 y; measureGroup). */
  ownsEdges = 0;
  /** Seconds since it was first seen. */
  life = 0;
  /**
   * Its last `observed` own observations (a ring): the time (`life`) of each, its box (x0, y0, x1, y1, four numbers
   * an entry) and which of the box's edges lay on the frame's border (bits 0–3).
   */
  readonly seenTime = new Float64Array(observed);
  readonly seenBox = new Float64Array(4 * observed);
  readonly seenBorder = new Uint8Array(observed);
  seenNext = 0;
  seenCount = 0;
  /** The last blob it was measured with, as it was, and per axis the side of it an occluder cut (Track.#occluded). */
  readonly lastBlob = new Float64Array(4);
  readonly cutSide = new Int8Array(2);
  /** Not measured last frame (lost, or in a group's blob). */
  coasting = false;
  /** Sizes its estimate was drawn into groups' blobs since it last had a blob of its own (pullIntoGroup). */
  pulledBy = asDouble;
  /** Pixels its estimate was drawn on x and y since it last had a blob of its own (pullIntoGroup). */
  readonly pullOffset = new Float64Array(2);
  /** Seconds it had been lost when this frame's blob was matched to it (0: it was not lost). */
  gap = asDouble;
  /** Average histogram of its own blobs (pixels per bin), from its first blob on; null while blobs carry none. */
  appearance: Float64Array | null = null;
  appearanceSum = 0;
  /**
   * With spatial histograms (`features({ histogram: 'spatial' })`): where each bin's pixels lie in its own blobs, the
   * bin's mean column and row less the blob's centre, as shares of its width and height (averaged as `appearance`;
   * NaN for a bin not seen yet). A group's blob shows where its members' grays lie; these say where the member's box
   * is from them (placeMembers.ts).
   */
  placeX: Float64Array | null = null;
  placeY: Float64Array | null = null;
  /** Placed in its group's blob this frame by its grays (placeMembers.ts). */
  placed = false;

  /** Made from blob j, whose bounds are bb[4j .. 4j + 4) (the frame's blobs, flat: Tracker.#readBlobs). */
  constructor(
    readonly id: number,
    bb: Float64Array,
    j: number,
    s: TrackSettings,
  ) {
    this.unseen = 0;
    this.gap = 0;
    this.pulledBy = 0;
    const at = 4 * j;
    const [cx, cy, w, h] = [(bb[at] + bb[at + 2]) / 2, (bb[at + 1] + bb[at + 3]) / 2, bb[at + 2] - bb[at] + 1, bb[at + 3] - bb[at + 1] + 1];
    // Sizes change slowly: a tenth of the acceleration (KalmanBox).
    this.kf = new KalmanBox([cx, cy, w, h], s.acceleration ** 2, s.measurementNoise ** 2);
    this.blob = j;
    for (let k = 0; k < 4; k++) this.predicted[k] = bb[at + k];
  }

  /** Writes the box of the current estimate (inclusive pixel bounds) into `out`; returns it. */
  box<T extends { [i: number]: number }>(out: T): T {
    const kf = this.kf;
    const x = kf.p(0);
    const y = kf.p(1);
    // At least a pixel: a box with x1 < x0 is no box (the sizes are held while unmeasured, see `coast`).
    const hw = Math.max(1, kf.p(2)) / 2;
    const hh = Math.max(1, kf.p(3)) / 2;
    out[0] = x - hw + 0.5;
    out[1] = y - hh + 0.5;
    out[2] = x + hw - 0.5;
    out[3] = y + hh - 0.5;
    return out;
  }

  /** Moves the estimate dt seconds ahead and starts the frame: `predicted` is the box there. */
  predict(dt: number, noise: number): void {
    this.kf.predict(dt, noise);
    this.life += dt;
    this.age++;
    this.blob = -1;
    // Written here rather than through `box` and a shared diagonal helper, which also took other kinds of arrays: in
    // V8 the shared, polymorphic calls cost this loop over every track about twice its time (bench/timing/tracker.js).
    const kf = this.kf;
    const w = Math.max(1, kf.p(2));
    const h = Math.max(1, kf.p(3));
    const p = this.predicted;
    p[0] = kf.p(0) - w / 2 + 0.5;
    p[1] = kf.p(1) - h / 2 + 0.5;
    p[2] = kf.p(0) + w / 2 - 0.5;
    p[3] = kf.p(1) + h / 2 - 0.5;
    this.predictedDiagonal = Math.sqrt(w * w + h * h);
    this.matched = false;
    this.group = -1;
    this.ownsEdges = 0;
    this.placed = false;
  }

  /**
   * A frame without a measurement of its own (lost, or in a group's blob): the size stays, and the centre goes on at
   * the velocity of its recent observations (those of the last `observedFor` seconds but the newest, once there are
   * `observedEnough`), set when the coasting starts, in the manner of OC-SORT's observation-centric momentum.
   * - Carried on, the size's velocity turns a shrink seen while the object went behind a pillar or out of the frame
   *   into a box of no width within a few frames (x1 < x0 in nearly half of the lost and grouped tracks' frames in
   *   bench/evaluation/trackEval.js), which no IoU can match again and no overlay can draw.
   * - The filter's velocity follows the last few measurements, and a track often goes unmatched right after its blob
   *   jumped (joining another's, splitting, half hidden): with that velocity, lost tracks spent 7 % of their
   *   frames coasting at over 400 px/s where objects walk at 24–90 px/s (0.7 % with the observations' velocity).
   */
  coast(interval: number): void {
    const kf = this.kf;
    kf.setVelocity(2, 0);
    kf.setVelocity(3, 0);
    if (!this.coasting && this.seenCount >= observedEnough) {
      // The last `observedFor` seconds of them at the stream's frame interval (`interval`); from the oldest to the
      // one before the newest: the blob that came last before the track went unmatched was often already joining
      // another or half hidden.
      const window = Math.min(this.seenCount, Math.max(observedEnough, Math.round(observedFor / interval)));
      const n = window - 1;
      const oldest = (this.seenNext + observed - window) % observed;
      kf.setVelocity(0, this.#observedSpeed(0, oldest, n));
      kf.setVelocity(1, this.#observedSpeed(1, oldest, n));
    }
    this.coasting = true;
  }

  /**
   * Speed on an axis over `n` observations from ring entry `from` on: the median of the slopes between every two of
   * them (Theil and Sen's estimator), which a few blobs that jumped (a shadow or another object joining, a split, a
   * frame of noise) do not move (docs/decisions/tracking.md#coast-velocity).
   * A box cut by the frame's border on one side of the axis (an object coming into view or leaving it) has its
   * centre moving at half the object's speed, or less; its other edge moves with the object, so that edge is followed
   * where any of the observations is cut. Every object walks in through a border, and a track that joins a group or is
   * lost soon after would otherwise coast at half speed, fall behind its object and lose it
   * (docs/decisions/tracking.md#border-cut).
   */
  #observedSpeed(axis: 0 | 1, from: number, n: number): number {
    const b = this.seenBox;
    const t = this.seenTime;
    let cut = 0;
    for (let i = 0; i < n; i++) cut |= this.seenBorder[(from + i) % observed];
    const low = (cut >> axis) & 1;
    const high = (cut >> (axis + 2)) & 1;
    // Edge k of entry e is b[4e + k]: x0, y0, x1, y1. Followed: twice the edge, or the sum of both (twice the centre).
    const edge = low && !high ? axis + 2 : high && !low ? axis : -1;
    const k = edge >= 0 ? edge : axis;
    const l = edge >= 0 ? edge : axis + 2;
    // In time order first, so that the pairs' loop reads two plain arrays (about 2.4 µs for 29 observations).
    for (let i = 0; i < n; i++) {
      const e = (from + i) % observed;
      values[i] = b[4 * e + k] + b[4 * e + l];
      times[i] = t[e];
    }
    let m = 0;
    for (let i = 0; i < n; i++) {
      const vi = values[i];
      const ti = times[i];
      for (let j = i + 1; j < n; j++) {
        const dt = times[j] - ti;
        if (dt > 0) slopes[m++] = (values[j] - vi) / (2 * dt);
      }
    }
    // No time between any two of them (frames with one timestamp): the filter's velocity stays, as it did before.
    return m > 0 ? median(slopes, m) : this.kf.v(axis);
  }

  /** Velocity on an axis over its newest n own observations (n ≤ seenCount; see #observedSpeed). */
  newestSpeed(axis: 0 | 1, n: number): number {
    return this.#observedSpeed(axis, (this.seenNext + observed - n) % observed, n);
  }

  /**
   * Folds blob j's histogram (of `hists`, `bins` counts a blob) into the average: the first one as it is, then at
   * `appearanceRate`. Only blobs of its own (no other track's prediction under them): a group's blob is not its look.
   */
  observe(hists: ArrayLike<number>, j: number): void {
    let a = this.appearance;
    const rate = a ? appearanceRate : 1;
    if (!a) a = this.appearance = new Float64Array(bins);
    let sum = 0;
    for (let b = 0; b < bins; b++) {
      const v = a[b] + rate * (hists[j * bins + b] - a[b]);
      a[b] = v;
      sum += v;
    }
    this.appearanceSum = sum;
  }

  /**
   * Folds where blob j's bins lie (`px`, `py`: their mean columns and rows, `bins` a blob; NaN where empty) into
   * placeX and placeY, relative to the blob's box bb[at .. at + 4). Only blobs of its own, as `observe`.
   */
  observePlaces(px: ArrayLike<number>, py: ArrayLike<number>, j: number, bb: Float64Array, at: number): void {
    let ax = this.placeX;
    let ay = this.placeY;
    if (!ax || !ay) {
      ax = this.placeX = new Float64Array(bins).fill(NaN);
      ay = this.placeY = new Float64Array(bins).fill(NaN);
    }
    const w = bb[at + 2] - bb[at] + 1;
    const h = bb[at + 3] - bb[at + 1] + 1;
    const cx = (bb[at] + bb[at + 2]) / 2;
    const cy = (bb[at + 1] + bb[at + 3]) / 2;
    for (let b = 0; b < bins; b++) {
      const x = px[j * bins + b];
      if (Number.isNaN(x)) continue;
      const ox = (x - cx) / w;
      const oy = (py[j * bins + b] - cy) / h;
      if (Number.isNaN(ax[b])) {
        ax[b] = ox;
        ay[b] = oy;
      } else {
        ax[b] += appearanceRate * (ox - ax[b]);
        ay[b] += appearanceRate * (oy - ay[b]);
      }
    }
  }

  /**
   * 1 − the share of its average histogram that blob j's holds (0: all of it; 1: none, or nothing to compare), where
   * `total` is the sum of blob j's counts. The share held, Σ min(a, h) / Σ a, is summed as (Σ a + Σ h − Σ |a − h|) / 2:
   * without a minimum per bin, which V8 compiles to a NaN-aware sequence, the loop takes half the time (the tracker
   * compares a track with each blob it could take where another could too, some hundred pairs a frame in a crowd).
   */
  appearanceCost(hists: ArrayLike<number>, j: number, total: number): number {
    const a = this.appearance;
    const sum = this.appearanceSum;
    if (!a || sum <= 0) return 0;
    let apart = 0;
    const at = j * bins;
    for (let b = 0; b < bins; b++) apart += Math.abs(a[b] - hists[at + b]);
    return 1 - (sum + total - apart) / (2 * sum);
  }

  /**
   * The earth mover's distance between its average histogram and blob j's, each as shares of its pixels, in bins:
   * the area between their cumulative shares. 0 while it has no histogram or the blob no pixels counted.
   */
  lookDistance(hists: ArrayLike<number>, j: number): number {
    const a = this.appearance;
    const sum = this.appearanceSum;
    const at = j * bins;
    let total = 0;
    for (let b = 0; b < bins; b++) total += hists[at + b];
    if (!a || sum <= 0 || total <= 0) return 0;
    let own = 0;
    let blob = 0;
    let d = 0;
    for (let b = 0; b < bins - 1; b++) {
      own += a[b] / sum;
      blob += hists[at + b] / total;
      d += Math.abs(own - blob);
    }
    return d;
  }

  /** The predicted box's narrower side (pixels). */
  get narrowSide(): number {
    const p = this.predicted;
    return Math.min(p[2] - p[0], p[3] - p[1]) + 1;
  }

  /** How far its centre moves in dt seconds at its estimated velocity (pixels). */
  move(dt: number): number {
    const vx = this.kf.v(0);
    const vy = this.kf.v(1);
    return Math.sqrt(vx * vx + vy * vy) * dt;
  }

  /** Position uncertainty of the centre (pixels, one standard deviation). */
  get spread(): number {
    return Math.sqrt(Math.max(this.kf.variance(0), this.kf.variance(1)));
  }

  /**
   * Folds in its own blob's box, bb[at .. at + 4); `border` says which of its edges lie on the frame's border (bits x0,
   * y0, x1, y1).
   */
  measure(bb: Float64Array, at: number, border: number): void {
    const kf = this.kf;
    this.seenTime[this.seenNext] = this.life;
    // Four stores: TypedArray.set from an array takes V8's generic path, and this runs for every track every frame.
    const e = 4 * this.seenNext;
    const b = this.seenBox;
    b[e] = bb[at];
    b[e + 1] = bb[at + 1];
    b[e + 2] = bb[at + 2];
    b[e + 3] = bb[at + 3];
    // Measured last frame as well (not after coasting), with a few observations to know its size by.
    const known = !this.coasting && this.seenCount >= 3;
    const cutX = (this.cutSide[0] = known ? this.#occluded(0, border, e) : 0) !== 0;
    const cutY = (this.cutSide[1] = known ? this.#occluded(1, border, e) : 0) !== 0;
    if (known) {
      // The shrink a size may take since the last observation: `shrinkPerFrame` a frame at 30 frames a second.
      const since = this.life - this.seenTime[(this.seenNext + observed - 1) % observed];
      const least = Math.pow(1 - shrinkPerFrame, Math.max(1, since * shrinkRate));
      if (!cutX) this.#contain(0, border, e, least);
      if (!cutY) this.#contain(1, border, e, least);
    }
    const r = this.lastBlob;
    r[0] = bb[at];
    r[1] = bb[at + 1];
    r[2] = bb[at + 2];
    r[3] = bb[at + 3];
    this.seenBorder[this.seenNext] = border;
    this.seenNext = (this.seenNext + 1) % observed;
    this.seenCount = Math.min(observed, this.seenCount + 1);
    this.coasting = false;
    // A blob of its own: what groups' blobs drew it by is done with (pullIntoGroup).
    this.pulledBy = 0;
    this.pullOffset[0] = 0;
    this.pullOffset[1] = 0;
    kf.update(0, (b[e] + b[e + 2]) / 2);
    kf.update(1, (b[e + 1] + b[e + 3]) / 2);
    // A cut axis's size is held where it is, as a coasting track's is (Track.coast): left to its velocity, a size
    // unmeasured for as long as the cut lasts drifts without end (docs/decisions/tracking.md#occluder).
    if (cutX) kf.setVelocity(2, 0);
    else kf.update(2, b[e + 2] - b[e] + 1);
    if (cutY) kf.setVelocity(3, 0);
    else kf.update(3, b[e + 3] - b[e + 1] + 1);
  }

  /**
   * A blob much smaller on `axis` than the track's size (under `share` of it) is part of the object, not all of it: the
   * observation at seenBox entry e becomes a box of that share of the size that holds the blob, as near the predicted
   * centre as it can lie. Where the foreground loses an object in part (its gray near the background's, the model
   * taking in one that stops, a piece apart), its blob shrinks or jumps to a piece within a few frames, faster than
   * any object's size changes; measured as it was, the box followed it down to the piece (one object of the street
   * scenes, walking across in front of a wall of its gray: 69 px tall to 1 px in 6 frames) and was lost with it, while
   * the other pieces made tracks of their own that counted its crossing again. Edges on the frame's border are left
   * as they are: an object walking out of view shrinks as fast as it walks.
   */
  #contain(axis: 0 | 1, border: number, e: number, share: number): void {
    if (onBorder(border, axis)) return;
    const b = this.seenBox;
    const lo = b[e + axis];
    const hi = b[e + axis + 2];
    const least = share * this.kf.p(axis + 2);
    if (hi - lo + 1 >= least) return;
    const half = least / 2;
    const c = Math.min(Math.max(this.kf.p(axis), hi + 0.5 - half), lo - 0.5 + half);
    b[e + axis] = c - half + 0.5;
    b[e + axis + 2] = c + half - 0.5;
  }

  /**
   * Which side of its blob on `axis` something in front of the object cuts, a pillar it walks behind or comes out
   * from (−1 the low edge, 1 the high one, 0 neither): an edge that stands still while the object moves, the other
   * edge moving its way at about its speed (a jump is a blob joining another's), and that edge then for as long as it
   * stays still. Where one is cut, the observation at seenBox entry e becomes the object's box, at the track's size
   * from the edge that is its own. Measured as it is, the visible part's centre moves at half the object's speed or
   * less, its size shrinks to nothing, and a track coming out of the pillar's far side is new
   * (docs/decisions/tracking.md#occluder).
   */
  #occluded(axis: 0 | 1, border: number, e: number): number {
    const b = this.seenBox;
    const r = this.lastBlob;
    const size = this.kf.p(axis + 2);
    const lo = b[e + axis];
    const hi = b[e + axis + 2];
    // Wider than the object: a blob joining another, not a part of it.
    if (hi - lo + 1 > 1.1 * size) return 0;
    // An edge on the frame's border is neither the object's own nor an occluder's (Track.coast follows the other).
    if (onBorder(border, axis)) return 0;
    const dLo = lo - r[axis];
    const dHi = hi - r[axis + 2];
    // Half a pixel: blobs' edges are whole pixels, so "still" is "the same".
    const loStill = Math.abs(dLo) <= 0.5;
    const hiStill = Math.abs(dHi) <= 0.5;
    let cut = 0;
    if (this.cutSide[axis] < 0 && loStill) cut = -1;
    else if (this.cutSide[axis] > 0 && hiStill) cut = 1;
    else {
      // Where the object went since the last observation, by its velocity.
      const m = this.kf.v(axis) * (this.life - this.seenTime[(this.seenNext + observed - 1) % observed]);
      if (Math.abs(m) < 0.5) return 0;
      // Moved by at least half a pixel (a whole one) its way, and by no more than twice that and 2 px.
      const reach = 2 * Math.abs(m) + 2;
      if (loStill && dHi * m > 0 && Math.abs(dHi) >= 0.5 && Math.abs(dHi) <= reach) cut = -1;
      else if (hiStill && dLo * m > 0 && Math.abs(dLo) >= 0.5 && Math.abs(dLo) <= reach) cut = 1;
    }
    if (cut < 0) b[e + axis] = hi - size + 1;
    else if (cut > 0) b[e + axis + 2] = lo + size - 1;
    return cut;
  }

  /**
   * Folds in one axis (0: x, 1: y) of a group's blob where both of its edges on that axis are this track's (NaN
   * where not) and their distance is near its predicted size: centre and size measured, the other axis left to
   * the prediction.
   */
  measureEdges(axis: 0 | 1, low: number, high: number): void {
    if (Number.isNaN(low) || Number.isNaN(high)) return;
    // The edges of another object (a group formed where a blob is one object's, overlapping a smaller one's
    // prediction): not this track's size.
    const size = high - low + 1;
    const predicted = this.kf.p(axis + 2);
    if (size > 1.25 * predicted || size < 0.8 * predicted) return;
    this.kf.update(axis, (low + high) / 2);
    this.kf.update(axis + 2, size);
  }
}

/** Its newest own observation as the object's box (an occluder's cut side at its held size), integer bounds. */
function lastSeen(t: Track): [number, number, number, number] {
  const e = 4 * ((t.seenNext + observed - 1) % observed);
  const b = t.seenBox;
  return [Math.round(b[e]), Math.round(b[e + 1]), Math.round(b[e + 2]), Math.round(b[e + 3])];
}

/** What a frame's results say of track t. */
export function trackInfo(t: Track): TrackInfo {
  return {
    id: t.id,
    state: t.state,
    // Made of doubles from the start: written into an array of small integers, V8 would make its elements again.
    box: t.box([0.5, 0.5, 0.5, 0.5]),
    cx: t.kf.p(0),
    cy: t.kf.p(1),
    vx: t.kf.v(0),
    vy: t.kf.v(1),
    blob: t.blob,
    piece: -1,
    // Always present (null where no occluder cuts its blob): one shape for every track's info.
    whole: t.blob >= 0 && (t.cutSide[0] !== 0 || t.cutSide[1] !== 0) ? lastSeen(t) : null,
    age: t.age,
    unseen: t.unseen,
    merged: t.merged,
    group: t.group,
    groupPiece: -1,
    // Filled by trails().
    trail: [],
  };
}
