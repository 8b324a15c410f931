/**
 * One marker per place: where several threshold windows (or several candidates) read the same ID at overlapping
 * places, the first is kept. Two markers with one ID closer than a quarter of their side would overlap on the
 * paper, so they are one marker seen twice (the later one often through a poorer quad). Where markers of different
 * dictionaries are read at one place, the one with the fewest corrected bits is kept, the first on a tie: a printed
 * marker belongs to one dictionary, and the nearer code is the likelier.
 */
import { centreOf } from './centreOf.js';

type Corners = readonly (readonly [number, number])[];

const meanSide = (c: Corners) => c.reduce((s, p, i) => s + Math.hypot(c[(i + 1) % 4][0] - p[0], c[(i + 1) % 4][1] - p[1]), 0) / 4;

export function distinctMarkers<T extends { id: number; corners: Corners; dictionary?: string; distance?: number }>(markers: readonly T[]): T[] {
  const kept: { m: T; at: [number, number]; side: number }[] = [];
  for (const m of markers) {
    const at = centreOf(m.corners);
    const side = meanSide(m.corners);
    const near = (k: (typeof kept)[number]) => Math.hypot(k.at[0] - at[0], k.at[1] - at[1]) < Math.min(k.side, side) / 4;
    if (kept.some((k) => k.m.id === m.id && k.m.dictionary === m.dictionary && near(k))) continue;
    const other = kept.findIndex((k) => k.m.dictionary !== m.dictionary && near(k));
    if (other < 0) kept.push({ m, at, side });
    else if ((m.distance ?? 0) < (kept[other].m.distance ?? 0)) kept[other] = { m, at, side };
  }
  return kept.map((k) => k.m);
}
