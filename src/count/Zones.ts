/**
 * Zones after the tracker (zones()): per zone, the confirmed (and coasting) tracks whose estimated centre lies inside
 * it now, and each one's seconds inside so far, with an event when a track enters or leaves one. A track that leaves
 * the stream leaves its zones: its zoneLeft events follow its left event.
 */
import type { TrackEvent, TrackResults } from '../core/results.js';
import { trackFrameOf, withTrackFrame } from '../track/trackFrame.js';
import { inside, zoneBounds, zoneResult } from './zoneResult.js';

export interface Zone {
  id: string;
  /** A polygon's corners, in order. */
  polygon: readonly (readonly [number, number])[];
}

/** What zones keep of one track: per zone its seconds inside (NaN if never inside), and the zones it is in, in order. */
interface ZoneState {
  readonly dwell: Float64Array;
  readonly zonesIn: number[];
}

export class Zones {
  readonly #zones: readonly Zone[];
  /** The zones' polygons, flat, and their bounds (zoneBounds). */
  readonly #polygons: Float64Array[];
  readonly #bounds: Float64Array[];
  /** By track id, from its first frame not tentative until it leaves. */
  readonly #states = new Map<number, ZoneState>();

  constructor(zones: readonly Zone[]) {
    this.#zones = zones;
    this.#polygons = zones.map((z) => Float64Array.from(z.polygon.flat()));
    this.#bounds = this.#polygons.map(zoneBounds);
  }

  /**
   * The zones of the frame `r` came from (track()'s results or another part's): `zones` filled, the zone events added
   * to its events. Throws an `InvalidFrameError` for results track() did not make this frame.
   */
  apply(r: TrackResults): TrackResults {
    const f = trackFrameOf(r, 'zones');
    const n = this.#zones.length;
    const zones: TrackResults['zones'] = {};
    if (n === 0) return withTrackFrame({ ...r, zones }, f);
    const { timeUs, dt } = f;
    const events: TrackEvent[] = [];
    for (const e of r.events) {
      events.push(e);
      const st = e.type === 'left' ? this.#states.get(e.id) : undefined;
      if (!st) continue;
      for (const z of st.zonesIn) events.push({ type: 'zoneLeft', id: e.id, timeUs, zone: this.#zones[z].id });
      this.#states.delete(e.id);
    }
    const occupancy = new Array<number>(n).fill(0);
    const dwell: number[][] = Array.from({ length: n }, () => []);
    for (const t of f.tracks) {
      if (t.state === 'tentative') continue;
      let st = this.#states.get(t.id);
      if (!st) this.#states.set(t.id, (st = { dwell: new Float64Array(n).fill(NaN), zonesIn: [] }));
      const cx = t.kf.p(0);
      const cy = t.kf.p(1);
      for (let k = 0; k < n; k++) {
        const z = this.#zones[k];
        const now = inside(this.#polygons[k], this.#bounds[k], cx, cy);
        const at = st.zonesIn.indexOf(k);
        if (now && at < 0) {
          events.push({ type: 'zoneEntered', id: t.id, timeUs, zone: z.id });
          st.zonesIn.push(k);
        } else if (!now && at >= 0) {
          events.push({ type: 'zoneLeft', id: t.id, timeUs, zone: z.id });
          st.zonesIn.splice(at, 1);
        }
        if (now) {
          st.dwell[k] = (Number.isNaN(st.dwell[k]) ? 0 : st.dwell[k]) + dt;
          occupancy[k]++;
        }
        if (!Number.isNaN(st.dwell[k])) dwell[k].push(t.id, st.dwell[k]);
      }
    }
    for (let k = 0; k < n; k++) zones[this.#zones[k].id] = zoneResult(occupancy[k], dwell[k]);
    return withTrackFrame({ ...r, events, zones }, f);
  }
}
