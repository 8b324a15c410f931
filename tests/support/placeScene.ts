// Scripted blobs with spatial histograms for track()'s placeByGray (src/track/placeMembers.ts), shared by the unit
// tests in Node and the Chromium page: built in plain code, no Node module.
import { bins } from '../../src/track/Track.js';
import { Tracker } from '../../src/track/Tracker.js';
import { trackSettings, type TrackInfo } from '../../index.js';

/** One blob's histogram (counts) and bin places (means; NaN where empty) from objects [bin, pixels, x, y]. */
export function placedBlob(objects: [number, number, number, number][]): { h: Float64Array; x: Float64Array; y: Float64Array } {
  const h = new Float64Array(bins);
  const x = new Float64Array(bins).fill(NaN);
  const y = new Float64Array(bins).fill(NaN);
  const sx = new Float64Array(bins);
  const sy = new Float64Array(bins);
  for (const [b, n, cx, cy] of objects) {
    h[b] += n;
    sx[b] += n * cx;
    sy[b] += n * cy;
  }
  for (let b = 0; b < bins; b++) if (h[b] > 0) [x[b], y[b]] = [sx[b] / h[b], sy[b] / h[b]];
  return { h, x, y };
}

/**
 * A dark object (bin 2) walks right at 2 px a frame toward a light one (bin 14) standing at x 140..159, in front of
 * it; it stops at x 124..143 for 40 frames inside their one blob, then walks on. The tracks at frame 59, when the dark
 * object's centre is at x 133.5 (id 1 its track), with placeByGray on and the bins' places given to the tracker or not.
 */
export function darkStopsInLight(withPlaces: boolean): TrackInfo[] {
  const darkAt = (f: number) => (f < 22 ? 80 + 2 * f : f < 62 ? 124 : 124 + 2 * (f - 62));
  const tracker = new Tracker(trackSettings({ maxUnseen: 2, placeByGray: true }));
  let tracks: TrackInfo[] = [];
  for (let f = 0; f < 60; f++) {
    const d = darkAt(f);
    const apart = d + 19 < 139;
    const boxes = apart ? [[d, 50, d + 19, 89] as const, [140, 50, 159, 89] as const] : [[d, 50, Math.max(d + 19, 159), 89] as const];
    // The light one's columns the dark one does not cover.
    const from = Math.max(140, d + 20);
    const lightSeen: [number, number, number, number] = [14, (159 - from + 1) * 40, (from + 159) / 2, 69.5];
    const parts = apart ? [placedBlob([[2, 800, d + 9.5, 69.5]]), placedBlob([[14, 800, 149.5, 69.5]])] : [placedBlob([[2, 800, d + 9.5, 69.5], lightSeen])];
    const h = Float64Array.from(parts.flatMap((p) => Array.from(p.h)));
    const x = Float64Array.from(parts.flatMap((p) => Array.from(p.x)));
    const y = Float64Array.from(parts.flatMap((p) => Array.from(p.y)));
    tracks = tracker.update(boxes, f * 33_333, h, { width: 320, height: 240 }, withPlaces ? x : null, withPlaces ? y : null).tracks;
  }
  return tracks;
}
