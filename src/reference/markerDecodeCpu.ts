/**
 * Reading a marker from a gray image given its four outer corners, on the CPU: the oracle the GPU decoder will be
 * checked against. The homography from the corners maps each cell of the (n + 2)² grid (border included); each
 * cell is sampled at q×q points away from its edges (bilinear, pixel centres at integers) and averaged; a threshold
 * between the cells (Otsu's, over the cell means) splits black from white; a border that is not all black, or
 * cells too alike to split, mean no marker; the inner bits are decoded by the dictionary, which also gives the
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
  /** The black/white threshold and the smallest distance of a cell mean from it (gray levels): the contrast margin. */
  threshold: number;
  contrast: number;
}

export interface DecodeOptions {
  /** Samples per cell side (default 3). */
  samples?: number;
  /** Cell margin left unsampled, as a fraction of the cell (default 0.2). */
  margin?: number;
  /** Least difference between the black and white cell means, in gray levels (default 20). */
  minContrast?: number;
}

/** Otsu's threshold over a few values: the split of the sorted values with the largest between-class variance. */
export function otsuSplit(values: number[]): { threshold: number; dark: number; light: number } {
  const v = [...values].sort((a, b) => a - b);
  const total = v.reduce((s, x) => s + x, 0);
  let best = -1;
  let at = 1;
  let sum = 0;
  for (let i = 1; i < v.length; i++) {
    sum += v[i - 1];
    const n0 = i;
    const n1 = v.length - i;
    const m0 = sum / n0;
    const m1 = (total - sum) / n1;
    const between = n0 * n1 * (m0 - m1) ** 2;
    if (between > best) {
      best = between;
      at = i;
    }
  }
  const dark = v.slice(0, at).reduce((s, x) => s + x, 0) / at;
  const light = v.slice(at).reduce((s, x) => s + x, 0) / (v.length - at);
  return { threshold: (v[at - 1] + v[at]) / 2, dark, light };
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
  const q = options.samples ?? 3;
  const margin = options.margin ?? 0.2;
  const h = homography([[0, 0], [S, 0], [S, S], [0, S]], corners);
  const means: number[] = [];
  for (let r = 0; r < S; r++) {
    for (let c = 0; c < S; c++) {
      let sum = 0;
      for (let a = 0; a < q; a++) {
        for (let b = 0; b < q; b++) {
          const u = c + margin + ((b + 0.5) / q) * (1 - 2 * margin);
          const v = r + margin + ((a + 0.5) / q) * (1 - 2 * margin);
          sum += sampleBilinear(gray, width, height, ...applyHomography(h, [u, v]));
        }
      }
      means.push(sum / (q * q));
    }
  }
  const { threshold, dark, light } = otsuSplit(means);
  if (light - dark < (options.minContrast ?? 20)) return null;
  // The border: every cell of the outer ring black.
  for (let r = 0; r < S; r++) {
    for (let c = 0; c < S; c++) {
      if ((r === 0 || c === 0 || r === S - 1 || c === S - 1) && means[r * S + c] >= threshold) return null;
    }
  }
  const grid = new Uint8Array(n * n);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) grid[r * n + c] = means[(r + 1) * S + c + 1] >= threshold ? 1 : 0;
  const match = dict.decode(grid);
  if (!match) return null;
  // The grid shows the marker turned `rotation` quarter turns clockwise: its printed top-left corner is seen at
  // corner `rotation` of the sampled frame (counting clockwise from the sampled top-left).
  const r = match.rotation;
  const printed = [0, 1, 2, 3].map((k) => corners[(k + r) % 4]) as DecodedMarker['corners'];
  const contrast = Math.min(...means.map((m) => Math.abs(m - threshold)));
  return { ...match, corners: printed, threshold, contrast };
}
