/**
 * A ChArUco board's chessboard corners placed from the markers found round them. The markers beside a corner are
 * printed in the same plane, so each found one gives the corner's place through its own homography (the marker's
 * printed corners to its found ones). The places so given are averaged; where the two differ by more than a tenth of
 * the markers' side, they are not where the board puts them (another board, or a marker of the same id elsewhere) and
 * the corner is left out. This is OpenCV's local-homography
 * interpolation (`interpolateCornersCharuco` without a camera), and like it a corner needs `minMarkers` of its two
 * markers found (default 2: a single marker's homography is steep away from it). Subpixel refinement on the image
 * comes after, each corner in a window kept off its markers (`window`: 0.8 of the distance to the nearest of their
 * corners, 3 to 8 px): a marker's edges in the window pull the corner, and a window of a few pixels is all noise.
 *
 * @example
 * const b = charucoBoard({ squaresX: 5, squaresY: 7, squareLength: 0.04, markerLength: 0.03, dictionary: 'DICT_4X4_50' });
 * const placed = charucoCorners(b, result.markers.found) // [{ id: 0, at: [x, y], window, markers }, …] in id order
 * refineChessCorners(gray, w, h, placed.map((c) => c.at), { half: placed.map((c) => c.window) })
 */
import { InvalidOptionError } from '../core/errors.js';
import type { CharucoBoard } from './charucoBoard.js';
import { applyHomography, homography } from './homography.js';

export interface FoundCharucoCorner {
  /** The corner's id on the board (row by row from the top-left inner corner). */
  id: number;
  /** In the image, pixels with pixel centres at integers. */
  at: [number, number];
  /** How many of its markers were found and placed it. */
  markers: number;
  /** Half the side of the refinement window kept off its markers, pixels (3–8; `refineChessCorners`' `half`). */
  window: number;
}

type Found = { readonly id: number; readonly dictionary?: string; readonly corners: readonly (readonly number[])[] };

/** A found marker's side in the image: the mean of its four edges. */
const side = (m: Found) => m.corners.reduce((a, p, i) => a + Math.hypot(p[0] - m.corners[(i + 1) % 4][0], p[1] - m.corners[(i + 1) % 4][1]), 0) / 4;

export function charucoCorners(board: CharucoBoard, found: readonly Found[], options: { minMarkers?: 1 | 2 } = {}): FoundCharucoCorner[] {
  const minMarkers = options.minMarkers ?? 2;
  if (minMarkers !== 1 && minMarkers !== 2) throw new InvalidOptionError(`charucoCorners: minMarkers must be 1 or 2, got ${String(minMarkers)}`);
  const dictionary = board.dictionary.toUpperCase();
  // Each of the board's markers found (the first where one id was found twice), by id.
  const seen = new Map<number, Found>();
  for (const m of found) if ((m.dictionary === undefined || m.dictionary.toUpperCase() === dictionary) && !seen.has(m.id)) seen.set(m.id, m);
  const printed = new Map(board.markers.map((m) => [m.id, m.corners]));
  const toImage = new Map<number, number[]>();
  const out: FoundCharucoCorner[] = [];
  for (const corner of board.corners) {
    const found: Found[] = [];
    const places: [number, number][] = [];
    for (const id of corner.markers) {
      const m = seen.get(id);
      if (!m) continue;
      let h = toImage.get(id);
      if (!h) toImage.set(id, (h = homography(printed.get(id)!, m.corners)));
      places.push(applyHomography(h, corner.at));
      found.push(m);
    }
    if (found.length < minMarkers) continue;
    if (places.length === 2 && Math.hypot(places[0][0] - places[1][0], places[0][1] - places[1][1]) > (0.1 * (side(found[0]) + side(found[1]))) / 2) continue;
    const at: [number, number] = [places.reduce((a, p) => a + p[0], 0) / places.length, places.reduce((a, p) => a + p[1], 0) / places.length];
    const k = places.length;
    const nearest = Math.min(...found.flatMap((m) => m.corners.map((c) => Math.hypot(c[0] - at[0], c[1] - at[1]))));
    out.push({ id: corner.id, at, markers: k, window: Math.min(8, Math.max(3, Math.floor(0.8 * nearest))) });
  }
  return out;
}
