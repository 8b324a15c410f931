/**
 * Points bucketed in square cells, to find those within a distance of a place without looking at every point: the
 * tracker's pairs of tracks and blobs that could match (or overlap) are the near ones, a few of the many. Cells cover
 * only the points' bounds (a long-lost track's wide reach visits those, not the empty plane around them), held in
 * flat arrays (a counting sort by cell), since this runs for every track of every frame.
 */
export class CentreGrid {
  readonly #size: number;
  readonly #gx0: number;
  readonly #gy0: number;
  readonly #gw: number;
  readonly #gh: number;
  /** Points of cell k: items[start[k] .. start[k + 1]). */
  readonly #start: Int32Array;
  readonly #items: Int32Array;

  constructor(xs: ArrayLike<number>, ys: ArrayLike<number>, cellSize: number) {
    const n = xs.length;
    this.#size = cellSize;
    let [gx0, gy0, gx1, gy1] = [0, 0, -1, -1];
    const cellOf = new Int32Array(n);
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
    this.#start = new Int32Array(this.#gw * this.#gh + 1);
    for (let i = 0; i < n; i++) {
      cellOf[i] = (Math.floor(ys[i] / cellSize) - gy0) * this.#gw + Math.floor(xs[i] / cellSize) - gx0;
      this.#start[cellOf[i] + 1]++;
    }
    for (let k = 1; k < this.#start.length; k++) this.#start[k] += this.#start[k - 1];
    this.#items = new Int32Array(n);
    const fill = this.#start.slice(0, -1);
    for (let i = 0; i < n; i++) this.#items[fill[cellOf[i]]++] = i;
  }

  /**
   * Writes into `out` the points within `r` of (x, y) (and perhaps a few more: callers check), each once; returns
   * how many. `out` holds at least as many entries as there are points.
   */
  near(x: number, y: number, r: number, out: Int32Array): number {
    const s = this.#size;
    const gx0 = Math.max(0, Math.floor((x - r) / s) - this.#gx0);
    const gx1 = Math.min(this.#gw - 1, Math.floor((x + r) / s) - this.#gx0);
    const gy0 = Math.max(0, Math.floor((y - r) / s) - this.#gy0);
    const gy1 = Math.min(this.#gh - 1, Math.floor((y + r) / s) - this.#gy0);
    let n = 0;
    if (gx0 > gx1) return 0;
    for (let gy = gy0; gy <= gy1; gy++) {
      const row = gy * this.#gw;
      // The cells of a row of the grid are consecutive in `items`.
      for (let k = this.#start[row + gx0], end = this.#start[row + gx1 + 1]; k < end; k++) out[n++] = this.#items[k];
    }
    return n;
  }
}
