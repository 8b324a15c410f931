/**
 * Points bucketed in square cells, to find those within a distance of a place without looking at every point: the
 * tracker's pairs of tracks and blobs that could match (or overlap) are the near ones, a few of the many. Cells cover
 * only the points' bounds (a long-lost track's wide reach visits those, not the empty plane around them), held in
 * flat arrays (a counting sort by cell). One grid is indexed again every frame: its arrays are kept and grown, not
 * allocated per frame (the tracker runs for every frame of every stream).
 */
import { atLeast } from './scratch.js';

export class CentreGrid {
  readonly #size: number;
  #gx0 = 0;
  #gy0 = 0;
  #gw = 0;
  #gh = 0;
  /** Points of cell k: items[start[k] .. start[k + 1]). */
  #start: Int32Array = new Int32Array(64);
  #fill: Int32Array = new Int32Array(64);
  #items: Int32Array = new Int32Array(64);
  #cellOf: Int32Array = new Int32Array(64);

  constructor(cellSize: number) {
    this.#size = cellSize;
  }

  /** Buckets the first `n` points (all of them if left out), replacing what the grid held. */
  index(xs: ArrayLike<number>, ys: ArrayLike<number>, n = xs.length): this {
    const cellSize = this.#size;
    let [gx0, gy0, gx1, gy1] = [0, 0, -1, -1];
    this.#items = atLeast(this.#items, n);
    const cellOf = (this.#cellOf = atLeast(this.#cellOf, n));
    for (let i = 0; i < n; i++) {
      const gx = Math.floor(xs[i] / cellSize);
      const gy = Math.floor(ys[i] / cellSize);
      if (i === 0 || gx < gx0) gx0 = gx;
      if (i === 0 || gx > gx1) gx1 = gx;
      if (i === 0 || gy < gy0) gy0 = gy;
      if (i === 0 || gy > gy1) gy1 = gy;
    }
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

  /**
   * Writes into `out` the points within `r` of (x, y) (and perhaps a few more: callers check), each once; returns
   * how many. With `ry`, the points within `r` of x and `ry` of y (a rectangle). `out` holds at least as many
   * entries as there are points.
   */
  near(x: number, y: number, r: number, out: Int32Array, ry = r): number {
    const s = this.#size;
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
