/**
 * Pose: each marker's position and orientation in the camera's frame, on the CPU after `markers()` and
 * `readResults()` (src/pose/MarkerPoser.ts): corners undistorted with the camera's model, smoothed by a One Euro
 * filter, IPPE's two poses for a square refined by Gauss–Newton, the flip kept consistent from frame to frame, and
 * markers found and lost with hysteresis; boards (several markers, one pose) from all their markers seen. Adds
 * `result.poses`; `poseEvents()` gives the found / lost events alone.
 *
 * @example
 * fromCamera(ctx).pipe(markers({ dictionary: 'DICT_4X4_50' }), readResults(),
 *   pose({ camera: { fx: 900, fy: 900, cx: 640, cy: 360 }, markerSize: 0.05 }))
 *   .subscribe((r) => r.poses!.markers.forEach((m) => console.log(m.id, m.tvec))); // metres, as markerSize
 *
 * Throws `InvalidOptionError` for bad options; `InvalidFrameError` on the stream for a result without markers.
 */
import { defer, from, map, mergeMap, type OperatorFunction } from 'rxjs';
import type { FrameResult, PoseEvent } from '../../src/core/results.js';
import { InvalidFrameError, InvalidOptionError } from '../../src/core/errors.js';
import { board as checkedBoard, markerSide, type Board } from '../../src/pose/Board.js';
import { cameraModel, type CameraModel, type CameraSpec } from '../../src/pose/CameraModel.js';
import { markerKey, MarkerPoser, type PoseSettings } from '../../src/pose/MarkerPoser.js';
import { defaultOneEuroSettings, type OneEuroSettings } from '../../src/pose/OneEuroFilter.js';
import { checkOptions } from '../../src/core/checkOptions.js';

export interface PoseOptions {
  /** Intrinsics and distortion, e.g. `{ fx, fy, cx, cy, distortion: [k1, k2, p1, p2, k3] }` (readOpenCvCalibration reads OpenCV's files). */
  camera: CameraSpec | CameraModel;
  /** The printed side of the markers' outer black border, in the unit wanted for the translations (metres, say). Optional with `boards`: then only the boards' markers (and `sizes`') get poses. */
  markerSize?: number;
  /** Sides of particular markers by id, where they differ from `markerSize`. */
  sizes?: Record<number, number>;
  /** Boards (`gridBoard()`, `board()`): one pose each from all of its markers seen, in `result.poses.boards`. Their markers' sides come from the boards. */
  boards?: readonly Board[];
  /** One Euro filter on the corners (pixels), or false for none (default `defaultOneEuroSettings`: 0.5 Hz, beta 0.05, 1 Hz). */
  smoothing?: Partial<OneEuroSettings> | false;
  /** Frames in a row a marker must be seen before it is reported and `found` (default 1). */
  foundAfter?: number;
  /** Frames a found marker may go unseen (its last pose reported, `seen: false`) before it is `lost` (default 0). */
  lostAfter?: number;
  /** When both poses fit about as well (the second's error below ratio × the best's + pixels): default 2 and 0.5. */
  ambiguity?: { ratio: number; pixels: number };
}

const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/** `options` validated, over the defaults. */
export function poseSettings(options: PoseOptions): PoseSettings {
  if (!options || typeof options !== 'object') throw new InvalidOptionError('pose: options { camera, markerSize } are required');
  checkOptions('pose', options, ['camera', 'markerSize', 'sizes', 'boards', 'smoothing', 'foundAfter', 'lostAfter', 'ambiguity']);
  const camera = cameraModel(options.camera);
  if (!Array.isArray(options.boards ?? [])) throw new InvalidOptionError('pose: boards must be an array of boards (gridBoard(), board())');
  const boards = (options.boards ?? []).map(checkedBoard);
  if (options.markerSize === undefined ? boards.length === 0 : !positive(options.markerSize)) {
    throw new InvalidOptionError(`pose: markerSize must be a positive number${boards.length ? '' : ' (or give boards)'}, got ${String(options.markerSize)}`);
  }
  if (options.sizes !== undefined && (options.sizes === null || typeof options.sizes !== 'object')) throw new InvalidOptionError('pose: sizes must be an object of id → side');
  const sizes: Record<number, number> = { ...options.sizes };
  for (const [id, side] of Object.entries(sizes)) {
    if (!Number.isInteger(Number(id)) || !positive(side)) throw new InvalidOptionError(`pose: sizes must map integer ids to positive sides, got ${id}: ${String(side)}`);
  }
  // A board's markers are its size; a marker on two boards (of one dictionary, or one of them of any), or of another
  // size in `sizes`, is a mistake.
  const boardSides = new Map<string, number>();
  const onBoard: { id: number; dictionary: string; board: string }[] = [];
  for (const b of boards) {
    if (boards.filter((o) => o.name === b.name).length > 1) throw new InvalidOptionError(`pose: two boards are named '${b.name}'`);
    const dictionary = b.dictionary?.toUpperCase() ?? '';
    for (const m of b.markers) {
      const other = onBoard.find((o) => o.id === m.id && (o.dictionary === dictionary || !o.dictionary || !dictionary));
      if (other) throw new InvalidOptionError(`pose: marker ${m.id} is on boards '${other.board}' and '${b.name}'`);
      onBoard.push({ id: m.id, dictionary, board: b.name });
      const side = markerSide(m);
      if (sizes[m.id] !== undefined && Math.abs(sizes[m.id] - side) > 1e-3 * side) throw new InvalidOptionError(`pose: sizes gives marker ${m.id} side ${sizes[m.id]}, its board '${b.name}' ${side}`);
      boardSides.set(markerKey(dictionary, m.id), side);
    }
  }
  let smoothing: OneEuroSettings | null = null;
  if (options.smoothing !== false) {
    if (options.smoothing !== undefined && (options.smoothing === null || typeof options.smoothing !== 'object')) throw new InvalidOptionError('pose: smoothing must be an object or false');
    smoothing = { ...defaultOneEuroSettings, ...options.smoothing };
    if (!positive(smoothing.minCutoff) || !positive(smoothing.derivativeCutoff) || !(typeof smoothing.beta === 'number' && smoothing.beta >= 0)) {
      throw new InvalidOptionError(`pose: smoothing needs minCutoff and derivativeCutoff > 0 and beta >= 0, got ${JSON.stringify(options.smoothing)}`);
    }
  }
  const foundAfter = options.foundAfter ?? 1;
  const lostAfter = options.lostAfter ?? 0;
  if (!Number.isInteger(foundAfter) || foundAfter < 1) throw new InvalidOptionError(`pose: foundAfter must be an integer >= 1, got ${String(foundAfter)}`);
  if (!Number.isInteger(lostAfter) || lostAfter < 0) throw new InvalidOptionError(`pose: lostAfter must be an integer >= 0, got ${String(lostAfter)}`);
  const ambiguity = options.ambiguity ?? { ratio: 2, pixels: 0.5 };
  if (!ambiguity || !(ambiguity.ratio >= 1) || !(ambiguity.pixels >= 0)) throw new InvalidOptionError(`pose: ambiguity needs ratio >= 1 and pixels >= 0, got ${JSON.stringify(ambiguity)}`);
  return { camera, markerSize: options.markerSize ?? null, sizes, boardSides, boards, smoothing, foundAfter, lostAfter, ambiguity, frameInterval: 1 / 30 };
}

export function pose(options: PoseOptions): OperatorFunction<FrameResult, FrameResult> {
  const s = poseSettings(options);
  return (source) =>
    defer(() => {
      // One poser per subscription: filters and hysteresis belong to one stream.
      const poser = new MarkerPoser(s);
      return source.pipe(
        map((r) => {
          if (!r.markers) throw new InvalidFrameError('pose: the result has no markers; put markers() before readResults()');
          return { ...r, poses: poser.update(r.markers.found, r.timeUs) };
        }),
      );
    });
}

/** The poses' events (found, lost), one by one, in frame order. */
export function poseEvents(): OperatorFunction<FrameResult, PoseEvent> {
  return mergeMap((r) => from(r.poses?.events ?? []));
}
