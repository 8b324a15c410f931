/**
 * Reading a marker from a gray image given its four outer corners, on the CPU: the oracle the GPU decoder will be
 * checked against. The homography from the corners maps each cell of the (n + 2)² grid (border included); each
 * cell is sampled at q×q points away from its edges (bilinear, pixel centres at integers) and averaged. Black and
 * white are measured where they are known: the border's cells and the quiet zone's (the ring of cells just
 * outside); the threshold is their middle. Too little contrast or a border cell that is not black mean no marker. An
 * inner cell too near the middle to be sure of (a lone cell blurred towards its neighbours; Otsu's split of the cells
 * would put such cells on the wrong side), or a grid that explains the cells' means poorly under any blur, is read
 * again with the blur undone (`deblurredGrid`), and then only an exact dictionary match counts; else no marker. The
 * inner bits are decoded by the dictionary, which also gives the marker's turn, so the corners come back in the order
 * the marker was printed.
 */
import { applyHomography, homography } from '../eval/markerScene.js';
import { type Point } from '../markers/centreOf.js';
import { sampleBilinear } from './sampleBilinear.js';
import { normalCdf } from './refineCornersCpu.js';
import { blurGate, blurRatio, blurSigmaGate, cellMargin, cellSamples, deblurMargin, deblurSigmas, deblurStep, deblurSteps, defaultDoubt, defaultMinContrast, fitSigmas, printedOrder } from '../markers/params.js';

/** What decoding needs of a dictionary (`MarkerDictionary` has it; src/ does not import the operators). */
export interface GridDecoder {
  readonly markerSize: number;
  decode(grid: ArrayLike<number>): { id: number; rotation: 0 | 1 | 2 | 3; distance: number; margin: number; dictionary?: string } | null;
}

export interface DecodedMarker {
  id: number;
  /** The dictionary it was read in, where the decoder names it (`anyDictionary`). */
  dictionary?: string;
  /** Quarter turns clockwise from the marker as printed to the corners as given. */
  rotation: 0 | 1 | 2 | 3;
  /** Bits corrected, and the distance to the next candidate less that. */
  distance: number;
  margin: number;
  /** Outer corners as printed: top-left, top-right, bottom-right, bottom-left. */
  corners: [Point, Point, Point, Point];
  /** The black/white threshold (middle of border and quiet zone) and the smallest distance of a cell mean from it (gray levels). */
  threshold: number;
  contrast: number;
  /** The quiet zone's mean less the border's (gray levels). */
  spread: number;
}

export interface DecodeOptions {
  /** Samples per cell side (default 3). */
  samples?: number;
  /** Cell margin left unsampled, as a fraction of the cell (default 0.2). */
  margin?: number;
  /** Least difference between the black border's and the white quiet zone's means, in gray levels (default 20). */
  minContrast?: number;
  /**
   * Inner cells nearer the black/white middle than this share of their difference make the read doubtful: no
   * marker (default `defaultDoubt`).
   */
  doubt?: number;
  /** Read grids that are doubtful, or explain the means poorly, again with the blur undone (default true). */
  deblur?: boolean;
}

/** The marker whose outer corners are `corners` (any starting corner, clockwise as seen), or null. */
export function decodeMarkerCpu(
  gray: ArrayLike<number>,
  width: number,
  height: number,
  corners: Point[],
  dict: GridDecoder,
  options: DecodeOptions = {},
): DecodedMarker | null {
  const n = dict.markerSize;
  const S = n + 2;
  const q = options.samples ?? cellSamples;
  const margin = options.margin ?? cellMargin;
  const h = homography([[0, 0], [S, 0], [S, S], [0, S]], corners);
  const cellMean = (r: number, c: number) => {
    let sum = 0;
    for (let a = 0; a < q; a++) {
      for (let b = 0; b < q; b++) {
        const u = c + margin + ((b + 0.5) / q) * (1 - 2 * margin);
        const v = r + margin + ((a + 0.5) / q) * (1 - 2 * margin);
        sum += sampleBilinear(gray, width, height, ...applyHomography(h, [u, v]));
      }
    }
    return sum / (q * q);
  };
  const means: number[] = [];
  for (let r = 0; r < S; r++) for (let c = 0; c < S; c++) means.push(cellMean(r, c));
  // Black from the border's cells, white from the quiet zone's (the ring of cells just outside the border); `all`
  // keeps every mean, the ring's too, for a second read.
  const ring = (k: number, r: number, c: number) => r === k || c === k || r === S - 1 - k || c === S - 1 - k;
  let black = 0;
  let white = 0;
  const all: number[] = [];
  for (let r = -1; r <= S; r++) {
    for (let c = -1; c <= S; c++) {
      const m = ring(-1, r, c) ? cellMean(r, c) : means[r * S + c];
      all.push(m);
      if (ring(-1, r, c)) white += m / (4 * S + 4);
      else if (ring(0, r, c)) black += m / (4 * S - 4);
    }
  }
  const spread = white - black;
  if (spread < (options.minContrast ?? defaultMinContrast)) return null;
  const threshold = (black + white) / 2;
  for (let r = 0; r < S; r++) for (let c = 0; c < S; c++) if (ring(0, r, c) && means[r * S + c] >= threshold) return null;
  // A cell too near the middle may be a lone cell of the other color, blurred; so may a cell read on the wrong side
  // of the middle when the grid as read explains the means poorly under any blur. Either way the grid is read again
  // with the blur undone, and only an exact dictionary match of that read is taken.
  const doubt = (options.doubt ?? defaultDoubt) * spread;
  const plain = new Uint8Array(n * n);
  let doubtful = false;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const m = means[(r + 1) * S + c + 1];
      if (Math.abs(m - threshold) < doubt) doubtful = true;
      plain[r * n + c] = m >= threshold ? 1 : 0;
    }
  }
  let grid: Uint8Array | null = plain;
  let exactOnly = false;
  if (options.deblur !== false) {
    const fit = doubtful ? { residual: Infinity, sigma: Infinity } : gridResidual(all, n, margin, plain);
    const plainResidual = fit.residual;
    if (plainResidual > blurGate && fit.sigma >= blurSigmaGate) {
      const read = deblurredGrid(all, n, margin, black, white);
      if (read && (doubtful || read.residual < blurRatio * plainResidual)) [grid, exactOnly] = [read.grid, true];
      else if (doubtful) grid = null;
    }
  } else if (doubtful) grid = null;
  if (!grid) return null;
  const match = dict.decode(grid);
  if (!match || (exactOnly && match.distance > 0)) return null;
  const printed = printedOrder(corners, match.rotation);
  const contrast = Math.min(...means.map((m) => Math.abs(m - threshold)));
  return { ...match, corners: printed, threshold, contrast, spread };
}

/** Φ(z), as the step fit computes it (refineCornersCpu.ts; the GPU the same). */
const phi = (z: number) => normalCdf(z, Math.exp(-0.5 * z * z));

/** Weight of the cell d = −2…2 away along one axis under a blur of σ cells, averaged over the part of a cell read. */
function blurWeights(sigma: number, margin: number): number[] {
  return [-2, -1, 0, 1, 2].map((d) => {
    let acc = 0;
    for (let i = 0; i < 16; i++) {
      const x = margin + ((i + 0.5) / 16) * (1 - 2 * margin);
      acc += phi((d + 1 - x) / sigma) - phi((d - x) / sigma);
    }
    return acc / 16;
  });
}

/** The (n + 4)² grid of printed values, quiet-zone ring white, border black, inner cells from `inner` (or white). */
function printedGrid(n: number, inner?: ArrayLike<number>): Float64Array {
  const T = n + 4;
  const x = new Float64Array(T * T);
  for (let r = 0; r < T; r++) {
    for (let c = 0; c < T; c++) {
      const ring = r === 0 || c === 0 || r === T - 1 || c === T - 1;
      const border = !ring && (r === 1 || c === 1 || r === T - 2 || c === T - 2);
      x[r * T + c] = ring ? 1 : border ? 0 : inner ? inner[(r - 2) * n + c - 2] : 1;
    }
  }
  return x;
}

/** Cell (r, c)'s mean under the blur of one-axis weights `w`, from printed values `x` (white beyond the grid). */
function blurredAt(x: Float64Array, T: number, w: readonly number[], r: number, c: number): number {
  let acc = 0;
  for (let a = -2; a <= 2; a++) {
    for (let b = -2; b <= 2; b++) {
      const rr = r + a;
      const cc = c + b;
      acc += w[a + 2] * w[b + 2] * (rr < 0 || cc < 0 || rr >= T || cc >= T ? 1 : x[rr * T + cc]);
    }
  }
  return acc;
}

/**
 * RMS misfit, in spans, of the means `cells` against printed values `x` under blur `w`, black and span fitted by
 * least squares over every cell (`known` only: the ring and border; then also returns the levels).
 */
function blurMisfit(cells: readonly number[], x: Float64Array, T: number, w: readonly number[], known: boolean): { residual: number; black: number; span: number } {
  // One pass of sums, the squared misfit expanded from them (the GPU keeps no predicted values).
  let [sp, spp, so, soo, spo, k] = [0, 0, 0, 0, 0, 0];
  for (let r = 0; r < T; r++) {
    for (let c = 0; c < T; c++) {
      if (known && r > 1 && c > 1 && r < T - 2 && c < T - 2) continue;
      const p = blurredAt(x, T, w, r, c);
      const o = cells[r * T + c];
      [sp, spp, so, soo, spo, k] = [sp + p, spp + p * p, so + o, soo + o * o, spo + p * o, k + 1];
    }
  }
  const det = k * spp - sp * sp;
  const span = Math.abs(det) < 1e-9 ? NaN : (k * spo - sp * so) / det;
  const black = (so - span * sp) / k;
  const ss = soo - 2 * black * so - 2 * span * spo + k * black * black + 2 * black * span * sp + span * span * spp;
  return { residual: Math.sqrt(Math.max(0, ss) / k) / span, black, span };
}

/** How well a binary inner grid explains the (n + 4)² means `cells`: the least misfit over the blurs tried, and its blur. */
export function gridResidual(cells: readonly number[], n: number, margin: number, grid: ArrayLike<number>): { residual: number; sigma: number } {
  const x = printedGrid(n, grid);
  let best = { residual: Infinity, sigma: Infinity };
  for (const sigma of fitSigmas) {
    const { residual, span } = blurMisfit(cells, x, n + 4, blurWeights(sigma, margin), false);
    if (span > 1 && residual < best.residual) best = { residual, sigma };
  }
  return best;
}

/**
 * The inner cells of a blurred grid, the blur undone: each cell's mean (as read, `margin` of it left out at its edges)
 * is a mix of its own and its neighbours' printed values under a Gaussian blur of σ cells; the border (black) and
 * quiet zone (white) are known, the black and white levels fitted to them, the inner cells solved for (damped Jacobi
 * from the means as read, every cell from the step before: the GPU solves them side by side). Tried at several σ; each solution whose
 * inner cells all end `deblurMargin` clear of the middle is rounded to a binary grid, and the grid that explains
 * the means best (`gridResidual`'s misfit at that σ) is returned with its misfit. `cells`: the (n + 4)² means,
 * quiet-zone ring included, row-major; `dark` and `light`: the border's and the quiet zone's mean, as read.
 */
export function deblurredGrid(cells: readonly number[], n: number, margin: number, dark: number, light: number): { grid: Uint8Array; residual: number } | null {
  const T = n + 4;
  let best: { grid: Uint8Array; residual: number } | null = null;
  for (const sigma of deblurSigmas) {
    const w = blurWeights(sigma, margin);
    // Inner cells start as read, scaled between the border's black and the quiet zone's white.
    const x = printedGrid(n);
    for (let r = 2; r < T - 2; r++) for (let c = 2; c < T - 2; c++) x[r * T + c] = Math.max(-0.5, Math.min(1.5, (cells[r * T + c] - dark) / (light - dark)));
    // Levels: least squares of the known cells' means against their blurred printed values.
    const { black, span } = blurMisfit(cells, x, T, w, true);
    if (!(span > 1)) continue;
    const own = w[2] * w[2];
    for (let it = 0; it < deblurSteps; it++) {
      const next = x.slice();
      for (let r = 2; r < T - 2; r++) {
        for (let c = 2; c < T - 2; c++) {
          const i = r * T + c;
          const rest = blurredAt(x, T, w, r, c) - own * x[i];
          next[i] = Math.max(-0.5, Math.min(1.5, x[i] + deblurStep * (((cells[i] - black) / span - rest) / own - x[i])));
        }
      }
      x.set(next);
    }
    const grid = new Uint8Array(n * n);
    let clear = Infinity;
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const v = x[(r + 2) * T + c + 2];
        clear = Math.min(clear, Math.abs(v - 0.5));
        grid[r * n + c] = v >= 0.5 ? 1 : 0;
      }
    }
    if (clear < deblurMargin) continue;
    const fit = blurMisfit(cells, printedGrid(n, grid), T, w, false);
    if (fit.span > 1 && (!best || fit.residual < best.residual)) best = { grid, residual: fit.residual };
  }
  return best;
}
