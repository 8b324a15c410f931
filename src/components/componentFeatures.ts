/**
 * Component features as flowmark reports them (struct-of-arrays, by ascending canonical label), the filter that
 * selects them, their exact integer sums, and how the GPU results' decoding (nodes/components/features/) derives the
 * moments from those sums: `setMoments`. The CPU reference (reference/featuresCpu.ts) derives them its own way, so
 * that the two check each other.
 */

declare module '../core/results.js' {
  interface ResultValues {
    /** Per-component features from `features()`, filtered on the GPU, by ascending label. */
    features?: ComponentFeatures;
  }
}

/** Which components `features()` keeps; the same rule on the GPU and in the CPU reference. */
export interface FeatureFilter {
  minArea?: number;
  maxArea?: number;
  /** Bounds on the bounding box's shorter and longer sides. */
  minSide?: number;
  maxSide?: number;
  /** Longest allowed ratio of the box's longer to shorter side. */
  maxAspect?: number;
  /** Drop components whose box touches the frame border. */
  dropBorder?: boolean;
}

/** Features of the components that passed the filter, by ascending canonical label. */
export interface ComponentFeatures {
  /**
   * Components measured, before filtering: every component of the frame, unless `overflow` is set; then only those
   * that fit `maxComponents` (both ways into `features()`; after `label()`, `labeling.count` still has them all).
   */
  count: number;
  /** Components that passed the filter (can exceed `label.length` when `truncated`). */
  passed: number;
  /**
   * The frame held more components (or, without `label()`, more 32×32-tile parts of components) than
   * `maxComponents`: some components were not measured, or only in part.
   */
  overflow: boolean;
  /** More components passed than `maxResults`; the ones returned are an arbitrary subset. */
  truncated: boolean;
  label: Uint32Array;
  area: Uint32Array;
  /** Bounding box, inclusive. */
  x0: Uint32Array;
  y0: Uint32Array;
  x1: Uint32Array;
  y1: Uint32Array;
  /** Mean pixel coordinates. */
  cx: Float64Array;
  cy: Float64Array;
  /** Second-order central moments (divided by area). */
  mu20: Float64Array;
  mu02: Float64Array;
  mu11: Float64Array;
  /** Angle of the major axis in radians, from +x toward +y (image rows grow downward). */
  orientation: Float64Array;
  /** Axis lengths of the ellipse with the same second moments (4·sqrt of the eigenvalues). */
  majorAxis: Float64Array;
  minorAxis: Float64Array;
  eccentricity: Float64Array;
  /** Foreground pixels with a background 4-neighbour or on the frame border. */
  perimeter: Uint32Array;
  meanGray: Float64Array;
  minGray: Uint8Array;
  maxGray: Uint8Array;
  /** 1 when the bounding box touches the frame border. */
  touchesBorder: Uint8Array;
  /**
   * With `features({ histogram: true })`: per component 16 counts of its pixels by gray (bin b: gray 16b to
   * 16b + 15), component i's at 16i … 16i + 15.
   */
  histogram?: Uint32Array;
  /**
   * With `features({ histogram: 'spatial' })`: the mean column and row of each bin's pixels (laid out as
   * `histogram`; NaN where a bin is empty).
   */
  histogramX?: Float64Array;
  histogramY?: Float64Array;
}

/** The exact sums and extremes of one component, as both the GPU record and the CPU reference hold them. */
export interface ComponentSums {
  area: number;
  sx: number;
  sy: number;
  sxx: number;
  syy: number;
  sxy: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  perim: number;
  sg: number;
  gmin: number;
  gmax: number;
}

/**
 * The derived values of component i from its exact sums (n pixels) and its box's corner (x0, y0): centroid, central
 * moments, the equivalent ellipse, mean gray. Written straight into the arrays: the GPU decode runs it for every component of every frame.
 */
export function setMoments(f: ComponentFeatures, i: number, n: number, sx: number, sy: number, sxx: number, syy: number, sxy: number, sg: number, x0: number, y0: number): void {
  const cx = sx / n;
  const cy = sy / n;
  // Central moments from the sums taken about the box's corner (x0, y0): integer arithmetic, exact while the terms
  // stay below 2^53 (frames up to 4096² and more), so that a small component far from the origin keeps its digits
  // (Σx² − Σx·x̄ about the origin cancels most of them away).
  const ax = sx - n * x0;
  const ay = sy - n * y0;
  const axx = sxx - 2 * x0 * sx + n * x0 * x0;
  const ayy = syy - 2 * y0 * sy + n * y0 * y0;
  const axy = sxy - x0 * sy - y0 * sx + n * x0 * y0;
  const mu20 = (axx - (ax * ax) / n) / n;
  const mu02 = (ayy - (ay * ay) / n) / n;
  const mu11 = (axy - (ax * ay) / n) / n;
  const half = (mu20 + mu02) / 2;
  const h = (mu20 - mu02) / 2;
  const d = Math.sqrt(h * h + mu11 * mu11);
  const l1 = half + d;
  const l2 = Math.max(0, half - d);
  f.cx[i] = cx;
  f.cy[i] = cy;
  f.mu20[i] = mu20;
  f.mu02[i] = mu02;
  f.mu11[i] = mu11;
  f.orientation[i] = 0.5 * Math.atan2(2 * mu11, mu20 - mu02);
  f.majorAxis[i] = 4 * Math.sqrt(l1);
  f.minorAxis[i] = 4 * Math.sqrt(l2);
  f.eccentricity[i] = l1 > 0 ? Math.sqrt(1 - l2 / l1) : 0;
  f.meanGray[i] = sg / n;
}

/**
 * Features for n components. Every array is a view into one ArrayBuffer (doubles first, then words, then bytes, so
 * each is aligned): one allocation per frame rather than 24, less for the collector to track.
 */
export function emptyFeatures(n: number, passed = n, truncated = false, count = n, overflow = false): ComponentFeatures {
  const buffer = new ArrayBuffer(n * (10 * 8 + 7 * 4 + 3));
  let at = 0;
  const take = <T>(make: (b: ArrayBuffer, at: number, n: number) => T, bytes: number): T => {
    const view = make(buffer, at, n);
    at += bytes * n;
    return view;
  };
  const f64 = () => take((b, o, k) => new Float64Array(b, o, k), 8);
  const u32 = () => take((b, o, k) => new Uint32Array(b, o, k), 4);
  const u8 = () => take((b, o, k) => new Uint8Array(b, o, k), 1);
  return {
    count,
    passed,
    overflow,
    truncated,
    cx: f64(),
    cy: f64(),
    mu20: f64(),
    mu02: f64(),
    mu11: f64(),
    orientation: f64(),
    majorAxis: f64(),
    minorAxis: f64(),
    eccentricity: f64(),
    meanGray: f64(),
    label: u32(),
    area: u32(),
    x0: u32(),
    y0: u32(),
    x1: u32(),
    y1: u32(),
    perimeter: u32(),
    minGray: u8(),
    maxGray: u8(),
    touchesBorder: u8(),
  };
}
