/**
 * Points bucketed in square cells, to find those within a distance of a place without looking at every point: the
 * tracker's pairs of tracks and blobs that could match (or overlap) are the near ones, a few of the many. Cells cover
 * only the points' bounds (a long-lost track's wide reach visits those, not the empty plane around them), held in
 * flat arrays (a counting sort by cell). One grid is indexed again every frame: its arrays are kept and grown, not
 * allocated per frame (the tracker runs for every frame of every stream).
 */
import { atLeast } from './scratch.js';

/**
 * Cells a grid may have beyond 4 a point: the points' bounds in cells of the given size make more (a box a million
 * pixels out, from a detector gone wrong, asked for 7812² cells and 500 MB a frame), the cells are made larger for the
 * frame. A frame of 16384² pixels in 128 px cells has as many: any frame a GPU gives is indexed at the given size.
 */
export const maxCells = 1 << 14;

export class CentreGrid {
  readonly #size: number;
  /** This frame's cell size: the given one, or larger where the points lie too far apart (maxCells). */
  #cell: number;
  #gx0 = 0;
  #gy0 = 0;
  #gw = 0;
  #gh = 0;
  /** Points of cell k: items[start[k] .. start[k + 1]). */
  #start: Int32Array = new Int32Array(64);
  #fill: Int32Array = new Int32Array(64);
  #items: Int32Array = new Int32Array(64);
  #cellOf: Int32Array = new Int32Array(64);
  readonly #span = new Float64Array(4);

  constructor(cellSize: number) {
    this.#size = this.#cell = cellSize;
  }

  /** Buckets the first `n` points (all of them if left out), replacing what the grid held. */
  index(xs: ArrayLike<number>, ys: ArrayLike<number>, n = xs.length): this {
    this.#items = atLeast(this.#items, n);
    const cellOf = (this.#cellOf = atLeast(this.#cellOf, n));
    let cellSize = this.#size;
    const span = this.#bounds(xs, ys, n, cellSize);
    const most = maxCells + 4 * n;
    if ((span[2] - span[0] + 1) * (span[3] - span[1] + 1) > most) {
      // Larger cells until the bounds fit: near() gives the same points and perhaps more, which callers check. A cell
      // of size s·f spans at most ⌊w/f⌋ + 2 of the w cells of size s an axis had.
      const [w, h] = [span[2] - span[0] + 1, span[3] - span[1] + 1];
      let f = Math.ceil(Math.sqrt((w * h) / most));
      while ((Math.floor(w / f) + 2) * (Math.floor(h / f) + 2) > most) f *= 2;
      cellSize *= f;
      this.#bounds(xs, ys, n, cellSize);
    }
    const [gx0, gy0, gx1, gy1] = [span[0], span[1], span[2], span[3]];
    this.#cell = cellSize;
    this.#gx0 = gx0;
    this.#gy0 = gy0;
    this.#gw = gx1 - gx0 + 1;
    this.#gh = gy1 - gy0 + 1;
    const cells = this.#gw * this.#gh;
    const start = (this.#start = atLeast(this.#start, cells + 1));
    this.#fill = atLeast(this.#fill, cells);
    for (let k = 0; k <= cells; k++) start[k] = 0;
    for (let i = 0; i < n; i++) {
      cellOf[i] = (Math.floor(ys[i] / cellSize) - gy0) * this.#gw + Math.floor(xs[i] / cellSize) - gx0;
      start[cellOf[i] + 1]++;
    }
    for (let k = 1; k <= cells; k++) start[k] += start[k - 1];
    const fill = this.#fill;
    for (let k = 0; k < cells; k++) fill[k] = start[k];
    const items = this.#items;
    for (let i = 0; i < n; i++) items[fill[cellOf[i]]++] = i;
    return this;
  }

  /** The first n points' bounds in cells of `cellSize` into #span (kept: first column, first row, last column, last row). */
  #bounds(xs: ArrayLike<number>, ys: ArrayLike<number>, n: number, cellSize: number): Float64Array {
    let [gx0, gy0, gx1, gy1] = [0, 0, -1, -1];
    for (let i = 0; i < n; i++) {
      const gx = Math.floor(xs[i] / cellSize);
      const gy = Math.floor(ys[i] / cellSize);
      if (i === 0 || gx < gx0) gx0 = gx;
      if (i === 0 || gx > gx1) gx1 = gx;
      if (i === 0 || gy < gy0) gy0 = gy;
      if (i === 0 || gy > gy1) gy1 = gy;
    }
    const span = this.#span;
    span[0] = gx0;
    span[1] = gy0;
    span[2] = gx1;
    span[3] = gy1;
    return span;
  }

  /**
   * Writes into `out` the points within `r` of (x, y) (and perhaps a few more: callers check), each once; returns
   * how many. With `ry`, the points within `r` of x and `ry` of y (a rectangle). `out` holds at least as many
   * entries as there are points.
   */
  near(x: number, y: number, r: number, out: Int32Array, ry = r): number {
    const s = this.#cell;
    const gx0 = Math.max(0, Math.floor((x - r) / s) - this.#gx0);
    const gx1 = Math.min(this.#gw - 1, Math.floor((x + r) / s) - this.#gx0);
    const gy0 = Math.max(0, Math.floor((y - ry) / s) - this.#gy0);
    const gy1 = Math.min(this.#gh - 1, Math.floor((y + ry) / s) - this.#gy0);
    let n = 0;
    if (gx0 > gx1) return 0;
    const start = this.#start;
    const items = this.#items;
    for (let gy = gy0; gy <= gy1; gy++) {
      const row = gy * this.#gw;
      // The cells of a row of the grid are consecutive in `items`.
      for (let k = start[row + gx0], end = start[row + gx1 + 1]; k < end; k++) out[n++] = items[k];
    }
    return n;
  }
}
