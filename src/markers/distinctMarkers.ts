/**
 * One marker per place: where several threshold windows (or several candidates) read the same ID at overlapping
 * places, the first is kept. Two markers with one ID closer than a quarter of their side would overlap on the
 * paper, so they are one marker seen twice (the later one often through a poorer quad).
 */
import { centreOf } from './centreOf.js';

type Corners = readonly (readonly [number, number])[];

const meanSide = (c: Corners) => c.reduce((s, p, i) => s + Math.hypot(c[(i + 1) % 4][0] - p[0], c[(i + 1) % 4][1] - p[1]), 0) / 4;

export function distinctMarkers<T extends { id: number; corners: Corners }>(markers: readonly T[]): T[] {
  const kept: { m: T; at: [number, number]; side: number }[] = [];
  for (const m of markers) {
    const at = centreOf(m.corners);
    const side = meanSide(m.corners);
    if (!kept.some((k) => k.m.id === m.id && Math.hypot(k.at[0] - at[0], k.at[1] - at[1]) < Math.min(k.side, side) / 4)) kept.push({ m, at, side });
  }
  return kept.map((k) => k.m);
}
