/**
 * Multi-object tracking over blobs (boxes), frame by frame, in plain TypeScript: a constant-velocity Kalman filter
 * per track (KalmanAxis.ts), assignment by the Hungarian method (assign.ts) on a cost mixing the boxes' overlap
 * (1 − IoU) and their centres' distance, and tentative / confirmed / lost states with set lifetimes, in the manner
 * of SORT (Bewley et al., 2016) with what surveillance footage needs beyond it:
 *
 * - Lost tracks coast on their velocity for `maxUnseen` seconds with a gate that widens with their uncertainty, and
 *   are matched after the tracks seen last frame (DeepSORT's cascade, by recency): an object that passes behind a
 *   pillar keeps its id.
 * - A blob that covers the predicted boxes of several tracks (objects crossing or walking together) is not given to
 *   one of them: they all coast, marked `merged`, and pick their own blobs again when the group splits; a member
 *   that clearly owns both of the blob's edges on an axis is measured on that axis meanwhile (measureGroup).
 * - Counting lines count each confirmed track's crossings, by direction; zones count occupancy and dwell time.
 */
import { assignSparse, SparsePairs } from './assign.js';
import { CentreGrid } from './CentreGrid.js';
import { boxIou } from './boxIou.js';
import { KalmanAxis } from './KalmanAxis.js';
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
  /** Largest distance between a prediction's centre and a blob's, in box diagonals, for a pair to be allowed. */
  gate: number;
  /** Measurement noise of a box edge, pixels (standard deviation). */
  measurementNoise: number;
  /** Acceleration the motion model allows, pixels per second² (standard deviation density). */
  acceleration: number;
  /** Centres kept per track. */
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
  gate: 1.5,
  measurementNoise: 2,
  acceleration: 400,
  trailLength: 60,
  frameInterval: 1 / 30,
  lines: [],
  zones: [],
};

const diagonalOf = (b: Box) => Math.sqrt((b[2] - b[0] + 1) ** 2 + (b[3] - b[1] + 1) ** 2);

/** The part of box p inside box q. */
const covered = (p: Box, q: Box): number => {
  const w = Math.min(p[2], q[2]) - Math.max(p[0], q[0]) + 1;
  const h = Math.min(p[3], q[3]) - Math.max(p[1], q[1]) + 1;
  return w <= 0 || h <= 0 ? 0 : (w * h) / ((p[2] - p[0] + 1) * (p[3] - p[1] + 1));
};

/** Which side of the line a point is on: > 0 on the right of a→b as seen on screen (image y grows downward). */
const side = (l: CountingLine, x: number, y: number) => (l.b[0] - l.a[0]) * (y - l.a[1]) - (l.b[1] - l.a[1]) * (x - l.a[0]);

/** Whether the segments p→q and a→b cross. */
function crosses(l: CountingLine, px: number, py: number, qx: number, qy: number): boolean {
  const s1 = side(l, px, py);
  const s2 = side(l, qx, qy);
  if (s1 === 0 || s2 === 0 || Math.sign(s1) === Math.sign(s2)) return false;
  const t = (ax: number, ay: number) => (qx - px) * (ay - py) - (qy - py) * (ax - px);
  return Math.sign(t(l.a[0], l.a[1])) !== Math.sign(t(l.b[0], l.b[1]));
}

/** Where a track was last seen clearly on one side of line k (Track.lineSide). */
function note(seen: Float64Array, k: number, sign: number, x: number, y: number): void {
  seen[3 * k] = sign;
  seen[3 * k + 1] = x;
  seen[3 * k + 2] = y;
}

function inside(polygon: Zone['polygon'], x: number, y: number): boolean {
  let into = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) into = !into;
  }
  return into;
}

class Track {
  readonly axes: KalmanAxis[];
  state: TrackInfo['state'] = 'tentative';
  hits = 1;
  age = 1;
  unseen = 0;
  merged = false;
  blob: number;
  /** The box predicted for this frame, before any measurement, and its diagonal. */
  predicted: Box;
  predictedDiagonal = 0;
  /** This frame: given a blob of its own; coasting in a group's blob. */
  matched = false;
  grouped = false;
  /** Centres, oldest first; each point is never changed once pushed, so results can share them. */
  trail: (readonly [number, number])[] = [];
  zonesIn = new Set<string>();
  /** Per line (three numbers each): the side it was last seen clearly on (±1, 0 not yet), and where. */
  readonly lineSide: Float64Array;
  dwell = new Map<string, number>();

  constructor(
    readonly id: number,
    box: Box,
    blob: number,
    s: TrackerSettings,
  ) {
    const r = s.measurementNoise ** 2;
    const q = s.acceleration ** 2;
    const [cx, cy, w, h] = [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2, box[2] - box[0] + 1, box[3] - box[1] + 1];
    // Sizes change slowly: a tenth of the acceleration.
    this.axes = [new KalmanAxis(cx, q, r, q), new KalmanAxis(cy, q, r, q), new KalmanAxis(w, q / 100, r, q / 100), new KalmanAxis(h, q / 100, r, q / 100)];
    this.blob = blob;
    this.predicted = box;
    this.lineSide = new Float64Array(3 * s.lines.length);
    this.trail.push([cx, cy]);
  }

  get box(): Box {
    const [x, y, w, h] = this.axes;
    const hw = Math.max(0.5, w.p) / 2;
    const hh = Math.max(0.5, h.p) / 2;
    return [x.p - hw + 0.5, y.p - hh + 0.5, x.p + hw - 0.5, y.p + hh - 0.5];
  }

  /** Position uncertainty of the centre (pixels, one standard deviation). */
  get spread(): number {
    return Math.sqrt(Math.max(this.axes[0].a, this.axes[1].a));
  }

  measure(box: Box): void {
    const z = [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2, box[2] - box[0] + 1, box[3] - box[1] + 1];
    this.axes.forEach((a, i) => a.update(z[i]));
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
    if (size > 1.25 * this.axes[axis + 2].p || size < 0.8 * this.axes[axis + 2].p) return;
    this.axes[axis].update((low + high) / 2);
    this.axes[axis + 2].update(size);
  }
}

/**
 * A group's blob shows the outer edges of the objects in it: on each side, the member whose predicted edge is the
 * outermost, clearly (by a fifth of its size, 3 px at least, over the next member), and near the blob's edge (within
 * half its size), owns that edge; a member owning both edges of an axis (one object taller than the others walking
 * in front of it, say) is measured on that axis, the rest coast on their prediction. Measuring single edges too (at
 * the predicted size) scored worse in bench/trackEval.js: more identity switches (162 against 145, seed 1).
 */
function measureGroup(members: readonly Track[], blob: Box): void {
  const edges = members.map(() => [NaN, NaN, NaN, NaN]);
  for (let side = 0; side < 4; side++) {
    // Sides 0, 1: the low x and y edges (outermost is least); 2, 3: the high ones.
    const out = side < 2 ? -1 : 1;
    const axis = side % 2;
    let best = -1;
    let next = -Infinity;
    let bestAt = -Infinity;
    members.forEach((t, i) => {
      const at = out * t.predicted[side];
      if (at > bestAt) {
        next = bestAt;
        bestAt = at;
        best = i;
      } else if (at > next) {
        next = at;
      }
    });
    const size = members[best].axes[axis + 2].p;
    if (bestAt - next < Math.max(3, 0.2 * size) || Math.abs(out * bestAt - blob[side]) > 0.5 * size) continue;
    edges[best][side] = blob[side];
  }
  members.forEach((t, i) => {
    const [x0, y0, x1, y1] = edges[i];
    t.measureEdges(0, x0, x1);
    t.measureEdges(1, y0, y1);
  });
}

export class Tracker {
  readonly #s: TrackerSettings;
  #tracks: Track[] = [];
  #nextId = 1;
  #lastUs: number | null = null;
  readonly #counts: TrackResults['counts'] = {};
  readonly #lineLength: number[];
  readonly #pairs = new SparsePairs();

  constructor(settings: TrackerSettings) {
    this.#s = settings;
    for (const l of settings.lines) this.#counts[l.id] = { forward: 0, backward: 0 };
    this.#lineLength = settings.lines.map((l) => Math.hypot(l.b[0] - l.a[0], l.b[1] - l.a[1]));
  }

  /** Advances every track to this frame and matches them with its blobs; what the frame's result reports. */
  update(boxes: readonly Box[], timeUs: number): TrackResults {
    const s = this.#s;
    const dt = this.#lastUs !== null && timeUs > this.#lastUs ? (timeUs - this.#lastUs) / 1e6 : s.frameInterval;
    this.#lastUs = timeUs;
    const events: TrackEvent[] = [];
    for (const t of this.#tracks) {
      for (const a of t.axes) a.predict(dt);
      t.age++;
      t.blob = -1;
      t.predicted = t.box;
      t.predictedDiagonal = diagonalOf(t.predicted);
      t.matched = false;
      t.grouped = false;
    }

    // Blobs' centres and diagonals, bucketed: only near pairs are looked at (128 px cells).
    const n = boxes.length;
    const bx = new Float64Array(n);
    const by = new Float64Array(n);
    const diagonal = new Float64Array(n);
    let maxBlob = 0;
    for (let j = 0; j < n; j++) {
      const b = boxes[j];
      bx[j] = (b[0] + b[2]) / 2;
      by[j] = (b[1] + b[3]) / 2;
      diagonal[j] = diagonalOf(b);
      maxBlob = Math.max(maxBlob, diagonal[j]);
    }
    const grid = new CentreGrid(bx, by, 128);
    const near = new Int32Array(n);

    // Groups: a blob covering most of the predicted boxes of two or more tracks seen lately is theirs together.
    const taken = new Uint8Array(n);
    const members = new Int32Array(n);
    const covering: [Track, number][] = [];
    for (const t of this.#tracks) {
      if (t.state === 'tentative' || t.unseen > 0.5) continue;
      const p = t.predicted;
      // Boxes that overlap have centres within half their diagonals' sum.
      for (let k = 0, found = grid.near((p[0] + p[2]) / 2, (p[1] + p[3]) / 2, (t.predictedDiagonal + maxBlob) / 2, near); k < found; k++) {
        const j = near[k];
        if (covered(p, boxes[j]) < 0.5) continue;
        members[j]++;
        covering.push([t, j]);
      }
    }
    const groups = new Map<number, Track[]>();
    for (const [t, j] of covering) {
      if (members[j] < 2) continue;
      taken[j] = 1;
      // A track under two groups' blobs is measured by the first only.
      if (t.grouped) continue;
      t.grouped = true;
      const g = groups.get(j);
      if (g) g.push(t);
      else groups.set(j, [t]);
    }
    for (const [j, g] of groups) measureGroup(g, boxes[j]);

    // Matching in order of recency: tracks seen last frame (and new ones), then lost ones, each against what is left.
    const column = new Int32Array(n);
    const pairs = this.#pairs;
    for (const recent of [true, false]) {
      const stage = this.#tracks.filter((t) => !t.grouped && (t.unseen === 0) === recent);
      const free: number[] = [];
      for (let j = 0; j < n; j++) column[j] = taken[j] ? -1 : free.push(j) - 1;
      if (stage.length === 0 || free.length === 0) continue;
      pairs.clear();
      stage.forEach((t, r) => {
        const p = t.predicted;
        const diag = t.predictedDiagonal;
        // The gate widens with the prediction's uncertainty (long-lost tracks may have drifted).
        const widen = 3 * t.spread;
        const px = (p[0] + p[2]) / 2;
        const py = (p[1] + p[3]) / 2;
        for (let k = 0, found = grid.near(px, py, s.gate * Math.max(diag, maxBlob) + widen, near); k < found; k++) {
          const j = near[k];
          const c = column[j];
          if (c < 0) continue;
          const d = Math.sqrt((px - bx[j]) ** 2 + (py - by[j]) ** 2);
          const reach = s.gate * Math.max(diag, diagonal[j]) + widen;
          // Farther apart than both half-diagonals together: no overlap, and out of reach if past it.
          const b = boxes[j];
          const o = d > (diag + diagonal[j]) / 2 ? 0 : boxIou(p[0], p[1], p[2], p[3], b[0], b[1], b[2], b[3]);
          if (o > 0 || d <= reach) pairs.add(r, c, s.iouWeight * (1 - o) + (1 - s.iouWeight) * Math.min(1, d / reach));
        }
      });
      assignSparse(pairs, stage.length, free.length).forEach((c, r) => {
        if (c < 0) return;
        const t = stage[r];
        const j = free[c];
        t.measure(boxes[j]);
        t.blob = j;
        t.matched = true;
        taken[j] = 1;
      });
    }

    // States and lifetimes.
    const kept: Track[] = [];
    for (const t of this.#tracks) {
      if (t.matched) {
        t.hits = t.unseen === 0 || t.state !== 'tentative' ? t.hits + 1 : 1;
        t.unseen = 0;
        t.merged = false;
        if (t.state === 'tentative' && t.hits >= s.minHits) {
          t.state = 'confirmed';
          events.push({ type: 'entered', id: t.id, timeUs });
        } else if (t.state === 'lost') {
          t.state = 'confirmed';
        }
      } else if (t.grouped) {
        // Seen, in a group: coasting, alive.
        t.merged = true;
        t.unseen = 0;
      } else {
        if (t.state === 'tentative') continue; // a tentative track unseen once is noise
        t.unseen += dt;
        t.merged = false;
        t.state = 'lost';
        if (t.unseen > s.maxUnseen) {
          events.push({ type: 'left', id: t.id, timeUs });
          for (const z of t.zonesIn) events.push({ type: 'zoneLeft', id: t.id, timeUs, zone: z });
          continue;
        }
      }
      kept.push(t);
    }
    // New tentative tracks for the blobs nobody took.
    boxes.forEach((b, j) => {
      if (!taken[j]) kept.push(new Track(this.#nextId++, b, j, s));
    });
    this.#tracks = kept;

    // Trails, lines, zones: confirmed (and coasting) tracks only.
    const zones: TrackResults['zones'] = Object.fromEntries(s.zones.map((z) => [z.id, { occupancy: 0, dwell: {} as Record<number, number> }]));
    for (const t of kept) {
      const [cx, cy] = [t.axes[0].p, t.axes[1].p];
      if (t.age > 1) t.trail.push([cx, cy]);
      // Trimmed now and then, not shifted every frame.
      if (t.trail.length >= 2 * s.trailLength) t.trail.splice(0, t.trail.length - s.trailLength);
      // Lines: a track counts when it is seen (matched to its own blob) clearly on the other side of the line from
      // where it was last seen clearly on one side, and its way between the two crosses the line's segment. Not
      // while coasting or merged (a crossing in a group counts when the object is seen again), not from a jitter
      // about the line (a tenth of the box's height is "clearly"), and a crossing while tentative counts once the
      // track is confirmed.
      if (t.blob < 0) continue;
      const margin = 0.1 * t.axes[3].p;
      const seen = t.lineSide;
      for (let k = 0; k < s.lines.length; k++) {
        const l = s.lines[k];
        const d = side(l, cx, cy) / this.#lineLength[k];
        if (Math.abs(d) < margin) continue;
        const sign = Math.sign(d);
        const was = seen[3 * k];
        if (was === 0 || (t.state === 'tentative' && sign === was)) {
          note(seen, k, sign, cx, cy);
          continue;
        }
        if (t.state === 'tentative' || sign === was) {
          if (t.state !== 'tentative') note(seen, k, was, cx, cy);
          continue;
        }
        const [wx, wy] = [seen[3 * k + 1], seen[3 * k + 2]];
        note(seen, k, sign, cx, cy);
        if (!crosses(l, wx, wy, cx, cy)) continue; // went round the line's end
        // Forward: from the left of a→b to its right.
        const direction = d > 0 ? 'forward' : 'backward';
        this.#counts[l.id][direction]++;
        events.push({ type: 'crossed', id: t.id, timeUs, line: l.id, direction });
      }
    }
    for (const t of kept) {
      if (t.state === 'tentative') continue;
      const [cx, cy] = [t.axes[0].p, t.axes[1].p];
      for (const z of s.zones) {
        const now = inside(z.polygon, cx, cy);
        const was = t.zonesIn.has(z.id);
        if (now && !was) events.push({ type: 'zoneEntered', id: t.id, timeUs, zone: z.id });
        if (!now && was) events.push({ type: 'zoneLeft', id: t.id, timeUs, zone: z.id });
        if (now) {
          t.zonesIn.add(z.id);
          t.dwell.set(z.id, (t.dwell.get(z.id) ?? 0) + dt);
          zones[z.id].occupancy++;
        } else {
          t.zonesIn.delete(z.id);
        }
        if (t.dwell.has(z.id)) zones[z.id].dwell[t.id] = t.dwell.get(z.id)!;
      }
    }
    return {
      tracks: kept.map((t): TrackInfo => {
        const b = t.box;
        return {
          id: t.id,
          state: t.state,
          box: [b[0], b[1], b[2], b[3]],
          cx: t.axes[0].p,
          cy: t.axes[1].p,
          vx: t.axes[0].v,
          vy: t.axes[1].v,
          blob: t.blob,
          age: t.age,
          unseen: t.unseen,
          merged: t.merged,
          trail: t.trail.slice(-s.trailLength),
        };
      }),
      events,
      counts: Object.fromEntries(Object.entries(this.#counts).map(([k, v]) => [k, { ...v }])),
      zones,
    };
  }
}
