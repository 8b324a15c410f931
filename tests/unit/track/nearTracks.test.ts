// The tracks near a leftover blob (src/track/NearTracks.ts) against looking at every track: every track one of whose
// boxes that partOfTracked and inheritSides test (its estimate, its prediction widened back over its pulls, its last
// own observations) overlaps the blob is among them, in the order of the list indexed.
import { describe, expect, it } from 'vitest';
import { NearTracks } from '../../../src/track/NearTracks.js';
import { Track } from '../../../src/track/Track.js';
import { observed, splitRecent } from '../../../src/track/tuning.js';
import { defaultTrackSettings } from '../../../src/track/TrackSettings.js';
import { rng } from '../../../src/eval/images.js';

type Rect = [number, number, number, number];

/** Whether two boxes of inclusive bounds share a pixel. */
const overlap = (a: ArrayLike<number>, b: ArrayLike<number>) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/** The boxes of track t that partOfTracked and inheritSides look at. */
function boxesOf(t: Track): number[][] {
  const boxes = [Array.from(t.box(new Float64Array(4)))];
  const p = t.predicted;
  // coastedOver: the prediction widened back over its pulls.
  const q = [p[0], p[1], p[2], p[3]];
  for (let axis = 0; axis < 2; axis++) {
    const d = t.pullOffset[axis];
    if (d > 0) q[axis] -= d;
    else q[axis + 2] -= d;
  }
  boxes.push(q);
  for (let k = 1; k <= Math.min(t.seenCount, splitRecent); k++) {
    const e = 4 * ((t.seenNext + observed - k) % observed);
    boxes.push(Array.from(t.seenBox.subarray(e, e + 4)));
  }
  return boxes;
}

describe('NearTracks', () => {
  it('finds every track whose boxes overlap a blob, in the order of the list indexed, over many frames and sizes', () => {
    const r = rng(17);
    const near = new NearTracks();
    for (let round = 0; round < 30; round++) {
      const n = 32 + Math.floor(r() * 150);
      // Even rounds: some tracks far out or large (the index's reach grows with the largest). Odd ones: all small,
      // and one track drawn 150–300 px by a group's blob on one axis (its pull), whose widened prediction alone
      // reaches blobs there.
      const wide = round % 2 === 0;
      // Tracks walking a few frames over a 1920×1080 frame, measured on their blobs; then predicted a frame on.
      const tracks = Array.from({ length: n }, (_, id) => {
        const far = wide && r() < 0.05 ? 1e5 : 0;
        const [w, h] = [4 + r() * (wide && r() < 0.1 ? 400 : 40), 4 + r() * (wide && r() < 0.1 ? 300 : 60)];
        const [x, y, vx, vy] = [far + r() * 1920, r() * 1080, (r() - 0.5) * 6, (r() - 0.5) * 6];
        const first = Float64Array.from([x, y, x + w - 1, y + h - 1]);
        const t = new Track(id + 1, first, 0, defaultTrackSettings);
        const frames = Math.floor(r() * 15);
        for (let f = 1; f <= frames; f++) {
          t.predict(1 / 30, 1);
          // A blob that jumps now and then (a piece, a neighbour's), as blobs do; in odd rounds, less far.
          const jump = r() < 0.2 ? (r() - 0.5) * (wide ? 200 : 60) : 0;
          const b = Float64Array.from([x + vx * f + jump, y + vy * f, x + vx * f + jump + w * (0.5 + r()), y + vy * f + h * (0.5 + r())]);
          t.measure(b, 0, 0);
        }
        if (wide && r() < 0.3) {
          t.pullOffset[0] = (r() - 0.5) * 60;
          t.pullOffset[1] = (r() - 0.5) * 60;
        }
        t.predict(1 / 30, 1);
        return t;
      });
      const pulled = tracks[Math.floor(r() * n)];
      const axis = r() < 0.5 ? 0 : 1;
      if (!wide) pulled.pullOffset[axis] = (r() < 0.5 ? -1 : 1) * (150 + r() * 150);
      near.index(tracks);
      for (let k = 0; k < 40; k++) {
        // Half the blobs (odd rounds) where only the pulled track's widened prediction reaches.
        const [px, py] = (() => {
          const p = pulled.predicted;
          const d = pulled.pullOffset[axis];
          const at = d > 0 ? p[axis] - d * r() : p[axis + 2] - d * r();
          return axis === 0 ? [at, p[1]] : [p[0], at];
        })();
        const [bx, by] = !wide && k % 2 ? [px, py] : [(r() - 0.05) * 2000, (r() - 0.05) * 1150];
        const blob: Rect = [bx, by, bx + r() * 80, by + r() * 120];
        const bb = Float64Array.from([0, 0, 0, 0, ...blob]);
        const found = near.near(bb, 1);
        const at = found.map((t) => tracks.indexOf(t));
        expect(at.every((i, m) => i >= 0 && (m === 0 || i > at[m - 1])), `round ${round}: in order, each once`).toBe(true);
        for (const t of tracks) {
          if (boxesOf(t).some((b) => overlap(b, blob))) expect(found, `round ${round} blob ${k}: track ${t.id}`).toContain(t);
        }
      }
    }
  });
});
