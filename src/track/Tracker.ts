/**
 * Multi-object tracking over blobs (boxes), frame by frame, in plain TypeScript: a constant-velocity Kalman filter
 * per track (KalmanBox.ts), assignment by the Hungarian method (assign.ts) on a cost mixing the boxes' overlap
 * (1 − IoU) and their centres' distance, and tentative / confirmed / lost states with set lifetimes, in the manner
 * of SORT (Bewley et al., 2016) with what surveillance footage needs beyond it:
 *
 * - Lost tracks coast for `maxUnseen` seconds at their last size and at the velocity their recent observations show
 *   (the median of the slopes between every two of the last second's: Track.coast), with a gate that widens with their
 *   uncertainty up to half a diagonal, and are matched after the tracks seen last frame (DeepSORT's cascade, by
 *   recency; confirmed tracks before tentative ones): an object that passes behind a pillar keeps its id.
 * - A track takes no blob far from its predicted box (seen last frame: beyond half its narrower side, its move and
 *   its uncertainty; lost: a whole side, its move since last seen and its uncertainty), however near their centres:
 *   its object is where it predicts, to within that.
 * - Two blobs that are one object's pieces either side of something fixed in front of it (their facing edges stand
 *   still while the object moves: a post, a pillar, a railing) are tracked as one, their boxes' union (PieceJoiner.ts,
 *   `joinPieces`).
 * - A blob with one edge standing still while its object moves (a pillar it walks behind or comes out from) measures
 *   the object by its other edge, at the track's size (Track.#occluded); a blob mostly inside such a track's box is
 *   the rest of that object, seen on the pillar's far side, and starts no track.
 * - A blob that holds a good part of the predicted boxes of several tracks, more than any other blob does (objects
 *   crossing or walking together), is not given to one of them: they all coast, marked `merged`, and pick their own
 *   blobs again when the group splits; a member that clearly owns both of the blob's edges on an axis is measured on
 *   that axis meanwhile (measureGroup), and one whose estimate runs out of the blob along its way (its object slowed
 *   or sped up in the group) is drawn slowly back into it (pullIntoGroup). With spatial histograms and `placeByGray`, a
 *   member whose grays the others do not share is measured where they lie in the blob (placeMembers).
 * - With blobs' gray histograms (`features({ histogram: true })`), a confirmed track keeps an average of its own
 *   blobs' histograms, and a pair costs more the less of that histogram the blob holds (Track.appearanceCost): an
 *   appearance cue that tells two objects apart where boxes and motion cannot (after a group splits, a track lost
 *   beside another object). Containment rather than similarity: a group's blob holds each member's histogram. A
 *   lost track takes no blob whose gray levels lie far from its own (lookApart): a light object for a dark one.
 * One track's state is a Track (Track.ts); a group's members are measured by measureGroup.ts, and a blob that is a
 * piece of a tracked object starts no track (partOfTracked.ts). Counting lines, zones and trails are not the
 * tracker's: they read each frame it made after it (trackFrame.ts; src/count/, Trails.ts), and nothing here imports
 * them.
 */
import { assignSparse, SparsePairs } from './assign.js';
import { CentreGrid } from './CentreGrid.js';
import { checkUpdate } from './checkUpdate.js';
import type { FrameSize } from '../core/PerFrame.js';
import { boxIou } from './boxIou.js';
import { covered } from './boxShare.js';
import { measureGroup } from './measureGroup.js';
import { NearTracks, nearBlobsFrom, nearTracksFrom } from './NearTracks.js';
import { partOfTracked } from './partOfTracked.js';
import { PieceJoiner } from './PieceJoiner.js';
import { placeMembers } from './placeMembers.js';
import { pullIntoGroup } from './pullIntoGroup.js';
import { appendToList, atLeast, doubled } from './scratch.js';
import { SizeFloor } from './SizeFloor.js';
import { bins, Track, trackInfo } from './Track.js';
import { withTrackFrame } from './trackFrame.js';
import type { TrackEvent, TrackResults } from '../core/results.js';
import type { Box, TrackSettings } from './TrackSettings.js';
import { groupShare, intervalRate, lookApart, modelRate, nearShare } from './tuning.js';

export { defaultTrackSettings, type Box, type TrackSettings } from './TrackSettings.js';

/** How far box q (its bounds at q[at .. at + 4)) lies from box p: the length of the gap between them, 0 if they touch. */
function boxGap(p: Float64Array, q: Float64Array, at: number): number {
  const gx = Math.max(0, q[at] - p[2], p[0] - q[at + 2]);
  const gy = Math.max(0, q[at + 1] - p[3], p[1] - q[at + 3]);
  return Math.sqrt(gx * gx + gy * gy);
}

/** Which edges of a box (inclusive bounds at bb[at .. at + 4)) lie on the frame's border (bits x0, y0, x1, y1); none without a size. */
function borderOf(bb: Float64Array, at: number, frame: FrameSize | undefined): number {
  if (!frame) return 0;
  return (bb[at] <= 0 ? 1 : 0) | (bb[at + 1] <= 0 ? 2 : 0) | (bb[at + 2] >= frame.width - 1 ? 4 : 0) | (bb[at + 3] >= frame.height - 1 ? 8 : 0);
}

/** Whether box p (inclusive pixel bounds) lies wholly outside the frame. */
function outside(p: Float64Array, frame: FrameSize): boolean {
  return p[2] < 0 || p[3] < 0 || p[0] > frame.width - 1 || p[1] > frame.height - 1;
}

export class Tracker {
  readonly #s: TrackSettings;
  #tracks: Track[] = [];
  #nextId = 1;
  #lastUs: number | null = null;
  /** This frame's spatial histograms' bin places (features.histogramX, Y) where placeByGray uses them, else null. */
  #px: ArrayLike<number> | null = null;
  #py: ArrayLike<number> | null = null;
  /**
   * The stream's frame interval, seconds: an average of the intervals between its frames' timestamps (intervalRate),
   * the first one at first; 0 before two frames with increasing timestamps (the settings' `frameInterval` stands in).
   */
  #interval = 0;
  #frames = 0;
  readonly #pairs = new SparsePairs();
  // Work arrays kept from frame to frame (grown, never shrunk): per blob, centres and diagonals, near lists, flags,
  // the tracks covering it, its group's first and last member; per covering pair its track and blob; per track
  // the next member of its group; a group's members and their edges; a matching stage's tracks (later the tracks an
  // occluder cuts) and free blobs; one blob's bounds.
  readonly #grid = new CentreGrid(128);
  /** The tracks near each leftover blob, where there are many (#newTracks). */
  readonly #nearTracks = new NearTracks();
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

  /** Joins an object's pieces either side of a fixed occluder (settings.joinPieces), else null. */
  readonly #joiner: PieceJoiner | null;
  /** Leaves out blobs too small for the objects tracked (settings.sizeFloor), else null. */
  readonly #floor: SizeFloor | null;

  constructor(settings: TrackSettings) {
    this.#s = settings;
    this.#joiner = settings.joinPieces ? new PieceJoiner() : null;
    this.#floor = settings.sizeFloor > 0 ? new SizeFloor(settings.sizeFloor) : null;
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
   * Throws an `InvalidFrameError` (checkUpdate.ts), the tracker unchanged, for boxes that are not four finite numbers
   * with x0 ≤ x1 and y0 ≤ y1, a time that is not finite, or histograms (or places) too short or not counts.
   *
   * Each phase is a method of its own: in one method of 300 lines V8 optimised the whole late (a branch taken for the
   * first time deoptimised all of it), and a fresh process ran its first thousand frames at four to seven times the
   * steady cost (bench/timing/tracker.js, 50 blobs: medians of 280 against 38 µs a frame on the development machine).
   */
  update(boxes: readonly Box[], timeUs: number, hists?: ArrayLike<number> | null, frame?: FrameSize, placesX?: ArrayLike<number> | null, placesY?: ArrayLike<number> | null): TrackResults {
    const s = this.#s;
    let look = hists && s.appearanceWeight > 0 ? hists : null;
    // The bins' places, where placeByGray uses them (with the histograms).
    const places = look && s.placeByGray && placesX && placesY;
    // Everything given is checked before anything changes: a frame refused leaves the tracker as it was.
    checkUpdate(boxes, timeUs, bins, look, frame, places ? placesX! : null, places ? placesY! : null);
    // 1. Time: the step since the last frame and the stream's rate.
    const timed = this.#lastUs !== null && timeUs > this.#lastUs;
    const dt = timed ? (timeUs - this.#lastUs!) / 1e6 : s.frameInterval;
    if (timed) this.#interval = this.#interval === 0 ? dt : this.#interval + intervalRate * (dt - this.#interval);
    this.#lastUs = timeUs;
    // The process noise as worked out at `modelRate`, scaled down with a slower stream's rate (cubed: the same each
    // frame).
    const interval = this.#interval || s.frameInterval;
    const rate = Math.min(1, 1 / (modelRate * interval));
    const noise = rate * rate * rate;
    // 2. Predict: every track moved to this frame.
    const tracks = this.#tracks;
    const nt = tracks.length;
    for (let i = 0; i < nt; i++) tracks[i].predict(dt, noise);
    // 3. Blob stages. An object's pieces either side of something fixed in front of it, as one blob: the tracker sees
    // the joined list (the histograms it uses summed); the results name the caller's blobs. Spatial places are not
    // joined: placeByGray skips the frame.
    const joined = this.#joiner?.join(boxes, look, bins) ?? null;
    if (joined) [boxes, look] = [joined.boxes, joined.hists];
    // Blobs too small for the objects tracked (SizeFloor: near a larger track, or anywhere under half its floor):
    // left out, as features({ minArea }) would leave them out, after the pieces are joined (a vehicle's piece coming
    // out past a post starts as a sliver).
    const floored = this.#floor?.filter(tracks, boxes, look, places && !joined ? placesX! : null, places && !joined ? placesY! : null) ?? null;
    if (floored) {
      boxes = floored.boxes;
      if (look) look = floored.hists;
      if (places && !joined) [placesX, placesY] = [floored.placesX, floored.placesY];
    }
    const events: TrackEvent[] = [];
    const n = boxes.length;
    this.#reserve(n, nt);
    this.#readBlobs(boxes);
    // The bins' places where placeByGray uses them, but not on a frame with joined pieces (theirs are not joined).
    this.#px = places && !joined ? placesX! : null;
    this.#py = places && !joined ? placesY! : null;
    // 4. Groups: blobs holding several tracks' predictions, taken by all of them together (settings.groups).
    this.#formGroups(n, tracks, this.#px ? look : null);
    // 5. Association rounds in order of recency, each against what is left: tracks seen last frame, confirmed ones
    // before tentative ones (DeepSORT's and ByteTrack's order), then lost ones: in one round, a tentative track made
    // from a fragment took the object's whole blob from its own track (docs/decisions/tracking.md#cascade).
    for (let round = 0; round < 3; round++) this.#matchRound(round, n, tracks, look, dt, frame);
    // Not kept past the frame: the stage's tracks are referenced only through #tracks.
    this.#stage.length = 0;
    this.#group.length = 0;
    // 6. Lifecycle: states and lifetimes, with the entered and left events.
    const kept = this.#lifetimes(tracks, events, timeUs, dt, interval, frame);
    // 7. Births: new tracks for the blobs nobody took.
    const before = kept.length;
    this.#newTracks(n, tracks, kept, look);
    // The frame's arrays are not kept past it.
    this.#px = null;
    this.#py = null;
    this.#tracks = kept;
    // 8. Report, naming the caller's blobs. Counts, zones and trails are the parts' (countLines(), zones(), trails()),
    // which read this frame through withTrackFrame.
    const infos = kept.map(trackInfo);
    if (floored) {
      const { source } = floored;
      for (const k of infos) {
        if (k.blob >= 0) k.blob = source[k.blob];
        if (k.group >= 0) k.group = source[k.group];
      }
    }
    if (joined) {
      const { source, other } = joined;
      for (const k of infos) {
        if (k.blob >= 0) [k.blob, k.piece] = [source[k.blob], other[k.blob]];
        if (k.group >= 0) [k.group, k.groupPiece] = [source[k.group], other[k.group]];
      }
    }
    this.#floor?.settle();
    this.#frames++;
    const results: TrackResults = { tracks: infos, events, counts: {}, onLine: {}, zones: {} };
    return withTrackFrame(results, { frame: this.#frames, clock: this, tracks: kept, born: kept.length - before, bounds: this.#bounds, timeUs, dt, rate });
  }

  /** Frames taken so far. */
  get frames(): number {
    return this.#frames;
  }

  /**
   * The boxes' bounds, centres and diagonals into the work arrays (the pair tests read them many times), the largest
   * diagonal, width and height, and the centres bucketed: only near pairs are looked at (128 px cells). The only
   * place the caller's boxes are read: every later step reads their bounds here (#bounds), so that arrays of
   * another kind (V8's elements kinds: small integers, doubles, holes) do not make each step's optimised code wrong
   * for them and thrown away (bench/timing/tracker.js: a run of frames at several times the cost after each such change).
   */
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
      const [x0, y0, x1, y1] = [b[0], b[1], b[2], b[3]];
      bb[4 * j] = x0;
      bb[4 * j + 1] = y0;
      bb[4 * j + 2] = x1;
      bb[4 * j + 3] = y1;
      bx[j] = (x0 + x1) / 2;
      by[j] = (y0 + y1) / 2;
      const w = x1 - x0 + 1;
      const h = y1 - y0 + 1;
      // Squares as products: `** 2` is a call into pow in V8's optimised code, not a multiply.
      diagonal[j] = Math.sqrt(w * w + h * h);
      maxBlob = Math.max(maxBlob, diagonal[j]);
      maxWidth = Math.max(maxWidth, w);
      maxHeight = Math.max(maxHeight, h);
    }
    this.#maxBlob = maxBlob;
    this.#maxWidth = maxWidth;
    this.#maxHeight = maxHeight;
    this.#grid.index(bx, by, n);
  }

  /** Groups: a blob holding a good part of the predicted boxes of two or more tracks seen lately is theirs together;
   * such blobs are taken, and each group's members measured on the edges they own (measureGroup), and with `look`
   * (the histograms, given where placeByGray has the bins' places) where their grays lie (placeMembers). */
  #formGroups(n: number, tracks: readonly Track[], look: ArrayLike<number> | null): void {
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
    if (!this.#s.groups) return;
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
      measureGroup(group, count, this.#bounds, 4 * j, this.#edges);
      if (look) placeMembers(group, count, j, look, this.#px!, this.#py!, this.#edges);
    }
  }

  /** One round of matching (0: confirmed tracks seen last frame, 1: tentative ones, 2: lost ones) against the blobs
   * nobody has taken yet: the near pairs' costs, the appearance term, the assignment, and the matched tracks measured. */
  #matchRound(round: number, n: number, tracks: readonly Track[], look: ArrayLike<number> | null, dt: number, frame: FrameSize | undefined): void {
    const s = this.#s;
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
      // into view (docs/decisions/tracking.md#gate).
      const widen = Math.min(3 * t.spread, 0.5 * diag);
      // A track knows where its object is to within its motion: a blob that neither overlaps its prediction nor
      // lies near it is another object, however near the centres (a tall track's diagonal reaches far: one
      // jumped 180 px to a sliver of another object beside a pillar). Near: for a track seen last frame, `nearShare`
      // of the prediction's narrower side plus the prediction's uncertainty, and for a tentative one its move this
      // frame too (its velocity is known from a blob or two); for a lost one, a whole side plus its move since it
      // was last seen (its object may have sped up behind a pillar) and its uncertainty
      // (docs/decisions/tracking.md#near-box).
      const nearBox = (recent ? nearShare * t.narrowSide + (t.state === 'tentative' ? t.move(dt) : 0) : t.narrowSide + t.move(t.unseen + dt)) + widen;
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
      t.measure(bb, 4 * j, borderOf(bb, 4 * j, frame));
      t.blob = j;
      t.matched = true;
      taken[j] = 1;
      if (members[j] <= 1 && t.state === 'confirmed') this.#floor?.learn(bb[4 * j], bb[4 * j + 1], bb[4 * j + 2], bb[4 * j + 3]);
      if (look && members[j] <= 1) {
        t.observe(look, j);
        if (this.#px) t.observePlaces(this.#px, this.#py!, j, bb, 4 * j);
      }
    }
  }

  /** States and lifetimes after the matching: the tracks kept (tentative ones unseen once, tracks unseen past
   * `maxUnseen` and lost ones whose estimate has left the frame dropped), with their entered and left events.
   * `interval`: the stream's frame interval, by which a track that starts to coast takes its velocity (Track.coast).
   * `frame`: the frame's size, if known. */
  #lifetimes(tracks: readonly Track[], events: TrackEvent[], timeUs: number, dt: number, interval: number, frame: FrameSize | undefined): Track[] {
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
        // Seen, in a group: coasting, alive (measureGroup may have measured an axis it owns; its size stays as is),
        // drawn back into the group's blob where it runs out of it along its way (pullIntoGroup).
        t.coast(interval);
        if (!t.placed) pullIntoGroup(t, this.#bounds, 4 * t.group, dt);
        t.merged = true;
        t.unseen = 0;
      } else {
        if (t.state === 'tentative') continue; // a tentative track unseen once is noise
        t.coast(interval);
        t.unseen += dt;
        t.merged = false;
        t.state = 'lost';
        // Gone: unseen too long, or walked out of the frame (its estimate wholly past the border, given the frame's
        // size). Left to coast out there for `maxUnseen`, a lost track's gate, which widens with its time unseen,
        // reached the next object to come in through that border and took it under the old id
        // (docs/decisions/tracking.md#out-of-frame).
        if (t.unseen > s.maxUnseen || (frame !== undefined && outside(t.predicted, frame))) {
          events.push({ type: 'left', id: t.id, timeUs });
          continue;
        }
      }
      kept.push(t);
    }
    return kept;
  }

  /** New tentative tracks, added to `kept`, for the blobs nobody took, but not for a piece of an object a track has
   * (partOfTracked). The tracks matched this frame and the groups' members are listed once a blob is left over (most
   * frames, none is). */
  #newTracks(n: number, tracks: readonly Track[], kept: Track[], look: ArrayLike<number> | null): void {
    const s = this.#s;
    const taken = this.#taken;
    const bb = this.#bounds;
    const held = this.#stage;
    let indexed = false;
    let left = 0;
    for (let j = 0; j < n; j++) if (!taken[j]) left++;
    for (let j = 0; j < n; j++) {
      if (taken[j]) continue;
      if (held.length === 0) {
        for (const t of tracks) if (t.matched || t.group >= 0) held.push(t);
        // Many tracks and many blobs left: only the tracks near each blob are looked at (NearTracks), in the same order.
        indexed = held.length >= nearTracksFrom && left >= nearBlobsFrom;
        if (indexed) this.#nearTracks.index(held);
      }
      const near = indexed ? this.#nearTracks.near(bb, j) : held;
      if (partOfTracked(near, bb, j, this.#blob, this.#edges)) continue;
      const t = new Track(this.#nextId++, bb, j, s);
      if (look) {
        t.observe(look, j);
        if (this.#px) t.observePlaces(this.#px, this.#py!, j, bb, 4 * j);
      }
      kept.push(t);
    }
    held.length = 0;
  }
}
