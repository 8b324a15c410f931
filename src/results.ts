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

/** A fiducial marker found by `markers()`. */
export interface DetectedMarker {
  id: number;
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

export interface ResultValues {
  labeling?: LabelInfo;
  threshold?: ThresholdInfo;
  /** Canonical labels, one per pixel, when the labeling node was asked for them (`readLabels: true`). */
  labels?: Uint32Array;
  /** Per-component features from `features()`, filtered on the GPU, by ascending label. */
  features?: ComponentFeatures;
  /** Fiducial markers from `markers()`. */
  markers?: MarkerResults;
  /** Round blobs from `dots()`, by ascending label. */
  dots?: DetectedDot[];
}

export interface FrameResult extends ResultValues {
  seq: number;
  timeUs: number;
  width: number;
  height: number;
  /** GPU time per pass (empty without `timestamp-query`). */
  timings: PassTiming[];
}
