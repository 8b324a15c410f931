/**
 * Multi-object tracking over blobs (boxes), frame by frame, in plain TypeScript: a constant-velocity Kalman filter
 * per track (KalmanBox.ts), assignment by the Hungarian method (assign.ts) on a cost mixing the boxes' overlap
 * (1 − IoU) and their centres' distance, and tentative / confirmed / lost states with set lifetimes, in the manner
 * of SORT (Bewley et al., 2016) with what surveillance footage needs beyond it:
 *
 * - Lost tracks coast for `maxUnseen` seconds at their last size and at the velocity their recent observations show
 *   (the median of the slopes between every two of the last 30: Track.coast), with a gate that widens with their
 *   uncertainty up to half a diagonal, and are matched after the tracks seen last frame (DeepSORT's cascade, by
 *   recency; confirmed tracks before tentative ones): an object that passes behind a pillar keeps its id.
 * - A track takes no blob far from its predicted box (seen last frame: beyond half its narrower side, its move and
 *   its uncertainty; lost: a whole side, its move since last seen and its uncertainty), however near their centres:
 *   its object is where it predicts, to within that.
 * - A blob with one edge standing still while its object moves (a pillar it walks behind or comes out from) measures
 *   the object by its other edge, at the track's size (Track.#occluded); a blob mostly inside such a track's box is
 *   the rest of that object, seen on the pillar's far side, and starts no track.
 * - A blob that holds a good part of the predicted boxes of several tracks, more than any other blob does (objects
 *   crossing or walking together), is not given to one of them: they all coast, marked `merged`, and pick their own
 *   blobs again when the group splits; a member that clearly owns both of the blob's edges on an axis is measured on
 *   that axis meanwhile (measureGroup).
 * - With blobs' gray histograms (`features({ histogram: true })`), a confirmed track keeps an average of its own
 *   blobs' histograms, and a pair costs more the less of that histogram the blob holds (Track.appearanceCost): an
 *   appearance cue that tells two objects apart where boxes and motion cannot (after a group splits, a track lost
 *   beside another object). Containment rather than similarity: a group's blob holds each member's histogram. A
 *   lost track takes no blob whose gray levels lie far from its own (lookApart): a light object for a dark one.
 * - Counting lines count each confirmed track's crossings, by direction, and the crossing of an object a track
 *   comes out of a meeting at the line following (lineTurn.ts); zones count occupancy and dwell time.
 */
import { assignSparse, SparsePairs } from './assign.js';
import { CentreGrid } from './CentreGrid.js';
import type { FrameSize } from '../PerFrame.js';
import { boxIou } from './boxIou.js';
import { boxShare } from './boxShare.js';
import { KalmanBox } from './KalmanBox.js';
import { median } from './median.js';
import { TURN_WORDS, turnCoasting, turnReset, turnSeen, turnToward } from './lineTurn.js';
import { appendToList, atLeast, doubled } from './scratch.js';
import type { TrackEvent, TrackInfo, TrackResults } from '../results.js';

/** A detection: inclusive pixel bounds, as `features()` reports x0, y0, x1, y1. */
export type Box = readonly [number, number, number, number];

export interface CountingLine {
  id: string;
  /** From a to b; `forward` is a crossing from the line's left to its right as seen walking from a to b. */
  a: readonly [number, number];
  b: readonly [number, number];
}

export interface Zone {
  id: string;
  /** A polygon's corners, in order. */
  polygon: readonly (readonly [number, number])[];
}

export interface TrackerSettings {
  /** Frames in a row a new track must be matched before it is confirmed (and `entered` is emitted). */
  minHits: number;
  /** Seconds a confirmed track may go unseen (coasting) before it is dropped (`left`). */
  maxUnseen: number;
  /** Weight of 1 − IoU in the cost; the rest is the centres' distance in units of the gate. */
  iouWeight: number;
  /**
   * Weight of appearance in a confirmed track's pair cost (0 ignores it): 1 − the share of the track's average
   * histogram the blob's holds, when the blobs carry histograms (`features({ histogram: true })`).
   */
  appearanceWeight: number;
  /** Largest distance between a prediction's centre and a blob's, in box diagonals, for a pair to be allowed. */
  gate: number;
  /** Measurement noise of a box edge, pixels (standard deviation). */
  measurementNoise: number;
  /** Acceleration the motion model allows, pixels per second² (standard deviation density). */
  acceleration: number;
  /**
   * Centres kept per track and reported as its `trail`; 0 keeps none. Each frame's result holds its own copy (later
   * frames never change it): with 60 centres and 50 tracks that copy is a sixth of the tracker's time per frame and
   * most of its garbage, so a stream nobody draws trails of (counting, `flowmark track`) is better off with 0.
   */
  trailLength: number;
  /** Seconds between frames when the results carry no increasing timestamps. */
  frameInterval: number;
  lines: readonly CountingLine[];
  zones: readonly Zone[];
}

export const defaultTrackerSettings: Readonly<TrackerSettings> = {
  minHits: 3,
  maxUnseen: 2,
  iouWeight: 0.5,
  appearanceWeight: 0.5,
  gate: 1.5,
  measurementNoise: 2,
  acceleration: 400,
  trailLength: 60,
  frameInterval: 1 / 30,
  lines: [],
  zones: [],
};

/** A box's diagonal. (Squares as products: `** 2` is a call into pow in V8's optimised code, not a multiply.) */
function diagonalOf(b: ArrayLike<number>): number {
  const w = b[2] - b[0] + 1;
  const h = b[3] - b[1] + 1;
  return Math.sqrt(w * w + h * h);
}

/** The part of box p inside box q (q's bounds at q[at .. at + 4)). */
function covered(p: Float64Array, q: Float64Array, at: number): number {
  return boxShare(p[0], p[1], p[2], p[3], q[at], q[at + 1], q[at + 2], q[at + 3]);
}

/** How far box q (its bounds at q[at .. at + 4)) lies from box p: the length of the gap between them, 0 if they touch. */
function boxGap(p: Float64Array, q: Float64Array, at: number): number {
  const gx = Math.max(0, q[at] - p[2], p[0] - q[at + 2]);
  const gy = Math.max(0, q[at + 1] - p[3], p[1] - q[at + 3]);
  return Math.sqrt(gx * gx + gy * gy);
}

/** Which side of the line a point is on: > 0 on the right of a→b as seen on screen (image y grows downward). */
const side = (l: CountingLine, x: number, y: number) => (l.b[0] - l.a[0]) * (y - l.a[1]) - (l.b[1] - l.a[1]) * (x - l.a[0]);

/** Whether a box's corners lie on both sides of the line (through it, not only its segment). */
function boxAcross(l: CountingLine, b: Box): boolean {
  const s = Math.sign(side(l, b[0], b[1]));
  return Math.sign(side(l, b[2], b[1])) !== s || Math.sign(side(l, b[0], b[3])) !== s || Math.sign(side(l, b[2], b[3])) !== s;
}

/** Whether the segments p→q and a→b cross. */
function crosses(l: CountingLine, px: number, py: number, qx: number, qy: number): boolean {
  const s1 = side(l, px, py);
  const s2 = side(l, qx, qy);
  if (s1 === 0 || s2 === 0 || Math.sign(s1) === Math.sign(s2)) return false;
  const t = (ax: number, ay: number) => (qx - px) * (ay - py) - (qy - py) * (ax - px);
  return Math.sign(t(l.a[0], l.a[1])) !== Math.sign(t(l.b[0], l.b[1]));
}

/** Numbers per line in Track.lineSide: side, x, y, then the turn's (lineTurn.ts). */
const LINE_WORDS = 3 + TURN_WORDS;

/** Where a track was last seen clearly on one side of line k (Track.lineSide). */
function note(seen: Float64Array, k: number, sign: number, x: number, y: number): void {
  const at = LINE_WORDS * k;
  seen[at] = sign;
  seen[at + 1] = x;
  seen[at + 2] = y;
}

/** Whether (x, y) is inside a polygon given as x0, y0, x1, y1, … (even-odd rule). */
function inside(polygon: Float64Array, x: number, y: number): boolean {
  let into = false;
  const corners = polygon.length / 2;
  for (let i = 0, j = corners - 1; i < corners; j = i++) {
    const xi = polygon[2 * i];
    const yi = polygon[2 * i + 1];
    const xj = polygon[2 * j];
    const yj = polygon[2 * j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) into = !into;
  }
  return into;
}

/**
 * A zone's result. Its dwell times are kept as [id, seconds, …] and made a `Map` when first read: most frames' never
 * are, and building a `Map` of the zone's tracks was two fifths of the zones' time a frame (bench/tracker.js). A
 * getter of the object itself, so that spreading, `structuredClone` and `postMessage` still copy the `Map`.
 */
function zoneResult(occupancy: number, dwell: readonly number[]): TrackResults['zones'][string] {
  let map: Map<number, number> | undefined;
  return {
    occupancy,
    get dwell() {
      if (!map) {
        map = new Map();
        for (let i = 0; i < dwell.length; i += 2) map.set(dwell[i], dwell[i + 1]);
      }
      return map;
    },
  };
}

/** Which edges of a box (inclusive bounds) lie on the border of the frame (bits x0, y0, x1, y1); none without a size. */
function borderOf(box: Box, frame: FrameSize | undefined): number {
  if (!frame) return 0;
  return (box[0] <= 0 ? 1 : 0) | (box[1] <= 0 ? 2 : 0) | (box[2] >= frame.width - 1 ? 4 : 0) | (box[3] >= frame.height - 1 ? 8 : 0);
}

/** Own observations a track keeps for its coasting velocity, and how many it needs for one (Track.coast). */
const observed = 30;
const observedEnough = 5;
/**
 * Work arrays of Track.#observedSpeed, one set for all tracks (they run one at a time): an axis's followed values and
 * times in order, and the slopes between every two of them.
 */
const values = new Float64Array(observed);
const times = new Float64Array(observed);
const slopes = new Float64Array((observed * (observed - 1)) / 2);
/** Bins of a blob's histogram (`features({ histogram: true })`), and how fast a track's average follows its blobs. */
const bins = 16;
const appearanceRate = 0.1;
/**
 * How far apart (earth mover's distance between the two histograms, each as shares of its pixels, in bins) a lost
 * track's look and a blob's may lie for the track to take the blob: 6 bins, the whole of one shifted by 96 of 256
 * gray levels (a dark object for a light one). The appearance term is only a cost, and a pair alone in its row and
 * column is taken whatever it costs: a lost track took the blob of another object that came into view near its
 * estimate, the only blob there. A distance between shares, so that the part of its object a pillar leaves is as
 * near as the whole; and far, so that light that steps (×0.8 on a level of 220 is under 3 bins) or a track that has
 * seen its object only in part keeps its object. Sixteen seeds of bench/trackEval.js: ID switches 1374 → 1344, IDF1
 * 0.531 → 0.539, MOTA 0.404 → 0.405, line error 15.6 → 15.0 %; 5 / 8 bins: 1348 / 1340 switches, 15.2 / 14.9 %; the
 * street scenes (`--geometry street`, eight seeds): ID switches 615 → 593, IDF1 0.649 → 0.652, MOTA 0.525 → 0.528
 * (BENCHMARKS.md). For tracks seen last frame too: MOTA 0.396, line error 15.8 % (at 4 bins): their motion says more.
 */
const lookApart = 6;
/**
 * Share of a track's predicted box a blob must hold, more than any other blob does, for the track to be one of that
 * blob's group. A member coasts on its estimate, which drifts from its object while the group lasts (two objects that
 * stop together, one that turns): at a half, members fell out of their group one by one, and the blob went to the one
 * left as if it were its object's alone, while the others were lost or took a neighbour's blob. Sixteen seeds of
 * bench/trackEval.js, with seenTracks reporting only members whose estimate lies in the blob: ID switches 1609 → 1392,
 * IDF1 0.520 → 0.534, MOTA 0.398 → 0.406, line error 18.1 → 17.1 % (a quarter, 0.4, a half: 1402, 1470, 1547
 * switches; MOTA 0.403, 0.406, 0.412). Only the blob holding the most: at a third, a track beside a group whose box
 * overlaps its own would join the group and leave its own blob to a new track.
 */
const groupShare = 0.3;

class Track {
  readonly kf: KalmanBox;
  state: TrackInfo['state'] = 'tentative';
  hits = 1;
  age = 1;
  unseen = 0;
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
  /** Centres, oldest first; each point is never changed once pushed, so results can share them. */
  trail: (readonly [number, number])[] = [];
  /** Per zone (the settings' order): seconds spent inside it in all, NaN if never inside. */
  readonly dwell: Float64Array;
  /** The zones it is inside, in the order it entered them (the order of its zoneLeft events when it leaves). */
  readonly zonesIn: number[] = [];
  /**
   * Per line (LINE_WORDS numbers each): the side it was last seen clearly on (±1, 0 not yet), and where; then
   * TURN_WORDS numbers for a turn about the line being watched (lineTurn.ts).
   */
  readonly lineSide: Float64Array;
  /** Per line, where it was first seen clearly on one side (side ±1, x, y; 0 not yet): inherited by a split (inheritSides). */
  readonly firstSide: Float64Array;
  /** Per line, when (`life`) it last counted a crossing of it; −∞ never. */
  readonly countedAt: Float64Array;
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
  /** Seconds it had been lost when this frame's blob was matched to it (0: it was not lost). */
  gap = 0;
  /** Per line, the side a crossing held back (holdAfter) was made onto (±1; 0 none); how many lines; its own blobs since. */
  readonly heldSide: Int8Array;
  /**
   * Per line, how many of its own blobs in a row have had their centre past the line, its box not clear of it, away
   * from the side it was last seen clearly on: signed by the side they lay on (0 none; Tracker.#centrePast).
   */
  readonly centreRun: Int16Array;
  held = 0;
  heldSeen = 0;
  /** Average histogram of its own blobs (pixels per bin), from its first blob on; null while blobs carry none. */
  appearance: Float64Array | null = null;
  appearanceSum = 0;

  constructor(
    readonly id: number,
    box: Box,
    blob: number,
    s: TrackerSettings,
  ) {
    const [cx, cy, w, h] = [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2, box[2] - box[0] + 1, box[3] - box[1] + 1];
    // Sizes change slowly: a tenth of the acceleration (KalmanBox).
    this.kf = new KalmanBox([cx, cy, w, h], s.acceleration ** 2, s.measurementNoise ** 2);
    this.blob = blob;
    this.predicted.set(box);
    this.dwell = new Float64Array(s.zones.length).fill(NaN);
    this.lineSide = new Float64Array(LINE_WORDS * s.lines.length);
    this.firstSide = new Float64Array(3 * s.lines.length);
    this.countedAt = new Float64Array(s.lines.length).fill(-Infinity);
    this.heldSide = new Int8Array(s.lines.length);
    this.centreRun = new Int16Array(s.lines.length);
    if (s.trailLength > 0) this.trail.push([cx, cy]);
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
  predict(dt: number): void {
    this.kf.predict(dt);
    this.life += dt;
    this.age++;
    this.blob = -1;
    // Written here rather than through `box` and `diagonalOf`, which also take other kinds of arrays: in V8 the
    // shared, polymorphic calls cost this loop over every track about twice its time (bench/tracker.js).
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
  }

  /**
   * A frame without a measurement of its own (lost, or in a group's blob): the size stays, and the centre goes on at
   * the velocity of its recent observations (the last `observed`, but the newest, once there are `observedEnough`),
   * set when the coasting starts, in the manner of OC-SORT's observation-centric momentum.
   * - Carried on, the size's velocity turns a shrink seen while the object went behind a pillar or out of the frame
   *   into a box of no width within a few frames (x1 < x0 in nearly half of the lost and grouped tracks' frames in
   *   bench/trackEval.js), which no IoU can match again and no overlay can draw.
   * - The filter's velocity follows the last few measurements, and a track often goes unmatched right after its blob
   *   jumped (joining another's, splitting, half hidden): with that velocity, lost tracks spent 7 % of their
   *   frames coasting at over 400 px/s where objects walk at 24–90 px/s (0.7 % with the observations' velocity).
   */
  coast(): void {
    const kf = this.kf;
    kf.setVelocity(2, 0);
    kf.setVelocity(3, 0);
    if (!this.coasting && this.seenCount >= observedEnough) {
      // From the oldest to the one before the newest: the blob that came last before the track went unmatched was
      // often already joining another or half hidden.
      const n = this.seenCount - 1;
      const oldest = (this.seenNext + observed - this.seenCount) % observed;
      kf.setVelocity(0, this.#observedSpeed(0, oldest, n));
      kf.setVelocity(1, this.#observedSpeed(1, oldest, n));
    }
    this.coasting = true;
  }

  /**
   * Speed on an axis over `n` observations from ring entry `from` on: the median of the slopes between every two of
   * them (Theil and Sen's estimator), which a few blobs that jumped (a shadow or another object joining, a split, a
   * frame of noise) do not move. The slope from the oldest observation to the one before the newest, taken before,
   * followed such jumps: on the sixteen seeds of bench/trackEval.js, the tracks that came out of a group on another
   * object than the one they went in on had coasted at a velocity off by a third of the object's speed (median; those
   * that came out on their own, a tenth). Over the last 30 observations (a second at 30 frames/s) rather than 10: ID
   * switches 1344 → 1198, IDF1 0.539 → 0.569 (street scenes 593 → 510, 0.652 → 0.661; their MOTA 0.528 → 0.516, lost
   * tracks coasting on behind pillars into other objects' groups; BENCHMARKS.md).
   * A box cut by the frame's border on one side of the axis (an object coming into view or leaving it) has its
   * centre moving at half the object's speed, or less; its other edge moves with the object, so that edge is followed
   * where any of the observations is cut. Every object walks in through a border, and a track that joins a group or is
   * lost soon after would otherwise coast at half speed, fall behind its object and lose it (2042 → 2010 ID switches).
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

  /** Folds in its own blob's box; `border` says which of its edges lie on the frame's border (bits x0, y0, x1, y1). */
  measure(box: Box, border: number): void {
    const kf = this.kf;
    this.seenTime[this.seenNext] = this.life;
    // Four stores: TypedArray.set from an array takes V8's generic path, and this runs for every track every frame.
    const e = 4 * this.seenNext;
    const b = this.seenBox;
    b[e] = box[0];
    b[e + 1] = box[1];
    b[e + 2] = box[2];
    b[e + 3] = box[3];
    // Measured last frame as well (not after coasting), with a few observations to know its size by.
    const known = !this.coasting && this.seenCount >= 3;
    const cutX = (this.cutSide[0] = known ? this.#occluded(0, border, e) : 0) !== 0;
    const cutY = (this.cutSide[1] = known ? this.#occluded(1, border, e) : 0) !== 0;
    const r = this.lastBlob;
    r[0] = box[0];
    r[1] = box[1];
    r[2] = box[2];
    r[3] = box[3];
    this.seenBorder[this.seenNext] = border;
    this.seenNext = (this.seenNext + 1) % observed;
    this.seenCount = Math.min(observed, this.seenCount + 1);
    this.coasting = false;
    kf.update(0, (b[e] + b[e + 2]) / 2);
    kf.update(1, (b[e + 1] + b[e + 3]) / 2);
    if (!cutX) kf.update(2, box[2] - box[0] + 1);
    if (!cutY) kf.update(3, box[3] - box[1] + 1);
  }

  /**
   * Which side of its blob on `axis` something in front of the object cuts, a pillar it walks behind or comes out
   * from (−1 the low edge, 1 the high one, 0 neither): an edge that stands still while the object moves, the other
   * edge moving its way at about its speed (a jump is a blob joining another's), and that edge then for as long as it
   * stays still. Where one is cut, the observation at seenBox entry e becomes the object's box, at the track's size
   * from the edge that is its own. Measured as it is, the visible part's centre moves at half the object's speed or
   * less, its size shrinks to nothing, and a track coming out of the pillar's far side is new: most crossings of a
   * counting line placed at a pillar were missed (bench/trackEval.js, sixteen seeds: line error 23.8 → 19.5 %, IDF1
   * 0.471 → 0.491, ID switches 2010 → 2011, MOTA 0.390 → 0.385).
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
    if (((border >> axis) | (border >> (axis + 2))) & 1) return 0;
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

/** Share of a new track's blob inside another's recent box from which it came apart from that one (inheritSides). */
const splitShare = 0.3;
/**
 * Seconds since the track a new one came apart from counted its crossing of a line within which the new one takes
 * that line's side (inheritSides): only a crossing the two could have made together.
 */
const inheritWithin = 2;

/**
 * A new track made from blob j, a part of which (`splitShare`) lies inside a recent box of a confirmed track with a
 * blob of its own this frame (cameFrom), is an object that came apart from that track's: two objects that came in side
 * by side, or met and walked on together, make one blob under one track, and that track's one count at a line was the
 * only one for both. Such a track takes the other's first sides of the lines as where it was last seen clearly, so that it
 * counts the crossings it made with it once it is seen clearly on their other sides. Sixteen seeds of
 * bench/trackEval.js (counts only; tracks unchanged): line error 17.8 → 16.9 % at the middle line, 15.2 → 13.6 % at a
 * quarter of the width; held-out seeds 17–19: 15.6 → 13.9 % and 14.4 → 11.2 %. A share of 0.1 / 0.5 / 0.75: 16.9 /
 * 17.3 / 17.3 % at the middle line, 13.8 / 13.5 / 13.1 % at the quarter; against the track's predicted box instead of
 * its recent boxes, 17.3 % (the prediction has shrunk to the object it kept one frame after they come apart).
 *
 * Only the lines that track counted a crossing of within the last `inheritWithin` seconds: an object that joined it
 * after its crossing (most of the counts it made that matched no crossing: the other's first side was long behind
 * both) came apart with nothing to count. On the flat scenes this rule was worked out on, its counts were a third wrong
 * but made up for crossings missed elsewhere in the clip; on the street scenes (`--geometry street`, where fewer
 * crossings are merged) they were 40 % wrong and over the truth. Middle line and second line, errors (street scenes
 * eight seeds and held-out 9–12; flat sixteen seeds and held-out 17–19): street 103 / 144 → 88 / 127 and 46 / 74 →
 * 43 / 65; flat 230 / 214 → 237 / 216 and 44 / 37 → 48 / 38 (892 → 862 in all); within 1 / 1.5 / 3 / 4 s: 866 / 865 /
 * 879 / 887; only where it ever counted, 892; never inheriting, 888.
 */
function inheritSides(t: Track, held: readonly Track[], bb: Float64Array, j: number): void {
  for (const u of held) {
    if (u.state !== 'confirmed' || !cameFrom(u, bb, j)) continue;
    for (let k = 0; 3 * k < u.firstSide.length; k++) {
      if (u.firstSide[3 * k] === 0 || u.life - u.countedAt[k] > inheritWithin) continue;
      for (let w = 0; w < 3; w++) t.lineSide[LINE_WORDS * k + w] = t.firstSide[3 * k + w] = u.firstSide[3 * k + w];
    }
    return;
  }
}

/**
 * Seconds lost after which a track found again, and seconds seen within which a new one, holds back a crossing it then
 * counts, until `holdFor` of its own blobs show whether it walks on the way it crossed (Tracker.#settleHeld):
 * - a lost track coasts on at its object's last velocity, and one that had lost its object long before (the object
 *   stopped, or turned behind a pillar) took the blob of another object that came its way, often on the line's other
 *   side, and counted a crossing nobody made. On the street scenes of bench/trackEval.js (`--geometry street`, seeds
 *   1–8), 19 of the 30 counts made by tracks lost 0.6 s or more were wrong (14 of 73 on the flat scenes, where most are
 *   objects that crossed behind a pillar at the line). The eight line figures of trackEval's four seed sets (both
 *   lines): 821 → 809 errors; after 0.3 / 1 s, 811 / 813; over 4 / 15 blobs, 811 / 810; any motion back (no share), 807.
 * - a new track counts from the sides it inherited (inheritSides) or saw in its first frames, and more than half of
 *   the counts of tracks under 10 frames old matched no crossing (90 of 161: the four sets' middle lines and the street
 *   scenes' second lines): pieces of one object that the foreground showed apart (a shadow's edge, noise) inherit its
 *   sides, count its crossing again, and join its blob again (a group member waits) before they have walked on for
 *   `holdFor` blobs. With new tracks held too: 809 → 795, every figure better or the same; tracks seen for under
 *   0.3 s, or 5 / 20 frames, 795 / 795 / 796; only tracks that inherited sides, 799.
 * - a held crossing waits for its `holdFor` blobs through any loss: a track lost again before them, and never found
 *   again, takes it with it. Settled at that loss instead (as before; the velocity then known only from 3 blobs
 *   on), such counts were mostly wrong: matched to the truth crossings by way, time (60 frames) and place (the
 *   crossing object's box touching the track's), 82 % of those settled after fewer than 3 blobs matched none (58 of
 *   71 on the four seed sets' middle lines and the street scenes' second lines). The eight line figures of
 *   bench/trackEval.js's four seed sets (flat 1–16 and 17–19, street 1–8 and 9–12): 773 → 766, the street
 *   scenes 238 → 222 and the flat ones 535 → 544 (their lines count fewer than the truth, and wrong counts made up
 *   for missed ones); crossings not counted and counts given to none (the middle lines, bench/crossingViews.ts)
 *   1174 → 1137, every set better. Waiting only where fewer than 3 blobs were seen: 766 errors too.
 * Tracks and their scores are unchanged (counting only). Such a count comes `holdFor` blobs late.
 */
const holdAfter = 0.6;
/** Whether track t, found again after `holdAfter` lost or seen for less than that, holds back a crossing it shows now. */
const holdsBack = (t: Track) => t.gap >= holdAfter || t.life < holdAfter;
/**
 * Seconds seen within which a group member holds back a crossing it shows by its group's blob lying wholly on a side
 * (Tracker.#countLines), as new tracks do theirs (holdAfter): tracks of fragments that joined an object's group soon
 * after they were made (the street scenes' objects seen as a column of pieces, a frame border cutting one) counted the
 * object's crossing with it. Of such counts by members seen for under 2 s, 32 of 44 matched no truth crossing (the
 * four seed sets' middle lines and the street scenes' second lines; under 1 s, 14 of 18), of those by members owning
 * an edge 22 of 100. Line errors of the four seed sets 766 → 758 (the street scenes 222 → 214, the flat ones even);
 * crossings not counted and counts given to none (middle lines, bench/crossingViews.ts) 1137 → 1119. Under 0.6 / 1 /
 * 2 s: 765 / 763 / 766 errors (1133 / 1124 / 1115); members owning an edge held too (2 s), 790; such counts
 * dropped rather than held (1 / 2 s), 766 / 798.
 */
const wholeHoldUnder = 1.5;
/** Own blobs in a row, and the share of its box's half-extent across the line, for a centre past it (Tracker.#centrePast). */
const centreFor = 20;
const centreClear = 0.25;
/** Own blobs a held crossing waits for (holdAfter). */
const holdFor = 8;
/** Share of its speed a track found again may move back across a line at and still count its crossing (holdAfter). */
const backShare = 0.3;

/** How many of a track's newest own observations cameFrom looks through (of the `observed` it keeps). */
const splitRecent = 10;

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
 * Share of a blob inside the predicted box of a confirmed track with a blob of its own this frame from which the blob
 * is a piece of that track's object (partOfTracked). Sixteen seeds of bench/trackEval.js: 0.5 / 0.75 / 0.9 gave line
 * errors 17.9 / 17.8 / 17.9 % (18.1 % without); held-out seeds 17–19 15.6 / 15.6 / 16.3 % (16.3 %).
 */
const pieceShare = 0.75;

/**
 * Whether blob j (its bounds at bb[4j .. 4j + 4)) is a piece of an object a track already has, not a new object:
 * - at least half of it inside the box of a track an occluder cuts: the rest of that object, seen on the occluder's
 *   other side (sixteen seeds: 2011 → 1959 ID switches, MOTA 0.385 → 0.388);
 * - most of it (`pieceShare`) inside the predicted box of a confirmed track: a piece of the object the foreground
 *   shows apart (noise, a shadow's edge across it). Made a track, such a piece was confirmed within three frames,
 *   followed the object as a second track (in its blob as a group of two once the pieces joined) and counted it a
 *   second time at a line (sixteen seeds: line error 18.1 → 17.8 %, ID switches 1402 → 1374, MOTA 0.402 → 0.404, IDF1
 *   0.532 → 0.531; held out 16.3 → 15.6 %, 274 → 261, 0.351 → 0.354, 0.496 → 0.497).
 * `held`: the tracks matched this frame; `blob` and `box` are scratch of 4 numbers.
 */
function partOfTracked(held: readonly Track[], bb: Float64Array, j: number, blob: Float64Array, box: Float64Array): boolean {
  for (let k = 0; k < 4; k++) blob[k] = bb[4 * j + k];
  for (const t of held) {
    if (t.cutSide[0] !== 0 || t.cutSide[1] !== 0) {
      if (covered(blob, t.box(box), 0) >= 0.5) return true;
    } else if (t.state === 'confirmed' && covered(blob, t.predicted, 0) >= pieceShare) {
      return true;
    }
  }
  return false;
}

/**
 * A group's blob shows the outer edges of the objects in it: on each side, the member whose predicted edge is the
 * outermost, clearly (by a fifth of its size, 3 px at least, over the next member), and near the blob's edge (within
 * half its size), owns that edge; a member owning both edges of an axis (one object taller than the others walking
 * in front of it, say) is measured on that axis, the rest coast on their prediction. Measuring single edges too (at
 * the predicted size) scored worse in bench/trackEval.js: more identity switches (162 against 145, seed 1).
 * `members[0 .. count)` are the group's tracks; `edges` holds at least 4 × count numbers (overwritten).
 */
function measureGroup(members: readonly Track[], count: number, blob: Box, edges: Float64Array): void {
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
    if (bestAt - next < Math.max(3, 0.2 * size) || Math.abs(out * bestAt - blob[side]) > 0.5 * size) continue;
    edges[4 * best + side] = blob[side];
  }
  for (let i = 0; i < count; i++) {
    const x = Number.isNaN(edges[4 * i]) && Number.isNaN(edges[4 * i + 2]) ? 0 : 1;
    const y = Number.isNaN(edges[4 * i + 1]) && Number.isNaN(edges[4 * i + 3]) ? 0 : 2;
    members[i].ownsEdges = x | y;
    members[i].measureEdges(0, edges[4 * i], edges[4 * i + 2]);
    members[i].measureEdges(1, edges[4 * i + 1], edges[4 * i + 3]);
  }
}

/** Appends track t's centre to its trail (from its second frame on), trimmed now and then rather than shifted every frame. */
function extendTrail(t: Track, trailLength: number): void {
  if (t.age > 1) t.trail.push([t.kf.p(0), t.kf.p(1)]);
  if (t.trail.length >= 2 * trailLength) t.trail.splice(0, t.trail.length - trailLength);
}

/** What a frame's results say of track t. */
function trackInfo(t: Track, trailLength: number): TrackInfo {
  return {
    id: t.id,
    state: t.state,
    box: t.box([0, 0, 0, 0]),
    cx: t.kf.p(0),
    cy: t.kf.p(1),
    vx: t.kf.v(0),
    vy: t.kf.v(1),
    blob: t.blob,
    age: t.age,
    unseen: t.unseen,
    merged: t.merged,
    group: t.group,
    // A copy: this frame's trail stays as it is when later frames extend the track's.
    trail: trailLength > 0 ? t.trail.slice(-trailLength) : [],
  };
}

export class Tracker {
  readonly #s: TrackerSettings;
  #tracks: Track[] = [];
  #nextId = 1;
  #lastUs: number | null = null;
  readonly #counts: TrackResults['counts'] = {};
  readonly #countIds: string[];
  /** Per line, this frame's tracks over it not yet counted (TrackResults.onLine): forward, backward. */
  readonly #onLine: Int32Array;
  readonly #lineLength: number[];
  /** Per line, its direction a→b as a unit vector (x, y): along it, and across it turned a quarter. */
  readonly #lineUnit: Float64Array;
  /** Per line, the axis a crossing moves along most (bit 1 x: a line nearer vertical; bit 2 y), as `ownsEdges`. */
  readonly #lineAcross: number[];
  /** The zones' polygons, flat. */
  readonly #polygons: Float64Array[];
  readonly #pairs = new SparsePairs();
  // Work arrays kept from frame to frame (grown, never shrunk): per blob, centres and diagonals, near lists, flags,
  // the tracks covering it, its group's first and last member; per covering pair its track and blob; per track
  // the next member of its group; a group's members and their edges; a matching stage's tracks (later the tracks an
  // occluder cuts) and free blobs; one blob's bounds.
  readonly #grid = new CentreGrid(128);
  #bx: Float64Array = new Float64Array(64);
  #by: Float64Array = new Float64Array(64);
  #diagonal: Float64Array = new Float64Array(64);
  #bounds: Float64Array = new Float64Array(256);
  #near: Int32Array = new Int32Array(64);
  #taken: Uint8Array = new Uint8Array(64);
  #members: Int32Array = new Int32Array(64);
  #column: Int32Array = new Int32Array(64);
  #free: Int32Array = new Int32Array(64);
  #groupHead: Int32Array = new Int32Array(64);
  #groupTail: Int32Array = new Int32Array(64);
  #groupBlobs: Int32Array = new Int32Array(64);
  #coverTrack: Int32Array = new Int32Array(64);
  #coverBlob: Int32Array = new Int32Array(64);
  #nextMember: Int32Array = new Int32Array(64);
  #edges: Float64Array = new Float64Array(64);
  readonly #blob = new Float64Array(4);
  #rowPairs: Int32Array = new Int32Array(64);
  #colPairs: Int32Array = new Int32Array(64);
  #colTotal: Float64Array = new Float64Array(64);
  readonly #group: Track[] = [];
  readonly #stage: Track[] = [];
  /** This frame's largest blob diagonal, width and height (#readBlobs). */
  #maxBlob = 0;
  #maxWidth = 0;
  #maxHeight = 0;

  constructor(settings: TrackerSettings) {
    this.#s = settings;
    for (const l of settings.lines) this.#counts[l.id] = { forward: 0, backward: 0 };
    this.#countIds = Object.keys(this.#counts);
    this.#onLine = new Int32Array(2 * settings.lines.length);
    this.#lineLength = settings.lines.map((l) => Math.hypot(l.b[0] - l.a[0], l.b[1] - l.a[1]));
    this.#lineUnit = Float64Array.from(settings.lines.flatMap((l, k) => [(l.b[0] - l.a[0]) / this.#lineLength[k], (l.b[1] - l.a[1]) / this.#lineLength[k]]));
    this.#lineAcross = settings.lines.map((l) => (Math.abs(l.b[1] - l.a[1]) >= Math.abs(l.b[0] - l.a[0]) ? 1 : 2));
    this.#polygons = settings.zones.map((z) => Float64Array.from(z.polygon.flat()));
  }

  #reserve(blobs: number, tracks: number): void {
    this.#bx = atLeast(this.#bx, blobs);
    this.#by = atLeast(this.#by, blobs);
    this.#diagonal = atLeast(this.#diagonal, blobs);
    this.#bounds = atLeast(this.#bounds, 4 * blobs);
    this.#taken = atLeast(this.#taken, blobs);
    this.#members = atLeast(this.#members, blobs);
    this.#column = atLeast(this.#column, blobs);
    this.#free = atLeast(this.#free, blobs);
    this.#groupHead = atLeast(this.#groupHead, blobs);
    this.#groupTail = atLeast(this.#groupTail, blobs);
    this.#groupBlobs = atLeast(this.#groupBlobs, blobs);
    this.#nextMember = atLeast(this.#nextMember, tracks);
    this.#near = atLeast(this.#near, blobs);
    this.#edges = atLeast(this.#edges, 4 * tracks);
    this.#rowPairs = atLeast(this.#rowPairs, tracks);
    this.#colPairs = atLeast(this.#colPairs, blobs);
    this.#colTotal = atLeast(this.#colTotal, blobs);
  }

  /**
   * Adds the appearance term to the costs of this round's pairs (rows: `stage`'s tracks; columns: the free blobs)
   * whose track is confirmed. Only where the cost can change the matching: a pair alone in its row and its column is
   * a group of its own, which `assignSparse` takes whatever it costs, so its histograms are never compared (most
   * pairs where objects stand apart).
   */
  #addAppearance(look: ArrayLike<number>, stage: readonly Track[], rows: number, cols: number): void {
    const pairs = this.#pairs;
    const rowPairs = this.#rowPairs;
    const colPairs = this.#colPairs;
    const free = this.#free;
    // Each blob's count of pixels (the sum of its histogram), found when first needed.
    const total = this.#colTotal;
    const w = this.#s.appearanceWeight;
    for (let r = 0; r < rows; r++) rowPairs[r] = 0;
    for (let c = 0; c < cols; c++) {
      colPairs[c] = 0;
      total[c] = -1;
    }
    const { rows: pr, cols: pc, costs } = pairs;
    for (let k = 0; k < pairs.length; k++) {
      rowPairs[pr[k]]++;
      colPairs[pc[k]]++;
    }
    for (let k = 0; k < pairs.length; k++) {
      const t = stage[pr[k]];
      const c = pc[k];
      if (t.state === 'tentative' || (rowPairs[pr[k]] === 1 && colPairs[c] === 1)) continue;
      const j = free[c];
      if (total[c] < 0) {
        let sum = 0;
        for (let b = 0; b < bins; b++) sum += look[j * bins + b];
        total[c] = sum;
      }
      costs[k] += w * t.appearanceCost(look, j, total[c]);
    }
  }

  /** Counting lines, for one track after this frame's update. */
  #countLines(t: Track, boxes: readonly Box[], events: TrackEvent[], timeUs: number): void {
    const s = this.#s;
    const cx = t.kf.p(0);
    const cy = t.kf.p(1);
    // Lines: a track counts when it is seen (matched to its own blob) clearly on the other side of the line from
    // where it was last seen clearly on one side, and its way between the two crosses the line's segment. Not
    // while coasting, not from a jitter about the line (see "clearly" below), and a crossing
    // while tentative counts once the track is confirmed. In a group, a member counts where it owns an edge of the
    // group's blob across the line (its estimate there agrees with what is seen): objects that walk together over
    // the line and stay together past the clip's end or a track's loss were not counted before (sixteen seeds:
    // line error 18.8 → 17.7 %; any member counting by its estimate, also 17.7 % but with more counts over the
    // truth, 89 against 68: a member coasting on at the speed of an object that stopped in the group). A member
    // owning no edge across the line is seen on a side where the group's blob lies wholly on that side and its
    // estimate clearly does too: every object in the blob is there, whichever edges are whose (the middle one of
    // three walking over the line together; the eight line figures of trackEval's four seed sets, 862 → 839
    // errors; the blob alone, without the estimate, 847). Otherwise a crossing in a group counts when the object is
    // seen again. A track that comes out of a meeting at the line following the other object counts that object's
    // crossing (lineTurn.ts).
    if (t.blob < 0 && t.state !== 'tentative') {
      for (let k = 0; k < s.lines.length; k++) {
        if (!turnToward(t.lineSide, LINE_WORDS * k + 3)) continue;
        const l = s.lines[k];
        const ux = this.#lineUnit[2 * k];
        const uy = this.#lineUnit[2 * k + 1];
        // Where along the segment the estimate lies, its signed distance across (as below), and half its box's
        // extent across.
        const along = (cx - l.a[0]) * ux + (cy - l.a[1]) * uy;
        const d = side(l, cx, cy) / this.#lineLength[k];
        const reach = this.#halfAcross(t, k);
        const across = t.group >= 0 && boxAcross(l, boxes[t.group]);
        turnCoasting(t.lineSide, LINE_WORDS * k + 3, d, reach, along >= 0 && along <= this.#lineLength[k], across);
      }
    }
    if (t.held > 0) this.#settleHeld(t, events, timeUs);
    if (t.blob < 0 && t.ownsEdges === 0 && t.group < 0) return;
    const seen = t.lineSide;
    for (let k = 0; k < s.lines.length; k++) {
      const l = s.lines[k];
      // A member owning no edge across the line: the side its group's blob lies wholly on, if it does (above).
      let wholly = 0;
      if (t.blob < 0 && (t.ownsEdges & this.#lineAcross[k]) === 0) {
        const g = t.group >= 0 ? boxes[t.group] : undefined;
        if (g === undefined || boxAcross(l, g)) continue;
        wholly = Math.sign(side(l, g[0], g[1]));
        if (wholly === 0) continue;
      }
      const d = side(l, cx, cy) / this.#lineLength[k];
      // Clearly on a side: its box clear of the line (the centre farther from it than half the box's extent
      // across it), and a tenth of its height at least. With a tenth of the height alone, thin fragments of
      // objects stopped at the line flipped sides on a pixel's jitter and counted both ways (sixteen seeds: line
      // error 16.9 → 15.6 %, counts over the truth 130 → 84; BENCHMARKS.md).
      // Or its centre past the line for long enough, its box still across it (#centrePast).
      const half = this.#halfAcross(t, k);
      const least = 0.1 * t.kf.p(3);
      if (Math.abs(d) < Math.max(half, least) && !this.#centrePast(t, k, d, Math.max(centreClear * half, least))) {
        this.#overLine(t, k, d, cx, cy);
        continue;
      }
      t.centreRun[k] = 0;
      const sign = Math.sign(d);
      if (wholly !== 0 && sign !== wholly) continue;
      const was = seen[LINE_WORDS * k];
      if (was === 0 || (t.state === 'tentative' && sign === was)) {
        if (t.firstSide[3 * k] === 0) {
          t.firstSide[3 * k] = sign;
          t.firstSide[3 * k + 1] = cx;
          t.firstSide[3 * k + 2] = cy;
        }
        note(seen, k, sign, cx, cy);
        continue;
      }
      if (t.state === 'tentative' || sign === was) {
        if (t.state === 'tentative') continue;
        note(seen, k, was, cx, cy);
        if (t.blob < 0) continue;
        const ux = this.#lineUnit[2 * k];
        const uy = this.#lineUnit[2 * k + 1];
        // Its speed toward the line: its velocity's part along the line's normal, turned to point at the line.
        const toward = -was * this.#normalSpeed(k, t.kf.v(0), t.kf.v(1));
        // How far its blob's edges farthest from and nearest to the line are: both move away with an object that
        // walks away; the far one stands where the blob only shrinks toward it (a centre moved 5.5 px in 0.9 s by a
        // fading blob beside the line counted a turn on the street clip in Chromium), the near one where it only
        // grows away from the line (lineTurn.ts).
        const b = boxes[t.blob];
        // Its distance on this side is linear in x and y: the farthest corner takes the larger term of each, the
        // nearest the smaller.
        const ex = -was * uy;
        const ey = was * ux;
        const at = was * (l.a[0] * uy - l.a[1] * ux);
        const far = at + Math.max(ex * b[0], ex * b[2]) + Math.max(ey * b[1], ey * b[3]);
        const near = at + Math.min(ex * b[0], ex * b[2]) + Math.min(ey * b[1], ey * b[3]);
        if (turnSeen(seen, LINE_WORDS * k + 3, far, near, toward, t.kf.p(3), t.life)) this.#count(events, t, k, timeUs, d);
        continue;
      }
      turnReset(seen, LINE_WORDS * k + 3);
      const wx = seen[LINE_WORDS * k + 1];
      const wy = seen[LINE_WORDS * k + 2];
      note(seen, k, sign, cx, cy);
      if (!crosses(l, wx, wy, cx, cy)) continue; // went round the line's end
      if (t.blob >= 0 ? holdsBack(t) : wholly !== 0 && t.life < wholeHoldUnder) {
        // Found again after a while, or new, or a young member seen where its group's blob is: held back until its
        // motion says whether the blob is an object walking on over the line (holdAfter, wholeHoldUnder).
        if (t.heldSide[k] === 0) t.held++;
        t.heldSide[k] = sign;
        t.heldSeen = 0;
        continue;
      }
      this.#count(events, t, k, timeUs, d);
    }
  }

  /**
   * Track t on line k, its centre at signed distance `d`, its box not clear of the line: whether it is seen on the
   * side its centre lies on all the same. An object walking along a line at a shallow angle (the street scenes'
   * horizontal line) straddles it with its box for as long as it is in view, and the truth counts it where its
   * centre crosses: seen in `centreFor` of its own blobs in a row with its centre past the line, away from the side
   * it was last seen clearly on (or on none yet), by `past` (a quarter of its box's half-extent across the line, a
   * tenth of its height at least), it is seen on that side. The blobs in a row keep out a blob's centre jittering
   * about the line, and a track's blob made of several objects whose centre moves as one of them leaves it.
   * bench/trackEval.js's replays (line errors, flat scenes' seeds 1–16 middle / second line, street's 1–8): 255 / 208,
   * 67 / 87 → 255 / 208, 67 / 77; 10 / 15 / 30 blobs in a row, the street's second line 79 / 79 / 81; half the
   * half-extent, 82. Seen on a side at once instead wherever the centre lies half the half-extent past the line (any
   * track, no blobs in a row): 266 / 202, 71 / 73, the flat scenes' middle line counting jitter and blobs of several
   * objects.
   */
  #centrePast(t: Track, k: number, d: number, past: number): boolean {
    const sign = Math.sign(d);
    if (t.blob < 0 || t.state !== 'confirmed' || sign === t.lineSide[LINE_WORDS * k] || Math.abs(d) < past) {
      t.centreRun[k] = 0;
      return false;
    }
    const run = t.centreRun[k];
    t.centreRun[k] = Math.sign(run) === sign ? run + sign : sign;
    return Math.abs(t.centreRun[k]) >= centreFor;
  }

  /**
   * Track t on line k, its centre (cx, cy) at signed distance `d`, its box not clear of it: over the line
   * (TrackResults.onLine) where it is confirmed, seen on its own blob, its centre has passed the line from the side it
   * was last seen clearly on, and it would count the crossing once clear, not hold it back (holdAfter: those held back
   * where a stream ends were counted wrong more often than right).
   */
  #overLine(t: Track, k: number, d: number, cx: number, cy: number): void {
    const was = t.lineSide[LINE_WORDS * k];
    if (t.blob < 0 || t.state !== 'confirmed' || was === 0 || d === 0 || Math.sign(d) === was) return;
    if (holdsBack(t)) return;
    if (!crosses(this.#s.lines[k], t.lineSide[LINE_WORDS * k + 1], t.lineSide[LINE_WORDS * k + 2], cx, cy)) return;
    this.#onLine[2 * k + (d > 0 ? 0 : 1)]++;
  }

  /**
   * The crossings track t holds back (holdAfter): counted once it has had `holdFor` blobs of its own since, unless
   * its velocity over those blobs goes back across the line by more than `backShare` of its speed: the blob it was
   * found again on is another object's, walking the other way.
   */
  #settleHeld(t: Track, events: TrackEvent[], timeUs: number): void {
    if (t.blob >= 0) t.heldSeen++;
    if (t.heldSeen < holdFor) return;
    const n = Math.min(t.seenCount, t.heldSeen + 1);
    const vx = t.newestSpeed(0, n);
    const vy = t.newestSpeed(1, n);
    const speed = Math.sqrt(vx * vx + vy * vy);
    t.held = 0;
    for (let k = 0; k < this.#s.lines.length; k++) {
      const sign = t.heldSide[k];
      if (sign === 0) continue;
      t.heldSide[k] = 0;
      // Its velocity across the line, positive onto the side counted.
      const across = sign * this.#normalSpeed(k, vx, vy);
      if (across < -backShare * speed) continue;
      this.#count(events, t, k, timeUs, sign);
    }
  }

  /** A velocity's part along line k's normal, positive toward the side `side` calls positive (the right of a→b). */
  #normalSpeed(k: number, vx: number, vy: number): number {
    return this.#lineUnit[2 * k] * vy - this.#lineUnit[2 * k + 1] * vx;
  }

  /** Half the extent of track t's estimated box across line k (along the line's normal). */
  #halfAcross(t: Track, k: number): number {
    return (Math.abs(this.#lineUnit[2 * k + 1]) * t.kf.p(2) + Math.abs(this.#lineUnit[2 * k]) * t.kf.p(3)) / 2;
  }

  /** A crossing of a line onto the side `d` (signed distance) is on; forward is from the left of a→b to its right. */
  #count(events: TrackEvent[], t: Track, k: number, timeUs: number, d: number): void {
    const direction = d > 0 ? 'forward' : 'backward';
    const line = this.#s.lines[k].id;
    t.countedAt[k] = t.life;
    this.#counts[line][direction]++;
    events.push({ type: 'crossed', id: t.id, timeUs, line, direction });
  }

  /** A covering pair (track i's prediction mostly inside blob j), appended at `at`. */
  #cover(at: number, i: number, j: number): void {
    if (at === this.#coverTrack.length) {
      this.#coverTrack = doubled(this.#coverTrack);
      this.#coverBlob = doubled(this.#coverBlob);
    }
    this.#coverTrack[at] = i;
    this.#coverBlob[at] = j;
  }

  /**
   * Advances every track to this frame and matches them with its blobs; what the frame's result reports.
   * `hists`: the blobs' gray histograms, 16 counts a blob in the boxes' order (`features().histogram`), or none.
   * `frame`: the frame's size, so that boxes cut by its border are known as such (without it, none is).
   *
   * Each phase is a method of its own: in one method of 300 lines V8 optimised the whole late (a branch taken for the
   * first time deoptimised all of it), and a fresh process ran its first thousand frames at four to seven times the
   * steady cost (bench/tracker.js, 50 blobs: medians of 280 against 38 µs a frame on the development machine).
   */
  update(boxes: readonly Box[], timeUs: number, hists?: ArrayLike<number> | null, frame?: FrameSize): TrackResults {
    const s = this.#s;
    const look = hists && s.appearanceWeight > 0 ? hists : null;
    if (look && look.length < bins * boxes.length) throw new RangeError(`Tracker.update: ${boxes.length} boxes need ${bins * boxes.length} histogram counts, got ${look.length}`);
    const dt = this.#lastUs !== null && timeUs > this.#lastUs ? (timeUs - this.#lastUs) / 1e6 : s.frameInterval;
    this.#lastUs = timeUs;
    const events: TrackEvent[] = [];
    const tracks = this.#tracks;
    const nt = tracks.length;
    for (let i = 0; i < nt; i++) tracks[i].predict(dt);
    const n = boxes.length;
    this.#reserve(n, nt);
    this.#readBlobs(boxes);
    this.#formGroups(boxes, tracks);
    // Matching in order of recency, each round against what is left: tracks seen last frame, confirmed ones before
    // tentative ones (DeepSORT's and ByteTrack's order), then lost ones. In one round, a tentative track made last
    // frame from a fragment (a blob split by a gap in the foreground) took the object's whole blob back from its own
    // track where their costs came near, and the track was lost: sixteen seeds, ID switches 1701 → 1613, IDF1
    // 0.508 → 0.519, MOTA 0.390 → 0.397, line error 17.7 → 18.4 %.
    for (let round = 0; round < 3; round++) this.#matchRound(round, boxes, tracks, look, dt, frame);
    // Not kept past the frame: the stage's tracks are referenced only through #tracks.
    this.#stage.length = 0;
    this.#group.length = 0;
    const kept = this.#lifetimes(tracks, events, timeUs, dt);
    this.#newTracks(boxes, tracks, kept, look);
    this.#tracks = kept;
    // Trails, lines, zones: confirmed (and coasting) tracks only.
    if (s.trailLength > 0) for (const t of kept) extendTrail(t, s.trailLength);
    // A method of its own: written in this loop, V8 optimised the steps above worse (bench/tracker.js, development
    // machine: the trails-and-lines phase 9 → 12 µs a frame and the pairs' 21 → 25 µs, with 50 blobs).
    const onLine = this.#onLine;
    onLine.fill(0);
    if (s.lines.length > 0) for (const t of kept) this.#countLines(t, boxes, events, timeUs);
    const zones = this.#zones(kept, events, timeUs, dt);
    const counts: TrackResults['counts'] = {};
    const over: TrackResults['onLine'] = {};
    for (let k = 0; k < this.#countIds.length; k++) {
      const id = this.#countIds[k];
      const c = this.#counts[id];
      counts[id] = { forward: c.forward, backward: c.backward };
      over[id] = { forward: onLine[2 * k], backward: onLine[2 * k + 1] };
    }
    return { tracks: kept.map((t) => trackInfo(t, s.trailLength)), events, counts, onLine: over, zones };
  }

  /** The boxes' bounds, centres and diagonals into the work arrays (the pair tests read them many times), the largest
   * diagonal, width and height, and the centres bucketed: only near pairs are looked at (128 px cells). */
  #readBlobs(boxes: readonly Box[]): void {
    const n = boxes.length;
    const bx = this.#bx;
    const by = this.#by;
    const diagonal = this.#diagonal;
    const bb = this.#bounds;
    let maxBlob = 0;
    let maxWidth = 0;
    let maxHeight = 0;
    for (let j = 0; j < n; j++) {
      const b = boxes[j];
      bb[4 * j] = b[0];
      bb[4 * j + 1] = b[1];
      bb[4 * j + 2] = b[2];
      bb[4 * j + 3] = b[3];
      bx[j] = (b[0] + b[2]) / 2;
      by[j] = (b[1] + b[3]) / 2;
      diagonal[j] = diagonalOf(b);
      maxBlob = Math.max(maxBlob, diagonal[j]);
      maxWidth = Math.max(maxWidth, b[2] - b[0] + 1);
      maxHeight = Math.max(maxHeight, b[3] - b[1] + 1);
    }
    this.#maxBlob = maxBlob;
    this.#maxWidth = maxWidth;
    this.#maxHeight = maxHeight;
    this.#grid.index(bx, by, n);
  }

  /** Groups: a blob holding a good part of the predicted boxes of two or more tracks seen lately is theirs together;
   * such blobs are taken, and each group's members measured on the edges they own (measureGroup). */
  #formGroups(boxes: readonly Box[], tracks: readonly Track[]): void {
    const n = boxes.length;
    const nt = tracks.length;
    const grid = this.#grid;
    const near = this.#near;
    const bb = this.#bounds;
    const taken = this.#taken;
    const members = this.#members;
    // Loops rather than TypedArray fill(), whose call costs more than a frame's few dozen entries.
    for (let j = 0; j < n; j++) {
      taken[j] = 0;
      members[j] = 0;
    }
    let covering = 0;
    for (let i = 0; i < nt; i++) {
      const t = tracks[i];
      if (t.state === 'tentative' || t.unseen > 0.5) continue;
      const p = t.predicted;
      // The blob holding the largest share of the prediction, if that is `groupShare` at least: the track's object is
      // in it. Its share is at most the overlap's share of the prediction's width, so the blob's centre lies within half
      // the blob's width plus (1/2 − groupShare) of the prediction's width from the prediction's centre (on y, heights).
      let best = -1;
      let bestShare = groupShare;
      const reachX = this.#maxWidth / 2 + (0.5 - groupShare) * (p[2] - p[0] + 1);
      const reachY = this.#maxHeight / 2 + (0.5 - groupShare) * (p[3] - p[1] + 1);
      for (let k = 0, found = grid.near((p[0] + p[2]) / 2, (p[1] + p[3]) / 2, reachX, near, reachY); k < found; k++) {
        const j = near[k];
        const share = covered(p, bb, 4 * j);
        if (share < bestShare) continue;
        bestShare = share;
        best = j;
      }
      if (best < 0) continue;
      members[best]++;
      this.#cover(covering++, i, best);
    }
    // Each group's members in the order found, as a list through #nextMember from #groupHead.
    const head = this.#groupHead;
    const tail = this.#groupTail;
    const nextMember = this.#nextMember;
    const groupBlobs = this.#groupBlobs;
    let groups = 0;
    for (let j = 0; j < n; j++) head[j] = -1;
    for (let c = 0; c < covering; c++) {
      const j = this.#coverBlob[c];
      if (members[j] < 2) continue;
      taken[j] = 1;
      const i = this.#coverTrack[c];
      const t = tracks[i];
      t.group = j;
      groups = appendToList(head, tail, nextMember, groupBlobs, groups, j, i);
    }
    const group = this.#group;
    for (let g = 0; g < groups; g++) {
      const j = groupBlobs[g];
      let count = 0;
      for (let i = head[j]; i >= 0; i = nextMember[i]) group[count++] = tracks[i];
      measureGroup(group, count, boxes[j], this.#edges);
    }
  }

  /** One round of matching (0: confirmed tracks seen last frame, 1: tentative ones, 2: lost ones) against the blobs
   * nobody has taken yet: the near pairs' costs, the appearance term, the assignment, and the matched tracks measured. */
  #matchRound(round: number, boxes: readonly Box[], tracks: readonly Track[], look: ArrayLike<number> | null, dt: number, frame: FrameSize | undefined): void {
    const s = this.#s;
    const n = boxes.length;
    const nt = tracks.length;
    const bx = this.#bx;
    const by = this.#by;
    const diagonal = this.#diagonal;
    const bb = this.#bounds;
    const grid = this.#grid;
    const near = this.#near;
    const taken = this.#taken;
    const members = this.#members;
    const column = this.#column;
    const free = this.#free;
    const stage = this.#stage;
    const pairs = this.#pairs;
    const maxBlob = this.#maxBlob;
    const maxWidth = this.#maxWidth;
    const maxHeight = this.#maxHeight;
    const recent = round < 2;
    let rows = 0;
    for (let i = 0; i < nt; i++) {
      const t = tracks[i];
      if (t.group < 0 && (t.unseen > 0 ? 2 : t.state === 'tentative' ? 1 : 0) === round) stage[rows++] = t;
    }
    let cols = 0;
    for (let j = 0; j < n; j++) column[j] = taken[j] ? -1 : ((free[cols] = j), cols++);
    if (rows === 0 || cols === 0) return;
    pairs.clear();
    for (let r = 0; r < rows; r++) {
      const t = stage[r];
      const p = t.predicted;
      const diag = t.predictedDiagonal;
      // The gate widens with the prediction's uncertainty (long-lost tracks may have drifted), by half the track's
      // diagonal at most: the uncertainty's 3σ grows past 200 px within a second unseen at the default acceleration,
      // and a lost track with such a gate takes whatever blob appears anywhere near, often another object coming
      // into view (bench/trackEval.js, sixteen seeds: IDF1 +0.02, ID switches −5 % with the bound).
      const widen = Math.min(3 * t.spread, 0.5 * diag);
      // A track knows where its object is to within its motion: a blob that neither overlaps its prediction nor
      // lies near it is another object, however near the centres (a tall track's diagonal reaches far: one
      // jumped 180 px to a sliver of another object beside a pillar). Near: for a track seen last frame, half
      // the prediction's narrower side plus the frame's move and the prediction's uncertainty (a new track's
      // velocity is unknown, but its uncertainty is large); for a lost one, a whole side plus its move since it
      // was last seen (its object may have sped up behind a pillar) and its uncertainty (sixteen seeds: ID
      // switches 1959 → 1728 for the confirmed tracks seen last frame, → 1701 with the lost ones; line error
      // 20.4 → 19.1 → 18.8 %; with tentative ones too, after the confirmed-first order below, 1613 → 1609 and
      // 18.4 → 18.1 %).
      const nearBox = (recent ? 0.5 * t.narrowSide + t.move(dt) : t.narrowSide + t.move(t.unseen + dt)) + widen;
      const px = (p[0] + p[2]) / 2;
      const py = (p[1] + p[3]) / 2;
      // A blob that overlaps the prediction or lies within nearBox of it has its centre within half of both boxes'
      // widths and nearBox of the prediction's on x (heights on y): most blobs the centre gate lets through are not.
      const halfX = (p[2] - p[0] + 1) / 2 + nearBox;
      const halfY = (p[3] - p[1] + 1) / 2 + nearBox;
      const reachAll = s.gate * Math.max(diag, maxBlob) + widen;
      const found = grid.near(px, py, Math.min(reachAll, halfX + maxWidth / 2), near, Math.min(reachAll, halfY + maxHeight / 2));
      for (let k = 0; k < found; k++) {
        const j = near[k];
        const c = column[j];
        if (c < 0) continue;
        const dx = px - bx[j];
        const dy = py - by[j];
        if (Math.abs(dx) > halfX + (bb[4 * j + 2] - bb[4 * j] + 1) / 2 || Math.abs(dy) > halfY + (bb[4 * j + 3] - bb[4 * j + 1] + 1) / 2) continue;
        const reach = s.gate * Math.max(diag, diagonal[j]) + widen;
        // Farther apart than both half-diagonals together: no overlap, and out of reach if past it. Most listed blobs
        // are clearly past both (squares compared, with a margin for rounding, before a square root is taken).
        const far = Math.max(reach, (diag + diagonal[j]) / 2);
        if (dx * dx + dy * dy > far * far * (1 + 1e-9)) continue;
        const d = Math.sqrt(dx * dx + dy * dy);
        const o = d > (diag + diagonal[j]) / 2 ? 0 : boxIou(p[0], p[1], p[2], p[3], bb[4 * j], bb[4 * j + 1], bb[4 * j + 2], bb[4 * j + 3]);
        if (o === 0 && d > reach) continue;
        if (o === 0 && boxGap(p, bb, 4 * j) > nearBox) continue;
        // A lost track's object looks like it when it comes back (lookApart).
        if (!recent && look && t.lookDistance(look, j) > lookApart) continue;
        pairs.add(r, c, s.iouWeight * (1 - o) + (1 - s.iouWeight) * Math.min(1, d / reach));
      }
    }
    if (look) this.#addAppearance(look, stage, rows, cols);
    const match = assignSparse(pairs, rows, cols);
    for (let r = 0; r < rows; r++) {
      const c = match[r];
      if (c < 0) continue;
      const t = stage[r];
      const j = free[c];
      t.measure(boxes[j], borderOf(boxes[j], frame));
      t.blob = j;
      t.matched = true;
      taken[j] = 1;
      if (look && members[j] <= 1) t.observe(look, j);
    }
  }

  /** States and lifetimes after the matching: the tracks kept (tentative ones unseen once and tracks unseen past
   * `maxUnseen` dropped), with their entered and left events. */
  #lifetimes(tracks: readonly Track[], events: TrackEvent[], timeUs: number, dt: number): Track[] {
    const s = this.#s;
    const kept: Track[] = [];
    for (const t of tracks) {
      if (t.matched) {
        t.gap = t.state === 'lost' ? t.unseen : 0;
        t.hits = t.unseen === 0 || t.state !== 'tentative' ? t.hits + 1 : 1;
        t.unseen = 0;
        t.merged = false;
        if (t.state === 'tentative' && t.hits >= s.minHits) {
          t.state = 'confirmed';
          events.push({ type: 'entered', id: t.id, timeUs });
        } else if (t.state === 'lost') {
          t.state = 'confirmed';
        }
      } else if (t.group >= 0) {
        // Seen, in a group: coasting, alive (measureGroup may have measured an axis it owns; its size stays as is).
        t.coast();
        t.merged = true;
        t.unseen = 0;
      } else {
        if (t.state === 'tentative') continue; // a tentative track unseen once is noise
        t.coast();
        t.unseen += dt;
        t.merged = false;
        t.state = 'lost';
        if (t.unseen > s.maxUnseen) {
          events.push({ type: 'left', id: t.id, timeUs });
          for (const z of t.zonesIn) events.push({ type: 'zoneLeft', id: t.id, timeUs, zone: s.zones[z].id });
          continue;
        }
      }
      kept.push(t);
    }
    return kept;
  }

  /** New tentative tracks, added to `kept`, for the blobs nobody took, but not for a piece of an object a track has
   * (partOfTracked). The tracks matched this frame are listed once a blob is left over (most frames, none is). */
  #newTracks(boxes: readonly Box[], tracks: readonly Track[], kept: Track[], look: ArrayLike<number> | null): void {
    const s = this.#s;
    const taken = this.#taken;
    const bb = this.#bounds;
    const held = this.#stage;
    for (let j = 0; j < boxes.length; j++) {
      if (taken[j]) continue;
      if (held.length === 0) for (const t of tracks) if (t.matched) held.push(t);
      if (partOfTracked(held, bb, j, this.#blob, this.#edges)) continue;
      const t = new Track(this.#nextId++, boxes[j], j, s);
      if (s.lines.length > 0) inheritSides(t, held, bb, j);
      if (look) t.observe(look, j);
      kept.push(t);
    }
    held.length = 0;
  }

  /** Zones: occupancy and dwell times of the confirmed (and coasting) tracks, with their zone events. */
  #zones(kept: readonly Track[], events: TrackEvent[], timeUs: number, dt: number): TrackResults['zones'] {
    const s = this.#s;
    const zones: TrackResults['zones'] = {};
    const occupancy: number[] = [];
    const dwell: number[][] = [];
    for (let k = 0; k < s.zones.length; k++) {
      occupancy.push(0);
      dwell.push([]);
    }
    if (s.zones.length > 0) {
      for (const t of kept) {
        if (t.state === 'tentative') continue;
        const cx = t.kf.p(0);
        const cy = t.kf.p(1);
        for (let k = 0; k < s.zones.length; k++) {
          const z = s.zones[k];
          const now = inside(this.#polygons[k], cx, cy);
          const at = t.zonesIn.indexOf(k);
          if (now && at < 0) {
            events.push({ type: 'zoneEntered', id: t.id, timeUs, zone: z.id });
            t.zonesIn.push(k);
          } else if (!now && at >= 0) {
            events.push({ type: 'zoneLeft', id: t.id, timeUs, zone: z.id });
            t.zonesIn.splice(at, 1);
          }
          if (now) {
            t.dwell[k] = (Number.isNaN(t.dwell[k]) ? 0 : t.dwell[k]) + dt;
            occupancy[k]++;
          }
          if (!Number.isNaN(t.dwell[k])) dwell[k].push(t.id, t.dwell[k]);
        }
      }
    }
    for (let k = 0; k < s.zones.length; k++) zones[s.zones[k].id] = zoneResult(occupancy[k], dwell[k]);
    return zones;
  }
}
