/**
 * Trails after the tracker (trails()): each track's recent estimated centres, oldest first, from its first frame on.
 * Each frame's result holds its own copy, which later frames never change: with 60 centres and 50 tracks that copy is
 * a sixth of the tracker's time a frame and most of its garbage, so a stream nobody draws trails of is better off
 * without.
 */
import type { TrackResults } from '../core/results.js';
import type { Track } from './Track.js';
import { trackFrameOf, withTrackFrame } from './trackFrame.js';

export class Trails {
  readonly #length: number;
  /** Each track's centres, trimmed now and then rather than shifted every frame; points never change once pushed. */
  readonly #trails = new WeakMap<Track, (readonly [number, number])[]>();

  /** `length`: centres kept a track (a positive integer). */
  constructor(length: number) {
    this.#length = length;
  }

  /** The trails of the frame `r` came from, as its tracks' `trail`. Throws an `InvalidFrameError` for results track() did not make this frame. */
  apply(r: TrackResults): TrackResults {
    const f = trackFrameOf(r, 'trails');
    const n = this.#length;
    const tracks = r.tracks.map((info, i) => {
      const t = f.tracks[i];
      const point = [t.kf.p(0), t.kf.p(1)] as const;
      let trail = this.#trails.get(t);
      if (!trail) this.#trails.set(t, (trail = [point]));
      else trail.push(point);
      if (trail.length >= 2 * n) trail.splice(0, trail.length - n);
      return { ...info, trail: trail.slice(-n) };
    });
    return withTrackFrame({ ...r, tracks }, f);
  }
}
