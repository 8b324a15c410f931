/**
 * Boxes bucketed in square cells, each in every cell it covers, to find those that could share a pixel with a given
 * box without looking at every one. CentreGrid buckets points, so a box search there reaches as far as the largest
 * box's half-size from every place: with thousands of small boxes and one large one, every search looked at a large
 * share of them all (NearTracks: a flood of 4096 noise blobs with 50 objects over 1080p spent 70 % of the tracker's
 * frame checking tracks far from the blob). Here a search looks at the boxes of the cells its box covers.
 *
 * A box covering more than `wideCells` cells is kept apart and looked at by every search (a long-lost track's wide
 * reach, a detector's box gone wrong), so that no box fills the grid; cells cover only the other boxes' bounds, and
 * grow where those lie too far apart (maxCells), as CentreGrid's do. Arrays are kept and grown, not allocated per frame.
 */
import { maxCells } from './CentreGrid.js';
import { atLeast } from './scratch.js';

/** Cells a box may cover before it is kept apart (looked at by every search). */
const wideCells = 16;

export class BoxGrid {
  readonly #size: number;
  #cell = 0;
  #gx0 = 0;
  #gy0 = 0;
  #gw = 0;
  #gh = 0;
  /** The boxes' bounds, 4 a box (x0, y0, x1, y1; inclusive pixel bounds, perhaps off whole pixels): the caller's. */
  #boxes: Float64Array = new Float64Array(0);
  /** Boxes of cell k: items[start[k] .. start[k + 1]). */
  #start: Int32Array = new Int32Array(64);
  #fill: Int32Array = new Int32Array(64);
  #items: Int32Array = new Int32Array(64);
  /** The boxes kept apart (wideCells), in their order. */
  #wide: Int32Array = new Int32Array(16);
  #wideCount = 0;
  /** Each box's cells (first column, first row, last column, last row) in this frame's cells. */
  #span: Int32Array = new Int32Array(256);
  /** 1 for a box kept apart (wideCells). */
  #apart: Uint8Array = new Uint8Array(64);
  /** The search each box was last found by, so that a box in several of its cells is given once. */
  #seen: Int32Array = new Int32Array(64);
  #search = 0;

  constructor(cellSize: number) {
    this.#size = cellSize;
  }

  /**
   * Buckets the first `n` boxes of `boxes` (4 numbers a box), replacing what the grid held. Searches read the bounds
   * from `boxes`, not a copy: the caller leaves them as they are until it indexes again.
   */
  index(boxes: Float64Array, n: number): this {
    const own = (this.#boxes = boxes);
    const span = (this.#span = atLeast(this.#span, 4 * n));
    const apart = (this.#apart = atLeast(this.#apart, n));
    this.#wide = atLeast(this.#wide, n);
    this.#seen = atLeast(this.#seen, n).fill(0, 0, n);
    this.#search = 0;
    let cell = this.#size;
    for (;;) {
      // The cells each box covers, and the bounds of those of the boxes not kept apart.
      let [gx0, gy0, gx1, gy1] = [0, 0, -1, -1];
      let wide = 0;
      let total = 0;
      let first = true;
      for (let i = 0; i < n; i++) {
        const [cx0, cy0] = [Math.floor(own[4 * i] / cell), Math.floor(own[4 * i + 1] / cell)];
        const [cx1, cy1] = [Math.floor(own[4 * i + 2] / cell), Math.floor(own[4 * i + 3] / cell)];
        const cells = (cx1 - cx0 + 1) * (cy1 - cy0 + 1);
        // Not a number (NaN bounds) or past wideCells: kept apart, as is a box with its bounds inverted.
        if (!(cells <= wideCells) || cx1 < cx0 || cy1 < cy0) {
          apart[i] = 1;
          this.#wide[wide++] = i;
          continue;
        }
        apart[i] = 0;
        span[4 * i] = cx0;
        span[4 * i + 1] = cy0;
        span[4 * i + 2] = cx1;
        span[4 * i + 3] = cy1;
        total += cells;
        if (first) [gx0, gy0, gx1, gy1] = [cx0, cy0, cx1, cy1];
        else [gx0, gy0, gx1, gy1] = [Math.min(gx0, cx0), Math.min(gy0, cy0), Math.max(gx1, cx1), Math.max(gy1, cy1)];
        first = false;
      }
      const cells = (gx1 - gx0 + 1) * (gy1 - gy0 + 1);
      if (cells > maxCells + 4 * n) {
        // Larger cells until the boxes' bounds fit (a search finds the same boxes and perhaps more, which it checks).
        cell *= 2;
        continue;
      }
      this.#cell = cell;
      this.#wideCount = wide;
      [this.#gx0, this.#gy0, this.#gw, this.#gh] = [gx0, gy0, gx1 - gx0 + 1, gy1 - gy0 + 1];
      const start = (this.#start = atLeast(this.#start, cells + 1));
      const fill = (this.#fill = atLeast(this.#fill, cells));
      const items = (this.#items = atLeast(this.#items, total));
      start.fill(0, 0, cells + 1);
      const gw = this.#gw;
      // A counting sort by cell, each box in every cell it covers, in the boxes' order within a cell.
      for (let i = 0; i < n; i++) {
        if (apart[i]) continue;
        for (let y = span[4 * i + 1]; y <= span[4 * i + 3]; y++) for (let x = span[4 * i]; x <= span[4 * i + 2]; x++) start[(y - gy0) * gw + x - gx0 + 1]++;
      }
      for (let k = 1; k <= cells; k++) start[k] += start[k - 1];
      for (let k = 0; k < cells; k++) fill[k] = start[k];
      for (let i = 0; i < n; i++) {
        if (apart[i]) continue;
        for (let y = span[4 * i + 1]; y <= span[4 * i + 3]; y++) for (let x = span[4 * i]; x <= span[4 * i + 2]; x++) items[fill[(y - gy0) * gw + x - gx0]++] = i;
      }
      return this;
    }
  }

  /**
   * Writes into `out` the indexed boxes that could share part of a pixel with (x0, y0, x1, y1), in their order in
   * the list indexed, each once; returns how many. Inclusive bounds off whole pixels share a part where one's start
   * lies less than a pixel past the other's end (boxShare), so a box is given where both axes overlap so. `out` holds
   * at least as many entries as there are boxes.
   */
  overlapping(x0: number, y0: number, x1: number, y1: number, out: Int32Array): number {
    const b = this.#boxes;
    const meets = (i: number) => b[4 * i] < x1 + 1 && x0 < b[4 * i + 2] + 1 && b[4 * i + 1] < y1 + 1 && y0 < b[4 * i + 3] + 1;
    let n = 0;
    for (let k = 0; k < this.#wideCount; k++) if (meets(this.#wide[k])) out[n++] = this.#wide[k];
    const s = this.#cell;
    // The cells of the box widened by a pixel each way (a box ending less than one past a cell's edge reaches into it).
    const gx0 = Math.max(0, Math.floor((x0 - 1) / s) - this.#gx0);
    const gx1 = Math.min(this.#gw - 1, Math.floor((x1 + 1) / s) - this.#gx0);
    const gy0 = Math.max(0, Math.floor((y0 - 1) / s) - this.#gy0);
    const gy1 = Math.min(this.#gh - 1, Math.floor((y1 + 1) / s) - this.#gy0);
    if (gx0 <= gx1 && gy0 <= gy1) {
      const search = ++this.#search;
      const seen = this.#seen;
      const start = this.#start;
      const items = this.#items;
      for (let gy = gy0; gy <= gy1; gy++) {
        const row = gy * this.#gw;
        for (let k = start[row + gx0], end = start[row + gx1 + 1]; k < end; k++) {
          const i = items[k];
          if (seen[i] === search) continue;
          seen[i] = search;
          if (meets(i)) out[n++] = i;
        }
      }
    }
    // In the list's order (the cells and the boxes kept apart give them out of it); few, most searches.
    if (n > 1) out.subarray(0, n).sort();
    return n;
  }
}
