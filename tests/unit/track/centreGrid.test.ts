// The tracker's spatial lookup (near blobs of a track) against brute force, with negative coordinates and far queries.
import { describe, expect, it } from 'vitest';
import { CentreGrid } from '../../../src/track/CentreGrid.js';
import { rng } from '../../../src/eval/images.js';

describe('CentreGrid', () => {
  it('finds every point within the distance (or a rectangle), each once, wherever the query lies, one grid indexed again each time', () => {
    const r = rng(7);
    const grids = new Map<number, CentreGrid>();
    for (let k = 0; k < 200; k++) {
      const n = Math.floor(r() * 60);
      // Points anywhere, negative coordinates included; queries inside, beside and far from them.
      const xs = Array.from({ length: n }, () => (r() - 0.2) * 900);
      const ys = Array.from({ length: n }, () => (r() - 0.2) * 500);
      // A few cell sizes, each grid re-indexed many times over point sets of every size (its arrays reused).
      const size = [32, 77, 160][k % 3];
      const grid = grids.get(size) ?? new CentreGrid(size);
      grids.set(size, grid);
      // Half the time the points are the first n of longer arrays (the tracker's scratch arrays): the rest ignored.
      const pad = k % 2 ? Array.from({ length: 7 }, () => (r() - 0.5) * 1e4) : [];
      grid.index([...xs, ...pad], [...ys, ...pad], n);
      const out = new Int32Array(n);
      const [x, y, radius] = [(r() - 0.5) * 3000, (r() - 0.5) * 2000, r() < 0.2 ? 5000 : r() * 300];
      const found = [...out.subarray(0, grid.near(x, y, radius, out))];
      expect(new Set(found).size, `#${k}`).toBe(found.length);
      expect(found.every((i) => i < n), `#${k}`).toBe(true);
      const within = xs.map((_, i) => i).filter((i) => Math.hypot(xs[i] - x, ys[i] - y) <= radius);
      for (const i of within) expect(found, `#${k} point ${i}`).toContain(i);
      // A rectangle: every point within rx of x and ry of y.
      const [rx, ry] = [r() * 200, r() * 200];
      const inRect = [...out.subarray(0, grid.near(x / 3, y / 3, rx, out, ry))];
      expect(new Set(inRect).size, `#${k}`).toBe(inRect.length);
      const within2 = xs.map((_, i) => i).filter((i) => Math.abs(xs[i] - x / 3) <= rx && Math.abs(ys[i] - y / 3) <= ry);
      for (const i of within2) expect(inRect, `#${k} point ${i} in the rectangle`).toContain(i);
    }
  });

  it('finds them too where a few points lie far from the rest (larger cells for such a frame), one grid indexed again for frames with and without them', () => {
    const r = rng(11);
    const grid = new CentreGrid(128);
    for (let k = 0; k < 120; k++) {
      const n = 1 + Math.floor(r() * 40);
      // Most points in a 1920×1080 frame; a few a million to 10¹⁵ pixels out, on one axis (a long thin spread) or both.
      const far = [0, 1e6, 1e9, 1e15][k % 4];
      const xs = Array.from({ length: n }, () => r() * 1920);
      const ys = Array.from({ length: n }, () => r() * 1080);
      for (let i = 0; i < n; i += 7) {
        if (k % 3 !== 1) xs[i] = (r() < 0.5 ? -far : far) * (0.5 + r());
        if (k % 3 !== 2) ys[i] = (r() < 0.5 ? -far : far) * (0.5 + r());
      }
      grid.index(xs, ys, n);
      const out = new Int32Array(n);
      for (let q = 0; q < 5; q++) {
        const [x, y] = q < 3 ? [r() * 1920, r() * 1080] : [xs[q % n], ys[q % n]];
        const [rx, ry] = [r() * 300, r() * 300];
        const found = [...out.subarray(0, grid.near(x, y, rx, out, ry))];
        expect(new Set(found).size, `#${k}`).toBe(found.length);
        const within = xs.map((_, i) => i).filter((i) => Math.abs(xs[i] - x) <= rx && Math.abs(ys[i] - y) <= ry);
        for (const i of within) expect(found, `#${k} point ${i} (${xs[i]}, ${ys[i]})`).toContain(i);
      }
    }
  });
});
