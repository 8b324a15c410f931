/** A zone's geometry and its result per frame (Tracker's zones step). */
import type { TrackResults } from '../results.js';

/** Whether (x, y) is inside a polygon given as x0, y0, x1, y1, … (even-odd rule). */
export function inside(polygon: Float64Array, x: number, y: number): boolean {
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
 * are, and building a `Map` of the zone's tracks was two fifths of the zones' time a frame (bench/tracker.js). A
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
