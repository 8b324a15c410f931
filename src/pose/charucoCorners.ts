/**
 * A ChArUco board's chessboard corners placed from the markers found round them. The markers beside a corner are
 * printed in the same plane, so each found one gives the corner's place through its own homography (the marker's
 * printed corners to its found ones). The places so given are averaged. This is OpenCV's local-homography
 * interpolation (`interpolateCornersCharuco` without a camera), and like it a corner needs `minMarkers` of its two
 * markers found (default 2: a single marker's homography is steep away from it). Subpixel refinement on the image
 * comes after.
 *
 * @example
 * const b = charucoBoard({ squaresX: 5, squaresY: 7, squareLength: 0.04, markerLength: 0.03, dictionary: 'DICT_4X4_50' });
 * charucoCorners(b, result.markers.found) // [{ id: 0, at: [x, y] }, …] in id order
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
}

type Found = { readonly id: number; readonly dictionary?: string; readonly corners: readonly (readonly number[])[] };

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
    let [x, y, k] = [0, 0, 0];
    for (const id of corner.markers) {
      const m = seen.get(id);
      if (!m) continue;
      let h = toImage.get(id);
      if (!h) toImage.set(id, (h = homography(printed.get(id)!, m.corners)));
      const [u, v] = applyHomography(h, corner.at);
      [x, y, k] = [x + u, y + v, k + 1];
    }
    if (k >= minMarkers) out.push({ id: corner.id, at: [x / k, y / k], markers: k });
  }
  return out;
}
