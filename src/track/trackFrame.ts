/**
 * What the tracker's parts (counting lines, zones, trails: src/count/, Trails.ts) read of a frame besides its
 * results: the tracks themselves, the blobs' bounds as the tracker saw them (pieces joined, slivers left out), and the
 * frame's time step. Registered per results object, so that an operator after `track()` finds the frame its result
 * came from; valid until the tracker takes its next frame, which a part checks (`trackFrameOf`).
 */
import { InvalidFrameError } from '../core/errors.js';
import type { TrackResults } from '../core/results.js';
import type { Track } from './Track.js';

export interface TrackFrame {
  /** Frames the tracker had taken when it made these results; it is `clock.frames` until the next one. */
  readonly frame: number;
  readonly clock: { readonly frames: number };
  /** The tracks alive, in the results' order; the last `born` of them were made this frame. */
  readonly tracks: readonly Track[];
  readonly born: number;
  /** The blobs' bounds, four numbers a blob, as the tracks' `blob` and `group` index them. */
  readonly bounds: Float64Array;
  readonly timeUs: number;
  /** Seconds since the last frame, and the stream's rate as a share of 30 frames a second, at most 1 (Tracker.ts). */
  readonly dt: number;
  readonly rate: number;
}

const frames = new WeakMap<TrackResults, TrackFrame>();

/** Registers `frame` as the one `results` came from; returns `results`. */
export function withTrackFrame(results: TrackResults, frame: TrackFrame): TrackResults {
  frames.set(results, frame);
  return results;
}

/**
 * The frame `results` came from. Throws an `InvalidFrameError` where they did not come from `track()` or one of its
 * parts, or the tracker has taken another frame since (an operator that holds results back between them).
 */
export function trackFrameOf(results: TrackResults, who: string): TrackFrame {
  const f = frames.get(results);
  if (!f) throw new InvalidFrameError(`${who}: the result's tracks do not come from track(); put ${who}() after track() or another of its parts`);
  if (f.clock.frames !== f.frame) throw new InvalidFrameError(`${who}: track() has moved on to a later frame; put ${who}() right after track(), with nothing that holds results back between them`);
  return f;
}
