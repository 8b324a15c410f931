/**
 * Points bucketed in square cells, to visit those within a distance of a place without looking at every point: the
 * tracker's pairs of tracks and blobs that could match (or overlap) are the near ones, a few of the many.
 */
export class CentreGrid {
  readonly #cells = new Map<number, number[]>();
  readonly #size: number;

  constructor(xs: ArrayLike<number>, ys: ArrayLike<number>, cellSize: number) {
    this.#size = cellSize;
    for (let i = 0; i < xs.length; i++) {
      const key = this.#key(Math.floor(xs[i] / cellSize), Math.floor(ys[i] / cellSize));
      const cell = this.#cells.get(key);
      if (cell) cell.push(i);
      else this.#cells.set(key, [i]);
    }
  }

  #key(gx: number, gy: number): number {
    return gx * 1_000_003 + gy;
  }

  /** Calls `visit` with every point within `r` of (x, y) (and perhaps a few more: callers check). */
  near(x: number, y: number, r: number, visit: (i: number) => void): void {
    const s = this.#size;
    for (let gx = Math.floor((x - r) / s); gx <= Math.floor((x + r) / s); gx++) {
      for (let gy = Math.floor((y - r) / s); gy <= Math.floor((y + r) / s); gy++) {
        const cell = this.#cells.get(this.#key(gx, gy));
        if (cell) for (const i of cell) visit(i);
      }
    }
  }
}
