/**
 * What a sink reads back for a frame. Nodes add their keys to `ResultValues` (by declaration merging where they
 * live outside this package) and push a `ReadRequest` with that key onto the frame.
 */
import type { PassTiming } from './Profiler.js';

/** The labeling node's per-frame summary. */
export interface LabelInfo {
  /** Components found (canonical labels run 1..count); 0 unless canonical labels were asked for. */
  count: number;
  /** The last propagation pass changed nothing: the labels are exact. */
  converged: boolean;
  /** Propagation passes that ran (passes after convergence are skipped on the GPU). */
  passes: number;
}

/** The threshold node's per-frame summary. */
export interface ThresholdInfo {
  /** The level used: fixed, or Otsu's; -1 for adaptive thresholds (one level per pixel). */
  level: number;
}

/** A fiducial marker found by `markers()`. */
export interface DetectedMarker {
  id: number;
  /** The dictionary it was read in, as `markerDictionary` names it (`'DICT_4X4_50'`). */
  dictionary: string;
  /**
   * Outer corners of the black border as the marker is printed: top-left, top-right, bottom-right, bottom-left;
   * pixel coordinates with pixel centres at integers (OpenCV's convention).
   */
  corners: [[number, number], [number, number], [number, number], [number, number]];
  /** Quarter turns clockwise from the marker as printed to the marker as seen. */
  rotation: 0 | 1 | 2 | 3;
  /** Bits corrected, and how many more it would have taken to be nearer another marker or orientation. */
  distance: number;
  margin: number;
  /** The largest RMS distance of a side's edge points from its fitted line, in pixels. */
  residual: number;
  /** The smallest distance of a cell's mean gray from the black/white threshold. */
  contrast: number;
}

/** `markers()`'s per-frame result. */
export interface MarkerResults {
  found: DetectedMarker[];
  /** Candidates (quadrilateral-looking components, over all threshold windows) the GPU fitted and read. */
  candidates: number;
  /** Some candidates were not examined: more than `maxCandidates`, or more boundary pixels than `maxPoints`. */
  overflow: boolean;
}

/** A round blob (a retro-reflective dot, a circular marker) found by `dots()`. */
export interface DetectedDot {
  /** The component's canonical label. */
  label: number;
  /** Gray-weighted centre (weights: gray above the component's darkest pixel), pixel centres at integers. */
  x: number;
  y: number;
  area: number;
  /** The ellipse with the pixels' second moments: full axis lengths, major axis angle from +x toward +y. */
  majorAxis: number;
  minorAxis: number;
  orientation: number;
  eccentricity: number;
  /** How far the boundary strays from that ellipse: the spread of its normalised radius (0 for an ellipse). */
  spread: number;
}

/** A tracked object (`track()`), in the frame's pixels. */
export interface TrackInfo {
  /** Stable over the object's life: never reused within a stream. */
  id: number;
  /** tentative: seen fewer than `minHits` frames in a row; confirmed; lost: unseen, coasting on its velocity. */
  state: 'tentative' | 'confirmed' | 'lost';
  /**
   * Estimated box (inclusive pixel bounds, as `features()` gives them) and centre, this frame. While the track is lost
   * or merged the box keeps the size it had when last measured and moves on at the velocity its recent observations
   * showed.
   */
  box: [number, number, number, number];
  cx: number;
  cy: number;
  /** Estimated velocity of the centre, pixels per second. */
  vx: number;
  vy: number;
  /** The detection (index into this frame's `features`) it was matched to, -1 if none (lost, or merged with others). */
  blob: number;
  /**
   * Where `blob` is one of two pieces of its object either side of something fixed in front of it, tracked as one
   * (`track({ joinPieces })`): the other piece (index into `features`); the object's box is the two boxes' union.
   * -1 or absent otherwise.
   */
  piece?: number;
  /**
   * Where something fixed in front of the object cuts its blob (one edge standing still while the other moves): the
   * object's whole box as the track sees it, the blob's moving edge at the track's held size; null otherwise (absent
   * in infos not made by `track()`).
   */
  whole?: [number, number, number, number] | null;
  /** Frames since it was first seen; seconds since it was last seen. */
  age: number;
  unseen: number;
  /** It shares one blob with other tracks this frame (a crossing or a group): coasting, its id kept. */
  merged: boolean;
  /** The blob (index into this frame's `features`) of the group it is in while `merged`, -1 otherwise. */
  group: number;
  /** The other piece of the group's blob, as `piece` is of `blob`; -1 or absent otherwise. */
  groupPiece?: number;
  /** Recent centres, oldest first, up to `trails({ length })`; empty without `trails()` after `track()`. */
  trail: (readonly [number, number])[];
}

/** What happened to tracks this frame. */
export type TrackEvent =
  | { type: 'entered'; id: number; timeUs: number }
  | { type: 'left'; id: number; timeUs: number }
  | { type: 'crossed'; id: number; timeUs: number; line: string; direction: 'forward' | 'backward' }
  | { type: 'zoneEntered' | 'zoneLeft'; id: number; timeUs: number; zone: string };

/** `track()`'s per-frame result: tracks and events; `counts` and `onLine` filled by `countLines()`, `zones` by `zones()`. */
export interface TrackResults {
  /** Tracks alive this frame (tentative, confirmed and lost), by id. */
  tracks: TrackInfo[];
  events: TrackEvent[];
  /** Per counting line: crossings so far, each way (forward: from the line's left to its right, seen from a to b). */
  counts: Record<string, { forward: number; backward: number }>;
  /**
   * Per counting line: confirmed tracks seen this frame with their centre past the line from the side they were last
   * seen clearly on, but their box not yet clear of it, each way; `counts` takes each of them once its box is clear.
   * Where a video ends, these are crossings its last frames show and `counts` never took (`countsAtEnd`).
   */
  onLine: Record<string, { forward: number; backward: number }>;
  /**
   * Per zone: confirmed tracks inside now, and seconds inside so far by track id (this frame's, whenever read; made
   * when first read). A `Map`: a plain object keyed by ids past about a thousand is kept by V8 as a dictionary, six
   * times slower to build.
   */
  zones: Record<string, { occupancy: number; dwell: Map<number, number> }>;
}

/** A marker's pose from `pose()`: the marker's frame (x right, y up, z out of the marker, origin at its centre) in the camera's. */
export interface MarkerPose {
  id: number;
  /** The dictionary it was read in (markers of two dictionaries with one id are two markers). */
  dictionary: string;
  /** Rotation vector and translation as OpenCV's `solvePnP` gives them: X_camera = R X_marker + t, t in the unit of `markerSize`. */
  rvec: [number, number, number];
  tvec: [number, number, number];
  /** The same rotation as a unit quaternion [x, y, z, w] (three.js's order). */
  quaternion: [number, number, number, number];
  /** Root mean square reprojection error of the corners, pixels (undistorted). */
  error: number;
  /** The other pose the square's image allows (IPPE's second solution, refined), and its error. */
  alternative: { rvec: [number, number, number]; tvec: [number, number, number]; error: number };
  /** Both poses fit about as well: the one nearer the previous frame's was kept. */
  ambiguous: boolean;
  /** Seen this frame (false: kept from an earlier frame while it is not yet lost). */
  seen: boolean;
  /** The corners the pose was computed from (smoothed, when smoothing is on), pixels. */
  corners: [[number, number], [number, number], [number, number], [number, number]];
}

/** A board's pose from `pose({ boards })`: the board's frame (as its layout gives its corners) in the camera's. */
export interface BoardPose {
  board: string;
  /** X_camera = R X_board + t, as OpenCV's `estimatePoseBoard` / `solvePnP` give them. */
  rvec: [number, number, number];
  tvec: [number, number, number];
  quaternion: [number, number, number, number];
  /** Root mean square reprojection error over all the corners it came from, pixels (undistorted). */
  error: number;
  /** The best pose of another rotation (the flip) and its error, or null when the seen markers allowed none. */
  alternative: { rvec: [number, number, number]; tvec: [number, number, number]; error: number } | null;
  /** Both poses fit about as well: the one nearer the previous frame's was kept. */
  ambiguous: boolean;
  seen: boolean;
  /** The ids of the board's markers it came from this frame (none when kept unseen). */
  markers: number[];
}

/** A marker (`id`) or a board (`board`) found or lost. */
export type PoseEvent = { type: 'found' | 'lost'; id: number; dictionary: string; board?: undefined; timeUs: number } | { type: 'found' | 'lost'; board: string; id?: undefined; dictionary?: undefined; timeUs: number };

/** `pose()`'s per-frame result. */
export interface PoseResults {
  /** Markers found (seen for `foundAfter` frames in a row) and not lost, by id (then dictionary). */
  markers: MarkerPose[];
  /** Boards found and not lost (with the same hysteresis: a board is seen when any of its markers is), by name. */
  boards: BoardPose[];
  events: PoseEvent[];
}

/** A frame's picture in a GPU texture (flowmark/three's `CameraBackground.capture()`), for a renderer to sample. */
export interface FramePicture {
  readonly texture: GPUTexture;
  readonly width: number;
  readonly height: number;
  readonly seq: number;
}

/**
 * What a frame's result holds, by key. Capabilities add their keys where their types live, by declaration merging, as
 * an operator outside the package does (`features` in src/components/componentFeatures.ts).
 */
export interface ResultValues {
  labeling?: LabelInfo;
  threshold?: ThresholdInfo;
  /** Canonical labels, one per pixel, when the labeling node was asked for them (`readLabels: true`). */
  labels?: Uint32Array;
  /** Fiducial markers from `markers()`. */
  markers?: MarkerResults;
  /** Round blobs from `dots()`, by ascending label. */
  dots?: DetectedDot[];
  /** Tracked objects from `track()` (on the CPU, after `readResults()`). */
  tracks?: TrackResults;
  /** Markers' poses from `pose()` (on the CPU, after `markers()` and `readResults()`). */
  poses?: PoseResults;
  /** The frame's picture on the GPU, from flowmark/three's `CameraBackground.capture()`. */
  picture?: FramePicture;
}

export interface FrameResult extends ResultValues {
  seq: number;
  timeUs: number;
  width: number;
  height: number;
  /** GPU time per pass (empty without `timestamp-query`). */
  timings: PassTiming[];
}
