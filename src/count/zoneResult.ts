/** A zone's geometry and its result per frame (Zones.ts). */
import type { TrackResults } from '../core/results.js';

/** A polygon's bounds (x0, y0, x1, y1), given as x0, y0, x1, y1, … */
export function zoneBounds(polygon: Float64Array): Float64Array {
  const b = Float64Array.of(Infinity, Infinity, -Infinity, -Infinity);
  for (let i = 0; i < polygon.length; i += 2) {
    b[0] = Math.min(b[0], polygon[i]);
    b[1] = Math.min(b[1], polygon[i + 1]);
    b[2] = Math.max(b[2], polygon[i]);
    b[3] = Math.max(b[3], polygon[i + 1]);
  }
  return b;
}

/**
 * Whether (x, y) is inside a polygon given as x0, y0, x1, y1, … (even-odd rule), whose bounds are `bounds`
 * (zoneBounds). A point beyond them is outside without a look at the edges (most tracks, most frames, every frame):
 * under the lowest corner or at or over the highest no edge spans its y; more than a pixel left of the leftmost,
 * every edge that spans its y lies right of it, and there are an even number of those; more than a pixel right of the
 * rightmost, none (a pixel: more than the crossing's rounding), so the answer is the one the edges would give.
 */
export function inside(polygon: Float64Array, bounds: Float64Array, x: number, y: number): boolean {
  if (!(y >= bounds[1] && y < bounds[3] && x >= bounds[0] - 1 && x <= bounds[2] + 1)) return false;
  let into = false;
  const corners = polygon.length / 2;
  for (let i = 0, j = corners - 1; i < corners; j = i++) {
    const xi = polygon[2 * i];
    const yi = polygon[2 * i + 1];
    const xj = polygon[2 * j];
    const yj = polygon[2 * j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) into = !into;
  }
  return into;
}

/**
 * A zone's result. Its dwell times are kept as [id, seconds, …] and made a `Map` when first read: most frames' never
 * are, and building a `Map` of the zone's tracks was two fifths of the zones' time a frame (bench/timing/tracker.js). A
 * getter of the object itself, so that spreading, `structuredClone` and `postMessage` still copy the `Map`.
 */
export function zoneResult(occupancy: number, dwell: readonly number[]): TrackResults['zones'][string] {
  let map: Map<number, number> | undefined;
  return {
    occupancy,
    get dwell() {
      if (!map) {
        map = new Map();
        for (let i = 0; i < dwell.length; i += 2) map.set(dwell[i], dwell[i + 1]);
      }
      return map;
    },
  };
}
