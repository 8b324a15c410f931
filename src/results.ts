/**
 * What a sink reads back for a frame. Nodes add their keys to `ResultValues` (by declaration merging where they
 * live outside this package) and push a `ReadRequest` with that key onto the frame.
 */
import type { PassTiming } from './Profiler.js';
import type { ComponentFeatures } from './componentFeatures.js';

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

export interface ResultValues {
  labeling?: LabelInfo;
  threshold?: ThresholdInfo;
  /** Canonical labels, one per pixel, when the labeling node was asked for them (`readLabels: true`). */
  labels?: Uint32Array;
  /** Per-component features from `features()`, filtered on the GPU, by ascending label. */
  features?: ComponentFeatures;
}

export interface FrameResult extends ResultValues {
  seq: number;
  timeUs: number;
  width: number;
  height: number;
  /** GPU time per pass (empty without `timestamp-query`). */
  timings: PassTiming[];
}
