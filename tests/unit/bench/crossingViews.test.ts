// bench/evaluation/crossingViews.ts on scripted frames: each truth crossing classed by what the blobs show of its object (alone,
// sharing a blob, hidden or in no blob) and counted only by a count the same way, in time, from a track on the object.
import { describe, expect, it } from 'vitest';
import { crossingViews, describeViews } from '../../../bench/evaluation/crossingViews.js';
import type { MotBox } from '../../../src/eval/motMetrics.js';
import type { ComponentFeatures } from '../../../src/components/componentFeatures.js';
import type { FrameResult, TrackEvent, TrackInfo } from '../../../src/core/results.js';

type Rect = [number, number, number, number];

/** A frame's result: its blobs (features' boxes) and the tracks and events the tracker reported. */
function frame(seq: number, blobs: Rect[], tracks: { id: number; box: Rect }[] = [], events: TrackEvent[] = []): FrameResult {
  const col = (k: number) => Uint32Array.from(blobs, (b) => b[k]);
  const features = { label: Uint32Array.from(blobs, (_, i) => i + 1), x0: col(0), y0: col(1), x1: col(2), y1: col(3) } as unknown as ComponentFeatures;
  const infos = tracks.map((t) => ({ id: t.id, state: 'confirmed', box: t.box }) as unknown as TrackInfo);
  return { seq, timeUs: seq * 33_333, width: 200, height: 100, timings: [], features, tracks: { tracks: infos, events, counts: {}, onLine: {}, zones: {} } };
}

const at = (frame: number, id: number, x: number, extra: Partial<MotBox> = {}): MotBox => ({ frame, id, x0: x, y0: 10, x1: x + 19, y1: 49, ...extra });
const crossed = (id: number, direction: 'forward' | 'backward'): TrackEvent => ({ type: 'crossed', id, timeUs: 0, line: 'middle', direction });

describe('crossingViews', () => {
  // Object 1 walks right over x = 100 alone (its centre 99.5 at frame 4, 101.5 at frame 5); object 2 walks left at
  // y 50..89 inside one blob with object 3; object 4 crosses right while barely visible.
  const frames = 12;
  const truth: MotBox[] = [];
  for (let f = 0; f < frames; f++) {
    truth.push(at(f, 1, 82 + 2 * f));
    truth.push(at(f, 2, 120 - 4 * f, { y0: 50, y1: 89 }));
    truth.push(at(f, 3, 124 - 4 * f, { y0: 50, y1: 89 }));
    truth.push(at(f, 4, 70 + 3 * f, { y0: 0, y1: 8, ignore: f === 7 }));
  }
  const blobsOf = (f: number): Rect[] => [
    [82 + 2 * f, 10, 101 + 2 * f, 49],
    [120 - 4 * f, 50, 143 - 4 * f, 89],
    [70 + 3 * f, 0, 89 + 3 * f, 8],
  ];
  const truthAt = (f: number, id: number) => truth.find((t) => t.frame === f && t.id === id)!;
  const boxOf = (t: MotBox): Rect => [t.x0, t.y0, t.x1, t.y1];

  it('classes each crossing by what the blobs show and counts those a track on the object counted', () => {
    const results = Array.from({ length: frames }, (_, f) => {
      // Track 11 on object 1 counts forward at frame 6; track 12 on object 2 counts backward at frame 8; a track
      // on no object counts forward at frame 9.
      const tracks = [
        { id: 11, box: boxOf(truthAt(f, 1)) },
        { id: 12, box: boxOf(truthAt(f, 2)) },
        { id: 13, box: [150, 90, 160, 99] as Rect },
      ];
      const events = f === 6 ? [crossed(11, 'forward')] : f === 8 ? [crossed(12, 'backward')] : f === 9 ? [crossed(13, 'forward')] : [];
      return frame(f, blobsOf(f), tracks, events);
    });
    const v = crossingViews(truth, results, 'middle', 100);
    expect(v.views).toEqual({
      alone: { crossings: 1, counted: 1 },
      shared: { crossings: 2, counted: 1 },
      hidden: { crossings: 1, counted: 0 },
    });
    // Object 4's crossing is forward and near in time, but track 13's box is not on it.
    expect(v.unattributed).toBe(1);
    // Two crossings not counted and one count given to none: 3, where the line error (counts each way) is 1.
    expect(describeViews(v)).toBe(
      'alone in its blob 1 (25 %), 100.0 % counted; in a blob with another object 2 (50 %), 50.0 % counted; hidden or in no blob 1 (25 %), 0.0 % counted; crossings not counted: 2 (their object inside a track that counted another: 0; a different track on each side: 0; no track on a side: 2; one track on both sides that counted none: 0); counts given to no crossing: 1; crossings not counted and counts given to none, summed: 3',
    );
  });

  it('gives a count to no crossing the other way, on another line, or more than 45 frames away', () => {
    const results = Array.from({ length: frames }, (_, f) => {
      const tracks = [{ id: 11, box: boxOf(truthAt(f, 1)) }];
      const events = f === 6 ? [crossed(11, 'backward'), { ...crossed(11, 'forward'), line: 'other' }] : [];
      return frame(f, blobsOf(f), tracks, events);
    });
    const v = crossingViews(truth, results, 'middle', 100);
    expect(v.views.alone).toEqual({ crossings: 1, counted: 0 });
    expect(v.unattributed).toBe(1);
    // Object 1 crosses at frame 5; a count on it at frame 50 is in time, at frame 51 not.
    for (const [when, counted] of [[50, 1], [51, 0]]) {
      const long = Array.from({ length: 60 }, (_, f) => {
        const box: Rect = [82 + 2 * f, 10, 101 + 2 * f, 49];
        return frame(f, [box], [{ id: 11, box }], f === when ? [crossed(11, 'forward')] : []);
      });
      const one = Array.from({ length: 60 }, (_, f) => at(f, 1, 82 + 2 * f));
      expect(crossingViews(one, long, 'middle', 100).views.alone).toEqual({ crossings: 1, counted });
    }
  });

  it('classes each crossing not counted by the tracks on its object either side of the line', () => {
    // Five objects walk right over x = 100 at 2 px a frame, each in a row of its own but B, which walks inside A's
    // blob; their centres pass 100 at frame 30. A has track 21 all along, which counts at frame 32 (A's crossing);
    // B is inside track 21's box (together); C has track 31 before and 32 after (switched); D has no track
    // (untracked); E has track 51 all along, which counts nothing (uncounted).
    const n = 60;
    const rows = { A: 0, B: 2, C: 100, D: 200, E: 300 } as const;
    const ids = { A: 1, B: 2, C: 3, D: 4, E: 5 } as const;
    const boxAt = (f: number, y: number): Rect => [31 + 2 * f, y, 50 + 2 * f, y + 39];
    const objects = Object.keys(rows) as (keyof typeof rows)[];
    const truth2: MotBox[] = [];
    for (let f = 0; f < n; f++) for (const o of objects) {
      const [x0, y0, x1, y1] = boxAt(f, rows[o]);
      truth2.push({ frame: f, id: ids[o], x0, y0, x1, y1 });
    }
    const results = Array.from({ length: n }, (_, f) => {
      const blobs: Rect[] = [boxAt(f, 0).map((v, k) => (k === 3 ? v + 2 : v)) as Rect, boxAt(f, 100), boxAt(f, 200), boxAt(f, 300)];
      const tracks = [
        { id: 21, box: blobs[0] },
        { id: f < 30 ? 31 : 32, box: boxAt(f, 100) },
        { id: 51, box: boxAt(f, 300) },
      ];
      return frame(f, blobs, tracks, f === 32 ? [crossed(21, 'forward')] : []);
    });
    const v = crossingViews(truth2, results, 'middle', 100);
    expect(v.views.shared).toEqual({ crossings: 2, counted: 1 });
    expect(v.views.alone).toEqual({ crossings: 3, counted: 0 });
    expect(v.missed).toEqual({ together: 1, switched: 1, untracked: 1, uncounted: 1 });
    expect(describeViews(v)).toContain(
      'crossings not counted: 4 (their object inside a track that counted another: 1; a different track on each side: 1; no track on a side: 1; one track on both sides that counted none: 1)',
    );
    // A track lost on the object is no track on it: E's track lost through the clip leaves E untracked.
    const lost = results.map((r) => ({ ...r, tracks: { ...r.tracks!, tracks: r.tracks!.tracks.map((t) => (t.id === 51 ? { ...t, state: 'lost' as const } : t)) } }));
    expect(crossingViews(truth2, lost, 'middle', 100).missed).toEqual({ together: 1, switched: 1, untracked: 2, uncounted: 0 });
    // Within 45 frames: a count by track 21 at frame 30 + 45 still makes B's miss 'together', at 30 + 46 not.
    for (const [when, kind] of [[75, 'together'], [76, 'uncounted']] as const) {
      const later = Array.from({ length: 80 }, (_, f) => {
        const blob = boxAt(f, 0).map((v, k) => (k === 3 ? v + 2 : v)) as Rect;
        return frame(f, [blob], [{ id: 21, box: blob }], f === when ? [crossed(21, 'forward')] : []);
      });
      const two = Array.from({ length: 80 }, (_, f) => [0, 2].map((y, i) => { const [x0, y0, x1, y1] = boxAt(f, y); return { frame: f, id: i + 1, x0, y0, x1, y1 }; })).flat();
      expect(crossingViews(two, later, 'middle', 100).missed[kind], `count at ${when}`).toBe(when === 75 ? 1 : 2);
    }
  });
});
