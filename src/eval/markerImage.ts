/**
 * Markers as images, on the CPU: a marker drawn as OpenCV draws it (a black border one cell wide around the n×n
 * bits, white = 1) inside a white quiet zone, and its grid read back from cell centres. The oracle for marker
 * decoding and the start of synthetic marker frames.
 */
import { turnClockwise } from '../markers/turnClockwise.js';

export interface MarkerImage {
  width: number;
  height: number;
  /** 8-bit gray, row-major. */
  data: Uint8Array;
  /** Pixels per cell. */
  cell: number;
  /** Cells of white quiet zone on each side. */
  quiet: number;
}

/** Draws an n×n bit grid (row-major, 1 = white) as a marker with `cell` pixels per cell. */
export function drawMarker(bits: ArrayLike<number>, n: number, cell: number, quiet = 1, black = 0, white = 255): MarkerImage {
  const side = (n + 2 + 2 * quiet) * cell;
  const data = new Uint8Array(side * side).fill(white);
  for (let r = -1; r <= n; r++) {
    for (let c = -1; c <= n; c++) {
      const inside = r >= 0 && r < n && c >= 0 && c < n;
      const v = inside && bits[r * n + c] ? white : black;
      const y0 = (r + 1 + quiet) * cell;
      const x0 = (c + 1 + quiet) * cell;
      for (let y = y0; y < y0 + cell; y++) data.fill(v, y * side + x0, y * side + x0 + cell);
    }
  }
  return { width: side, height: side, data, cell, quiet };
}

/** The n×n grid of a drawn marker, each cell's centre pixel thresholded at the middle gray. */
export function readGrid(img: MarkerImage, n: number, level = 128): Uint8Array {
  const bits = new Uint8Array(n * n);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const y = (r + 1 + img.quiet) * img.cell + (img.cell >> 1);
      const x = (c + 1 + img.quiet) * img.cell + (img.cell >> 1);
      bits[r * n + c] = img.data[y * img.width + x] >= level ? 1 : 0;
    }
  }
  return bits;
}

/** Turns a drawn marker a quarter turn clockwise (as a marker turned in front of the camera). */
export function turnImageClockwise(img: MarkerImage): MarkerImage {
  return { ...img, data: turnClockwise(img.data, img.width) };
}
