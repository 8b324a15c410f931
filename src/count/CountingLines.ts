/**
 * Counting lines after the tracker (countLines()): each confirmed track's crossings of each line, by direction, from
 * where it is seen clearly on a line's sides (lineSides.ts), the turns of tracks that come out of a meeting at a line
 * following each other's objects (lineTurn.ts), the crossings held back until a track's motion says whether to count
 * them, and each frame the tracks over a line not yet counted. Each track's state here is a LineState.
 */
import type { TrackEvent, TrackResults } from '../core/results.js';
import { boxAcross, crosses, LINE_WORDS, note, side } from './lineSides.js';
import { turnCoasting, turnReset, turnSeen, turnToward, turnWatchesBlob } from './lineTurn.js';
import type { Track } from '../track/Track.js';
import { trackFrameOf, withTrackFrame } from '../track/trackFrame.js';
import { NearTracks, nearBlobsFrom, nearTracksFrom } from '../track/NearTracks.js';
import type { CountingLine } from './CountingLine.js';
import { inheritSides } from './inheritSides.js';
import { LineState } from './LineState.js';
import { awayShare, awaySpeed, backShare, centreClear, centreFor, holdAfter, holdFor, wholeHoldUnder } from '../track/tuning.js';

/** Whether track t, found again after `holdAfter` lost or seen for less than that, holds back a crossing it shows now. */
const holdsBack = (t: Track) => t.gap >= holdAfter || t.life < holdAfter;

export class CountingLines {
  readonly #lines: readonly CountingLine[];
  readonly #counts: TrackResults['counts'] = {};
  readonly #countIds: string[];
  /** Per line, this frame's tracks over it not yet counted (TrackResults.onLine): forward, backward. */
  readonly #onLine: Int32Array;
  readonly #lineLength: number[];
  /** Per line, its direction a→b as a unit vector (x, y): along it, and across it turned a quarter. */
  readonly #lineUnit: Float64Array;
  /** Per line, the axis a crossing moves along most (bit 1 x: a line nearer vertical; bit 2 y), as `ownsEdges`. */
  readonly #lineAcross: number[];
  /** Own blobs a held crossing waits for at this stream's frame rate (holdFor). */
  #holdBlobs = holdFor;
  readonly #states = new WeakMap<Track, LineState>();
  /** The tracks a new track may have come apart from (inheritSides), and those near a blob where there are many. */
  readonly #held: Track[] = [];
  readonly #nearTracks = new NearTracks();

  constructor(lines: readonly CountingLine[]) {
    this.#lines = lines;
    for (const l of lines) this.#counts[l.id] = { forward: 0, backward: 0 };
    this.#countIds = Object.keys(this.#counts);
    this.#onLine = new Int32Array(2 * lines.length);
    this.#lineLength = lines.map((l) => Math.hypot(l.b[0] - l.a[0], l.b[1] - l.a[1]));
    this.#lineUnit = Float64Array.from(lines.flatMap((l, k) => [(l.b[0] - l.a[0]) / this.#lineLength[k], (l.b[1] - l.a[1]) / this.#lineLength[k]]));
    this.#lineAcross = lines.map((l) => (Math.abs(l.b[1] - l.a[1]) >= Math.abs(l.b[0] - l.a[0]) ? 1 : 2));
  }

  /**
   * The crossings of the frame `r` came from (track()'s results or another part's): `counts` and `onLine` filled, the
   * crossings added to its events. Throws an `InvalidFrameError` for results track() did not make this frame.
   */
  apply(r: TrackResults): TrackResults {
    const f = trackFrameOf(r, 'countLines');
    const { tracks, bounds: bb, timeUs } = f;
    this.#startFrame(f.rate);
    const events = r.events.slice();
    if (this.#lines.length > 0) {
      if (f.born > 0) this.#bornAll(tracks, f.born, bb);
      for (const t of tracks) {
        let st = this.#states.get(t);
        if (!st) this.#states.set(t, (st = new LineState(this.#lines, bb, 4 * t.blob, false)));
        this.#count(t, st, bb, events, timeUs);
      }
    }
    return withTrackFrame({ ...r, events, counts: this.#countsNow(), onLine: this.#onLineNow() }, f);
  }

  /**
   * The tracks made this frame (the last `born` of `tracks`), from the blobs they hold: their states, and the first
   * sides of a track each came apart from (inheritSides), one of the tracks matched or in a group this frame, looked
   * at through NearTracks where there are many.
   */
  #bornAll(tracks: readonly Track[], born: number, bb: Float64Array): void {
    const first = tracks.length - born;
    const held = this.#held;
    for (let i = 0; i < first; i++) if (tracks[i].matched || tracks[i].group >= 0) held.push(tracks[i]);
    const indexed = held.length >= nearTracksFrom && born >= nearBlobsFrom;
    if (indexed) this.#nearTracks.index(held);
    for (let i = first; i < tracks.length; i++) {
      const t = tracks[i];
      const st = new LineState(this.#lines, bb, 4 * t.blob, true);
      this.#states.set(t, st);
      inheritSides(st, indexed ? this.#nearTracks.near(bb, t.blob) : held, this.#states, bb, t.blob);
    }
    // Not kept past the frame.
    held.length = 0;
  }

  /**
   * A new frame: no track over a line yet. `rate`: the stream's frame rate as a share of 30 frames a second, at most
   * 1 (TrackFrame.rate), by which a held crossing's wait in blobs is scaled (holdFor).
   */
  #startFrame(rate: number): void {
    this.#onLine.fill(0);
    this.#holdBlobs = Math.max(1, Math.round(holdFor * rate));
  }

  /** The counts so far, per line (a copy: later frames do not change it). */
  #countsNow(): TrackResults['counts'] {
    const counts: TrackResults['counts'] = {};
    for (const id of this.#countIds) {
      const c = this.#counts[id];
      counts[id] = { forward: c.forward, backward: c.backward };
    }
    return counts;
  }

  /** This frame's tracks over each line not yet counted (TrackResults.onLine). */
  #onLineNow(): TrackResults['onLine'] {
    const over: TrackResults['onLine'] = {};
    for (let k = 0; k < this.#countIds.length; k++) over[this.#countIds[k]] = { forward: this.#onLine[2 * k], backward: this.#onLine[2 * k + 1] };
    return over;
  }

  /**
   * Counts track t's crossings after this frame's update (its events into `events`); `bb`: the frame's blobs' bounds,
   * four numbers a blob (TrackFrame.bounds).
   */
  #count(t: Track, st: LineState, bb: Float64Array, events: TrackEvent[], timeUs: number): void {
    const lines = this.#lines;
    const cx = t.kf.p(0);
    const cy = t.kf.p(1);
    // Lines: a track counts when it is seen (matched to its own blob) clearly on the other side of the line from
    // where it was last seen clearly on one side, and its way between the two crosses the line's segment. Not
    // while coasting, not from a jitter about the line (see "clearly" below), and a crossing
    // while tentative counts once the track is confirmed. In a group, a member counts where it owns an edge of the
    // group's blob across the line (its estimate there agrees with what is seen), or where the group's blob and its
    // estimate lie wholly on one side (docs/decisions/counting.md#member-counts). Otherwise a crossing in a group
    // counts when the object is seen again. A track that comes out of a meeting at the line following the other
    // object counts that object's crossing (lineTurn.ts).
    if (t.blob < 0 && t.state !== 'tentative') {
      for (let k = 0; k < lines.length; k++) {
        if (!turnToward(st.lineSide, LINE_WORDS * k + 3)) continue;
        const l = lines[k];
        const ux = this.#lineUnit[2 * k];
        const uy = this.#lineUnit[2 * k + 1];
        // Where along the segment the estimate lies, its signed distance across (as below), and half its box's
        // extent across.
        const along = (cx - l.a[0]) * ux + (cy - l.a[1]) * uy;
        const d = side(l, cx, cy) / this.#lineLength[k];
        const reach = this.#halfAcross(t, k);
        const across = t.group >= 0 && boxAcross(l, bb, 4 * t.group);
        turnCoasting(st.lineSide, LINE_WORDS * k + 3, d, reach, along >= 0 && along <= this.#lineLength[k], across);
      }
    }
    if (st.held > 0) this.#settleHeld(t, st, events, timeUs);
    if (t.blob < 0 && t.ownsEdges === 0 && t.group < 0) return;
    const seen = st.lineSide;
    for (let k = 0; k < lines.length; k++) {
      const l = lines[k];
      // A member owning no edge across the line: the side its group's blob lies wholly on, if it does (above).
      let wholly = 0;
      if (t.blob < 0 && (t.ownsEdges & this.#lineAcross[k]) === 0) {
        if (t.group < 0 || boxAcross(l, bb, 4 * t.group)) continue;
        wholly = Math.sign(side(l, bb[4 * t.group], bb[4 * t.group + 1]));
        if (wholly === 0) continue;
      }
      const d = side(l, cx, cy) / this.#lineLength[k];
      // Clearly on a side: its box clear of the line (the centre farther from it than half the box's extent
      // across it), and a tenth of its height at least: with the tenth alone, thin fragments of objects stopped at
      // the line flipped sides on a pixel's jitter (docs/decisions/counting.md#clear-side).
      // Or its centre past the line for long enough, its box still across it (#centrePast).
      const half = this.#halfAcross(t, k);
      const least = 0.1 * t.kf.p(3);
      if (Math.abs(d) < Math.max(half, least) && !this.#centrePast(t, st, k, d, Math.max(centreClear * half, least))) {
        this.#overLine(t, st, k, d, cx, cy);
        continue;
      }
      st.centreRun[k] = 0;
      const sign = Math.sign(d);
      if (wholly !== 0 && sign !== wholly) continue;
      const was = seen[LINE_WORDS * k];
      if (was === 0 || (t.state === 'tentative' && sign === was)) {
        // Its first side, where its first blob lay across the line: held back as a crossing (awayShare), seen where
        // that blob's centre lay on the other side, else made out of sight and told apart by its size (2) until it
        // settles.
        if (was === 0 && st.bornAcross[k] !== 0) {
          const seenCrossing = st.bornAcross[k] - 2 === -sign;
          st.bornAcross[k] = 0;
          if (st.heldSide[k] === 0) st.held++;
          st.heldSide[k] = seenCrossing ? sign : 2 * sign;
          st.heldSeen = 0;
        }
        if (st.firstSide[3 * k] === 0) {
          st.firstSide[3 * k] = sign;
          st.firstSide[3 * k + 1] = cx;
          st.firstSide[3 * k + 2] = cy;
        }
        note(seen, k, sign, cx, cy);
        continue;
      }
      if (t.state === 'tentative' || sign === was) {
        if (t.state === 'tentative') continue;
        note(seen, k, was, cx, cy);
        if (t.blob < 0) continue;
        // Its speed toward the line: its velocity's part along the line's normal, turned to point at the line.
        const toward = -was * this.#normalSpeed(k, t.kf.v(0), t.kf.v(1));
        // How far its blob's edges farthest from and nearest to the line are: both move away with an object that
        // walks away; the far one stands where the blob only shrinks toward it (a centre moved 5.5 px in 0.9 s by a
        // fading blob beside the line counted a turn on the street clip in Chromium), the near one where it only
        // grows away from the line (lineTurn.ts). Only where a turn is being watched (most tracks walk on, watched
        // by none; bench/timing/tracker.js).
        let far = 0;
        let near = 0;
        if (turnWatchesBlob(seen, LINE_WORDS * k + 3)) {
          const ux = this.#lineUnit[2 * k];
          const uy = this.#lineUnit[2 * k + 1];
          const o = 4 * t.blob;
          const [x0, y0, x1, y1] = [bb[o], bb[o + 1], bb[o + 2], bb[o + 3]];
          // Its distance on this side is linear in x and y: the farthest corner takes the larger term of each, the
          // nearest the smaller.
          const ex = -was * uy;
          const ey = was * ux;
          const at = was * (l.a[0] * uy - l.a[1] * ux);
          far = at + Math.max(ex * x0, ex * x1) + Math.max(ey * y0, ey * y1);
          near = at + Math.min(ex * x0, ex * x1) + Math.min(ey * y0, ey * y1);
        }
        if (turnSeen(seen, LINE_WORDS * k + 3, far, near, toward, t.kf.p(3), t.life)) this.#crossed(events, t, st, k, timeUs, d);
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
        if (st.heldSide[k] === 0) st.held++;
        st.heldSide[k] = sign;
        st.heldSeen = 0;
        continue;
      }
      this.#crossed(events, t, st, k, timeUs, d);
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
   * Why, and the replays: docs/decisions/counting.md#centre-run.
   */
  #centrePast(t: Track, st: LineState, k: number, d: number, past: number): boolean {
    const sign = Math.sign(d);
    if (t.blob < 0 || t.state !== 'confirmed' || sign === st.lineSide[LINE_WORDS * k] || Math.abs(d) < past) {
      st.centreRun[k] = 0;
      return false;
    }
    const run = st.centreRun[k];
    st.centreRun[k] = Math.sign(run) === sign ? run + sign : sign;
    return Math.abs(st.centreRun[k]) >= centreFor;
  }

  /**
   * Track t on line k, its centre (cx, cy) at signed distance `d`, its box not clear of it: over the line
   * (TrackResults.onLine) where it is confirmed, seen on its own blob, its centre has passed the line from the side it
   * was last seen clearly on, and it would count the crossing once clear, not hold it back (holdAfter: those held back
   * where a stream ends were counted wrong more often than right).
   */
  #overLine(t: Track, st: LineState, k: number, d: number, cx: number, cy: number): void {
    const was = st.lineSide[LINE_WORDS * k];
    if (t.blob < 0 || t.state !== 'confirmed' || was === 0 || d === 0 || Math.sign(d) === was) return;
    if (holdsBack(t)) return;
    if (!crosses(this.#lines[k], st.lineSide[LINE_WORDS * k + 1], st.lineSide[LINE_WORDS * k + 2], cx, cy)) return;
    this.#onLine[2 * k + (d > 0 ? 0 : 1)]++;
  }

  /**
   * The crossings track t holds back (holdAfter): counted once it has had `holdFor` blobs of its own since, unless
   * its velocity over those blobs goes back across the line by more than `backShare` of its speed: the blob it was
   * found again on is another object's, walking the other way.
   */
  #settleHeld(t: Track, st: LineState, events: TrackEvent[], timeUs: number): void {
    if (t.blob >= 0) st.heldSeen++;
    if (st.heldSeen < this.#holdBlobs) return;
    const n = Math.min(t.seenCount, st.heldSeen + 1);
    const vx = t.newestSpeed(0, n);
    const vy = t.newestSpeed(1, n);
    const speed = Math.sqrt(vx * vx + vy * vy);
    st.held = 0;
    for (let k = 0; k < this.#lines.length; k++) {
      const held = st.heldSide[k];
      if (held === 0) continue;
      st.heldSide[k] = 0;
      const sign = Math.sign(held);
      // Its velocity across the line, positive onto the side counted.
      const across = sign * this.#normalSpeed(k, vx, vy);
      if (across < -backShare * speed) continue;
      // A first side past a first blob across the line (awayShare): walking away from the line.
      if (held !== sign && (across < awayShare * speed || speed < awaySpeed * t.kf.p(3))) continue;
      this.#crossed(events, t, st, k, timeUs, sign);
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
  #crossed(events: TrackEvent[], t: Track, st: LineState, k: number, timeUs: number, d: number): void {
    const direction = d > 0 ? 'forward' : 'backward';
    const line = this.#lines[k].id;
    st.countedAt[k] = t.life;
    this.#counts[line][direction]++;
    events.push({ type: 'crossed', id: t.id, timeUs, line, direction });
  }
}
