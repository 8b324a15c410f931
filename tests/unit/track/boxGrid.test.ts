// Boxes that could share part of a pixel with a query box (src/track/BoxGrid.ts) against looking at every box: exactly
// those, in their order, each once, with boxes off whole pixels, across negative coordinates and cell edges, large
// ones kept apart, a few far out (larger cells), and bounds no box has (NaN, inverted, infinite).
import { describe, expect, it } from 'vitest';
import { BoxGrid } from '../../../src/track/BoxGrid.js';
import { rng } from '../../../src/eval/images.js';

/** Boxes of inclusive bounds off whole pixels share part of one where each starts less than a pixel past the other's end. */
const meets = (b: Float64Array, i: number, q: readonly number[]) => b[4 * i] < q[2] + 1 && q[0] < b[4 * i + 2] + 1 && b[4 * i + 1] < q[3] + 1 && q[1] < b[4 * i + 3] + 1;

describe('BoxGrid', () => {
  it('gives exactly the boxes a query box meets, in order, each once, one grid indexed again for every set', () => {
    const r = rng(5);
    const grid = new BoxGrid(128);
    for (let round = 0; round < 120; round++) {
      const n = round % 10 === 0 ? Math.floor(r() * 3) : 1 + Math.floor(r() * 1500);
      // Mostly small boxes (some under a pixel wide) over a frame and a margin left of and above it; some large
      // (kept apart past 16 cells); in every fourth round a few a million pixels out, and bounds no box has.
      const odd = round % 4 === 3;
      const b = new Float64Array(4 * n + 8).fill(-7);
      for (let i = 0; i < n; i++) {
        const large = r() < 0.05;
        const [w, h] = [r() * (large ? 900 : 40), r() * (large ? 700 : 40)];
        const far = odd && r() < 0.02 ? (r() < 0.5 ? -1e6 : 1e6) : 0;
        const [x, y] = [far + (r() - 0.1) * 1920, (r() - 0.1) * 1080];
        b.set([x, y, x + w, y + h], 4 * i);
        if (odd && r() < 0.02) b.set([[NaN, y, x + w, y + h], [x + w, y, x, y + h], [x, y, Infinity, y + h], [-Infinity, -Infinity, Infinity, Infinity]][Math.floor(r() * 4)], 4 * i);
      }
      // The first n boxes of a longer array (the tracker's scratch arrays): the rest ignored.
      grid.index(b, n);
      const out = new Int32Array(n);
      for (let k = 0; k < 60; k++) {
        const [x0, y0] = [(r() - 0.1) * 2000, (r() - 0.1) * 1150];
        // Some queries on a cell's edge, less than a pixel either side of it.
        const edge = 128 * Math.floor(r() * 10);
        const q = k % 5 === 0 ? [edge - 1.5 + r(), y0, edge + r(), y0 + r() * 30] : [x0, y0, x0 + r() * 60, y0 + r() * 60];
        const got = [...out.subarray(0, grid.overlapping(q[0], q[1], q[2], q[3], out))];
        const want = Array.from({ length: n }, (_, i) => i).filter((i) => meets(b, i, q));
        expect(got, `round ${round} query ${k}`).toEqual(want);
      }
      // A query with a bound no box has meets none.
      expect(grid.overlapping(NaN, 0, 10, 10, out), `round ${round}`).toBe(0);
    }
  });
});
