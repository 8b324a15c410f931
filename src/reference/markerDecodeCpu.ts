/**
 * Reading a marker from a gray image given its four outer corners, on the CPU: the oracle the GPU decoder will be
 * checked against. The homography from the corners maps each cell of the (n + 2)² grid (border included); each
 * cell is sampled at q×q points away from its edges (bilinear, pixel centres at integers) and averaged. Black and
 * white are measured where they are known: the border's cells and the quiet zone's (the ring of cells just
 * outside); the threshold is their middle. Too little contrast, a border cell that is not black, or an inner cell
 * too near the middle to be sure of (a lone cell blurred towards its neighbours; Otsu's split of the cells would
 * put such cells on the wrong side) mean no marker; the inner bits are decoded by the dictionary, which also gives the
 * marker's turn, so the corners come back in the order the marker was printed.
 */
import { applyHomography, homography, type Point } from './markerScene.js';
import { sampleBilinear } from './sampleBilinear.js';

/** What decoding needs of a dictionary (`MarkerDictionary` has it; src/ does not import the operators). */
export interface GridDecoder {
  readonly markerSize: number;
  decode(grid: ArrayLike<number>): { id: number; rotation: 0 | 1 | 2 | 3; distance: number; margin: number } | null;
}

export interface DecodedMarker {
  id: number;
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
}

/**
 * A lone white cell among black ones (or the reverse), averaged over its middle 60% as read here, stays 0.1 of the
 * black–white difference on its side of the middle under a blur of σ ≈ 0.37 of a cell; blurred more, it is a coin
 * toss, and a marker with such cells lost can read as another.
 */
export const defaultDoubt = 0.1;

/** How the reader samples each cell by default: q×q points, this share of the cell left out at its edges. */
export const cellSamples = 3;
export const cellMargin = 0.2;
/** Least difference between the border's black and the quiet zone's white, in gray levels, by default. */
export const defaultMinContrast = 20;

/**
 * Corners seen (any starting corner, clockwise) in the order the marker was printed, given the quarter turns
 * clockwise the grid showed it turned by: its printed top-left is seen at corner `rotation`.
 */
export function printedOrder<P>(seen: readonly P[], rotation: number): [P, P, P, P] {
  return [0, 1, 2, 3].map((k) => seen[(k + rotation) % 4]) as [P, P, P, P];
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
  // Black from the border's cells, white from the quiet zone's (the ring of cells just outside the border).
  const ring = (k: number, r: number, c: number) => r === k || c === k || r === S - 1 - k || c === S - 1 - k;
  let black = 0;
  let white = 0;
  for (let r = -1; r <= S; r++) {
    for (let c = -1; c <= S; c++) {
      if (ring(-1, r, c)) white += cellMean(r, c) / (4 * S + 4);
      else if (ring(0, r, c)) black += means[r * S + c] / (4 * S - 4);
    }
  }
  const spread = white - black;
  if (spread < (options.minContrast ?? defaultMinContrast)) return null;
  const threshold = (black + white) / 2;
  for (let r = 0; r < S; r++) for (let c = 0; c < S; c++) if (ring(0, r, c) && means[r * S + c] >= threshold) return null;
  // A cell too near the middle may be a lone cell of the other colour, blurred: no marker rather than a wrong one.
  const doubt = (options.doubt ?? defaultDoubt) * spread;
  const grid = new Uint8Array(n * n);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const m = means[(r + 1) * S + c + 1];
      if (Math.abs(m - threshold) < doubt) return null;
      grid[r * n + c] = m >= threshold ? 1 : 0;
    }
  }
  const match = dict.decode(grid);
  if (!match) return null;
  const printed = printedOrder(corners, match.rotation);
  const contrast = Math.min(...means.map((m) => Math.abs(m - threshold)));
  return { ...match, corners: printed, threshold, contrast, spread };
}
