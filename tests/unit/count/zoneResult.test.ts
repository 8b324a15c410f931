// A zone's point test with its bounds looked at first (src/count/zoneResult.ts) against the plain even-odd rule over
// every edge, on random polygons (convex and not, with corners on fractional coordinates) and points in and around
// them, many on or just past the bounds, where a shortcut would go wrong first.
import { describe, expect, it } from 'vitest';
import { inside, zoneBounds } from '../../../src/count/zoneResult.js';
import { rng } from '../../../src/eval/images.js';

/** The even-odd rule over every edge, nothing skipped. */
function evenOdd(polygon: number[], x: number, y: number): boolean {
  let into = false;
  const n = polygon.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const [xi, yi, xj, yj] = [polygon[2 * i], polygon[2 * i + 1], polygon[2 * j], polygon[2 * j + 1]];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) into = !into;
  }
  return into;
}

describe('inside (zones)', () => {
  it('says what the even-odd rule over every edge says, at and past the bounds too', () => {
    const r = rng(12);
    let checked = 0;
    let insideCount = 0;
    for (let p = 0; p < 200; p++) {
      const corners = 3 + Math.floor(r() * 8);
      const cx = r() * 1000;
      const cy = r() * 600;
      // A star-like polygon around (cx, cy): radii at random, so some are far from convex; half on whole pixels.
      const polygon = Array.from({ length: corners }, (_, i) => {
        const a = (2 * Math.PI * i) / corners;
        const radius = 20 + r() * 300;
        const [x, y] = [cx + radius * Math.cos(a), cy + radius * Math.sin(a)];
        return p % 2 ? [x, y] : [Math.round(x), Math.round(y)];
      }).flat();
      const flat = Float64Array.from(polygon);
      const b = zoneBounds(flat);
      expect([...b]).toEqual([Math.min(...polygon.filter((_, i) => i % 2 === 0)), Math.min(...polygon.filter((_, i) => i % 2 === 1)), Math.max(...polygon.filter((_, i) => i % 2 === 0)), Math.max(...polygon.filter((_, i) => i % 2 === 1))]);
      const xs = [b[0], b[2], b[0] - 1, b[2] + 1, b[0] - 1.5, b[2] + 1.5, b[0] + 1e-9, b[2] - 1e-9, ...polygon.filter((_, i) => i % 2 === 0)];
      const ys = [b[1], b[3], b[1] - 1e-9, b[3] - 1e-9, b[3] + 1e-9, ...polygon.filter((_, i) => i % 2 === 1)];
      const points: [number, number][] = [];
      for (const x of xs) for (const y of ys) points.push([x, y]);
      for (let k = 0; k < 300; k++) points.push([b[0] - 50 + r() * (b[2] - b[0] + 100), b[1] - 50 + r() * (b[3] - b[1] + 100)]);
      for (const [x, y] of points) {
        const want = evenOdd(polygon, x, y);
        expect(inside(flat, b, x, y), `polygon ${p} at ${x}, ${y}`).toBe(want);
        checked++;
        if (want) insideCount++;
      }
    }
    // Both answers were asked for many times.
    expect(insideCount).toBeGreaterThan(checked / 10);
    expect(checked - insideCount).toBeGreaterThan(checked / 10);
  });
});
