/**
 * Markers' poses over a stream, on the CPU: each marker's corners undistorted (CameraModel.ts), smoothed by a One
 * Euro filter (OneEuroFilter.ts), its two IPPE poses refined (ippeSquare.ts), and the pose kept that agrees with the
 * previous frame's where both fit about as well (a far or frontal square flips between them otherwise). Markers are
 * reported once seen `foundAfter` frames in a row and dropped after `lostAfter` frames unseen (their last pose kept
 * meanwhile, `seen: false`), with `found` and `lost` events. Boards get one pose from all their markers seen
 * (boardPose.ts), with the same flip memory and hysteresis. A marker is its dictionary and id: one id in two
 * dictionaries is two markers.
 */
import type { BoardPose, DetectedMarker, MarkerPose, PoseEvent, PoseResults } from '../core/results.js';
import type { Board } from './Board.js';
import { boardPose, type SeenBoardMarker } from './boardPose.js';
import { toNormalised, type CameraModel } from './CameraModel.js';
import { ippeSquare } from './ippeSquare.js';
import type { PoseSolution } from './refinePose.js';
import { OneEuroFilter, type OneEuroSettings } from './OneEuroFilter.js';
import { quaternionFromRotation, rotationBetween, vectorFromRotation, type Mat3 } from './rotation.js';

export interface PoseSettings {
  camera: CameraModel;
  /** The printed side of each marker's outer border (the translations' unit); per id where `sizes` says; null: only markers in `sizes` or on boards get poses. */
  markerSize: number | null;
  sizes: Readonly<Record<number, number>>;
  /** Boards' markers' sides by `markerKey` (a board of no dictionary: the key of dictionary ''). */
  boardSides: ReadonlyMap<string, number>;
  boards: readonly Board[];
  /** One Euro filter on the corners (pixels); null: none. */
  smoothing: OneEuroSettings | null;
  foundAfter: number;
  lostAfter: number;
  /** The second pose counts as fitting about as well while its error is below ratio × the best's + pixels. */
  ambiguity: { ratio: number; pixels: number };
  /** Seconds between a marker's samples when timestamps do not increase. */
  frameInterval: number;
}

/** Found / lost with hysteresis, for a marker or a board. */
interface Presence {
  /** Frames seen in a row, and frames unseen since. */
  hits: number;
  misses: number;
  found: boolean;
  /** The kept pose's rotation: the next frame's reference for the flip (forgotten after a gap). */
  rotation: Mat3 | null;
}

interface MarkerState extends Presence {
  filter: OneEuroFilter | null;
  last: MarkerPose | null;
  /** When it was last seen, µs. */
  seenUs: number;
}

interface BoardState extends Presence {
  last: BoardPose | null;
}

const triple = (v: readonly number[]) => [v[0], v[1], v[2]] as [number, number, number];

/** A marker's key: its dictionary (upper case, as boards and options may spell it otherwise) and id. */
export const markerKey = (dictionary: string, id: number) => `${dictionary.toUpperCase()}\u0000${id}`;

export class MarkerPoser {
  readonly #s: PoseSettings;
  readonly #states = new Map<string, MarkerState>();
  readonly #boardStates = new Map<string, BoardState>();

  constructor(settings: PoseSettings) {
    this.#s = settings;
  }

  update(found: readonly DetectedMarker[], timeUs: number): PoseResults {
    const s = this.#s;
    const events: PoseEvent[] = [];
    // This frame's markers: their corners (normalised) and both their poses, for the boards.
    const seen = new Map<string, { id: number; dictionary: string; image: [number, number][]; poses: PoseSolution[] }>();
    for (const m of found) {
      const key = markerKey(m.dictionary, m.id);
      // A second marker of one dictionary and id this frame has no state of its own: the first one keeps it.
      // A marker of no known size has no pose.
      const side = s.boardSides.get(key) ?? s.boardSides.get(markerKey('', m.id)) ?? s.sizes[m.id] ?? s.markerSize;
      if (seen.has(key) || side === null) continue;
      let state = this.#states.get(key);
      if (!state) {
        state = { filter: s.smoothing ? new OneEuroFilter(8, s.smoothing) : null, hits: 0, misses: 0, found: false, rotation: null, last: null, seenUs: timeUs };
        this.#states.set(key, state);
      }
      // After a gap the filter starts again.
      if (state.misses > 0 && !state.found) state.filter?.reset();
      const flat = m.corners.flat();
      // The filter's step is the time since this marker's last sample (a frame's, unless it was missed).
      const step = timeUs > state.seenUs ? (timeUs - state.seenUs) / 1e6 : s.frameInterval;
      state.seenUs = timeUs;
      const corners = state.filter ? state.filter.filter(flat, step) : flat;
      const image = [0, 1, 2, 3].map((i) => toNormalised(s.camera, corners[2 * i], corners[2 * i + 1]));
      const poses = ippeSquare(image, side, [s.camera.fx, s.camera.fy]);
      seen.set(key, { id: m.id, dictionary: m.dictionary, image, poses });
      const [kept, alternative, ambiguous] = this.#keep(poses[0], poses[1], state);
      state.last = {
        id: m.id,
        dictionary: m.dictionary,
        ...poseFields(kept),
        alternative: alternativeFields(alternative!),
        ambiguous,
        seen: true,
        corners: [0, 1, 2, 3].map((i) => [corners[2 * i], corners[2 * i + 1]]) as MarkerPose['corners'],
      };
      if (seenNow(state, s.foundAfter)) events.push({ type: 'found', id: m.id, dictionary: m.dictionary, timeUs });
    }
    const markers = this.#report(
      this.#states,
      (key) => seen.has(key),
      (_, last) => events.push({ type: 'lost', id: last.id, dictionary: last.dictionary, timeUs }),
    );
    markers.sort((a, b) => a.id - b.id || (a.dictionary < b.dictionary ? -1 : a.dictionary > b.dictionary ? 1 : 0));

    // A board is seen when any of its markers is: of its dictionary, or (a board of none) the first of the id seen.
    const boardsSeen = new Set<string>();
    const seenList = [...seen.values()];
    for (const board of s.boards) {
      const dictionary = board.dictionary?.toUpperCase();
      const parts: SeenBoardMarker[] = board.markers.flatMap((marker) => {
        const m = dictionary === undefined ? seenList.find((x) => x.id === marker.id) : seen.get(markerKey(dictionary, marker.id));
        return m ? [{ marker, image: m.image, poses: m.poses }] : [];
      });
      if (parts.length === 0) continue;
      boardsSeen.add(board.name);
      let state = this.#boardStates.get(board.name);
      if (!state) {
        state = { hits: 0, misses: 0, found: false, rotation: null, last: null };
        this.#boardStates.set(board.name, state);
      }
      const [best, other] = boardPose(parts, [s.camera.fx, s.camera.fy]);
      const [kept, alternative, ambiguous] = this.#keep(best, other, state);
      state.last = { board: board.name, ...poseFields(kept), alternative: alternative && alternativeFields(alternative), ambiguous, seen: true, markers: parts.map((p) => p.marker.id) };
      if (seenNow(state, s.foundAfter)) events.push({ type: 'found', board: board.name, timeUs });
    }
    const boards = this.#report(
      this.#boardStates,
      (name) => boardsSeen.has(name),
      (board) => events.push({ type: 'lost', board, timeUs }),
      (last) => ({ ...last, seen: false, markers: [] }),
    );
    boards.sort((a, b) => (a.board < b.board ? -1 : a.board > b.board ? 1 : 0));
    return { markers, boards, events };
  }

  /**
   * The pose to keep of the best and the other (the flip): the one nearer the previous frame's rotation where both
   * fit about as well. Remembers the kept rotation.
   */
  #keep(best: PoseSolution, other: PoseSolution | null, state: Presence): [PoseSolution, PoseSolution | null, boolean] {
    const { ratio, pixels } = this.#s.ambiguity;
    // After a gap the flip's memory starts again.
    if (state.misses > 0 && !state.found) state.rotation = null;
    const ambiguous = other !== null && other.error < ratio * best.error + pixels;
    let [kept, alternative] = [best, other];
    if (ambiguous && state.rotation && rotationBetween(state.rotation, other.R) < rotationBetween(state.rotation, best.R)) [kept, alternative] = [other, best];
    state.rotation = kept.R;
    return [kept, alternative, ambiguous];
  }

  /**
   * What to report of each marker or board: this frame's pose when seen and found, the last one (`seen: false`) while
   * found and unseen for at most `lostAfter` frames; unseen ones are counted, lost and forgotten.
   */
  #report<K, P extends { seen: boolean }>(states: Map<K, Presence & { last: P | null }>, isSeen: (key: K) => boolean, lost: (key: K, last: P) => void, unseen = (last: P): P => ({ ...last, seen: false })): P[] {
    const reported: P[] = [];
    for (const [key, state] of states) {
      if (isSeen(key)) {
        if (state.found) reported.push(state.last!);
        continue;
      }
      state.misses++;
      state.hits = 0;
      if (state.found && state.misses > this.#s.lostAfter) {
        state.found = false;
        lost(key, state.last!);
      }
      if (!state.found) {
        if (state.misses > this.#s.lostAfter) states.delete(key);
        continue;
      }
      reported.push(unseen(state.last!));
    }
    return reported;
  }
}

/** Counts a frame in which it was seen; true when that makes it found. */
function seenNow(state: Presence, foundAfter: number): boolean {
  state.hits = state.misses > 0 ? 1 : state.hits + 1;
  state.misses = 0;
  if (state.found || state.hits < foundAfter) return false;
  state.found = true;
  return true;
}

function poseFields(p: PoseSolution): { rvec: [number, number, number]; tvec: [number, number, number]; quaternion: [number, number, number, number]; error: number } {
  return { rvec: vectorFromRotation(p.R), tvec: triple(p.t), quaternion: quaternionFromRotation(p.R), error: p.error };
}

function alternativeFields(p: PoseSolution): MarkerPose['alternative'] {
  return { rvec: vectorFromRotation(p.R), tvec: triple(p.t), error: p.error };
}
