/**
 * Markers' poses over a stream, on the CPU: each marker's corners undistorted (CameraModel.ts), smoothed by a One
 * Euro filter (OneEuroFilter.ts), its two IPPE poses refined (ippeSquare.ts), and the pose kept that agrees with the
 * previous frame's where both fit about as well (a far or frontal square flips between them otherwise). Markers are
 * reported once seen `foundAfter` frames in a row and dropped after `lostAfter` frames unseen (their last pose kept
 * meanwhile, `seen: false`), with `found` and `lost` events.
 */
import type { DetectedMarker, MarkerPose, PoseEvent, PoseResults } from '../results.js';
import { toNormalised, type CameraModel } from './CameraModel.js';
import { ippeSquare } from './ippeSquare.js';
import { OneEuroFilter, type OneEuroSettings } from './OneEuroFilter.js';
import { quaternionFromRotation, rotationBetween, vectorFromRotation, type Mat3 } from './rotation.js';

export interface PoserSettings {
  camera: CameraModel;
  /** The printed side of each marker's outer border (the translations' unit); per id where `sizes` says. */
  markerSize: number;
  sizes: Readonly<Record<number, number>>;
  /** One Euro filter on the corners (pixels); null: none. */
  smoothing: OneEuroSettings | null;
  foundAfter: number;
  lostAfter: number;
  /** The second pose counts as fitting about as well while its error is below ratio × the best's + pixels. */
  ambiguity: { ratio: number; pixels: number };
  /** Seconds between a marker's samples when timestamps do not increase. */
  frameInterval: number;
}

interface MarkerState {
  filter: OneEuroFilter | null;
  /** Frames seen in a row, and frames unseen since. */
  hits: number;
  misses: number;
  found: boolean;
  rotation: Mat3 | null;
  last: MarkerPose | null;
  /** When it was last seen, µs. */
  seenUs: number;
}

const triple = (v: readonly number[]) => [v[0], v[1], v[2]] as [number, number, number];

export class MarkerPoser {
  readonly #s: PoserSettings;
  readonly #states = new Map<number, MarkerState>();

  constructor(settings: PoserSettings) {
    this.#s = settings;
  }

  update(found: readonly DetectedMarker[], timeUs: number): PoseResults {
    const s = this.#s;
    const events: PoseEvent[] = [];
    const seen = new Set<number>();
    for (const m of found) {
      // A second marker with an id already seen this frame has no state of its own: the first one keeps it.
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      let state = this.#states.get(m.id);
      if (!state) {
        state = { filter: s.smoothing ? new OneEuroFilter(8, s.smoothing) : null, hits: 0, misses: 0, found: false, rotation: null, last: null, seenUs: timeUs };
        this.#states.set(m.id, state);
      }
      // After a gap the filter and the flip's memory start again.
      if (state.misses > 0 && !state.found) {
        state.filter?.reset();
        state.rotation = null;
      }
      state.hits = state.misses > 0 ? 1 : state.hits + 1;
      state.misses = 0;
      const flat = m.corners.flat();
      // The filter's step is the time since this marker's last sample (a frame's, unless it was missed).
      const step = timeUs > state.seenUs ? (timeUs - state.seenUs) / 1e6 : s.frameInterval;
      state.seenUs = timeUs;
      const corners = state.filter ? state.filter.filter(flat, step) : flat;
      [state.last, state.rotation] = this.#pose(m.id, corners, state);
      if (!state.found && state.hits >= s.foundAfter) {
        state.found = true;
        events.push({ type: 'found', id: m.id, timeUs });
      }
    }
    const markers: MarkerPose[] = [];
    for (const [id, state] of this.#states) {
      if (!seen.has(id)) {
        state.misses++;
        state.hits = 0;
        if (state.found && state.misses > s.lostAfter) {
          state.found = false;
          events.push({ type: 'lost', id, timeUs });
        }
        if (!state.found) {
          if (state.misses > s.lostAfter) this.#states.delete(id);
          continue;
        }
        markers.push({ ...state.last!, seen: false });
      } else if (state.found) {
        markers.push(state.last!);
      }
    }
    markers.sort((a, b) => a.id - b.id);
    return { markers, events };
  }

  /** The marker's pose and its rotation matrix (the next frame's reference for the flip). */
  #pose(id: number, corners: ArrayLike<number>, state: MarkerState): [MarkerPose, Mat3] {
    const s = this.#s;
    const c = s.camera;
    const image: [number, number][] = [0, 1, 2, 3].map((i) => toNormalised(c, corners[2 * i], corners[2 * i + 1]));
    const [best, other] = ippeSquare(image, s.sizes[id] ?? s.markerSize, [c.fx, c.fy]);
    const ambiguous = other.error < s.ambiguity.ratio * best.error + s.ambiguity.pixels;
    let [kept, alternative] = [best, other];
    if (ambiguous && state.rotation && rotationBetween(state.rotation, other.R) < rotationBetween(state.rotation, best.R)) [kept, alternative] = [other, best];
    const quad = [0, 1, 2, 3].map((i) => [corners[2 * i], corners[2 * i + 1]]) as MarkerPose['corners'];
    const pose: MarkerPose = {
      id,
      rvec: vectorFromRotation(kept.R),
      tvec: triple(kept.t),
      quaternion: quaternionFromRotation(kept.R),
      error: kept.error,
      alternative: { rvec: vectorFromRotation(alternative.R), tvec: triple(alternative.t), error: alternative.error },
      ambiguous,
      seen: true,
      corners: quad,
    };
    return [pose, kept.R];
  }
}
