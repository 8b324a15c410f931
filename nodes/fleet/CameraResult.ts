/**
 * What a fleet writes to its results stream for each frame of each camera: compact (no pixels, no blobs), plain JSON
 * in the entry's `result` field beside `camera` and `seq`.
 */
import type { FrameResult, TrackEvent } from '../../src/core/results.js';
import { seenTracks } from '../track/track.js';

export type LineCounts = Record<string, { forward: number; backward: number }>;

export interface CameraResult {
  camera: string;
  /** 0, 1, 2… per camera over all its runs: no gap and no repeat. */
  seq: number;
  /** The camera's run: 1 for the first worker to take it up, one more each time another (or the same again) does. */
  run: number;
  /** The worker that wrote it. */
  worker: string;
  /** The frame's time: µs since the run's first connection to the camera (fromCameraUrl). */
  timeUs: number;
  /** When the result was written, ms since 1970 (the worker's clock). */
  at: number;
  width: number;
  height: number;
  /** Tracks seen this frame (seenTracks): id (unique within a run) and box, inclusive pixel bounds. */
  tracks: { id: number; box: [number, number, number, number] }[];
  /** Crossings of each counting line since the camera was added, over all its runs. */
  counts: LineCounts;
  /** This frame's track events (entered, left, crossed), ids of this run. */
  events: TrackEvent[];
  /** Frames the camera sent that this run was too busy to take, so far. */
  dropped: number;
}

/** A frame's CameraResult, its line counts added to those of the camera's earlier runs (`base`). */
export function cameraResult(r: FrameResult, head: Pick<CameraResult, 'camera' | 'seq' | 'run' | 'worker' | 'dropped'>, base: LineCounts): CameraResult {
  const counts: LineCounts = {};
  for (const [line, c] of Object.entries(r.tracks!.counts)) {
    const b = base[line] ?? { forward: 0, backward: 0 };
    counts[line] = { forward: b.forward + c.forward, backward: b.backward + c.backward };
  }
  return { ...head, timeUs: r.timeUs, at: Date.now(), width: r.width, height: r.height, tracks: seenTracks(r), counts, events: r.tracks!.events.map((e) => ({ ...e })) };
}

/** A results-stream entry's fields ([k, v, k, v…]) as the CameraResult it carries. */
export function parseCameraResult(fields: readonly unknown[]): CameraResult {
  const i = fields.findIndex((v, k) => k % 2 === 0 && String(v) === 'result');
  if (i < 0) throw new TypeError('parseCameraResult: the entry has no result field');
  return JSON.parse(String(fields[i + 1])) as CameraResult;
}
