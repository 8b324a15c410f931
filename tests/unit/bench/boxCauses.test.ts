// bench/evaluation/boxCauses.ts on a scripted frame: each reported box under IoU 0.5 with every object classed by what
// the tracker reported it from (its own blob, two joined pieces, a group member's estimate) and how its blob lies on
// the objects (a piece of one, over two, off any); boxes on ignored objects left out.
import { describe, expect, it } from 'vitest';
import { boxCauses } from '../../../bench/evaluation/boxCauses.js';
import type { MotBox } from '../../../src/eval/motMetrics.js';
import type { ComponentFeatures } from '../../../src/components/componentFeatures.js';
import type { FrameResult, TrackInfo } from '../../../src/core/results.js';

type Rect = [number, number, number, number];

function frame(seq: number, blobs: Rect[], tracks: Partial<TrackInfo>[]): FrameResult {
  const col = (k: number) => Uint32Array.from(blobs, (b) => b[k]);
  const features = { label: Uint32Array.from(blobs, (_, i) => i + 1), x0: col(0), y0: col(1), x1: col(2), y1: col(3) } as unknown as ComponentFeatures;
  const infos = tracks.map((t) => ({ state: 'confirmed', piece: -1, merged: false, group: -1, ...t }) as TrackInfo);
  return { seq, timeUs: 0, width: 400, height: 100, timings: [], features, tracks: { tracks: infos, events: [], counts: {}, onLine: {}, zones: {} } };
}

const obj = (id: number, x: number, extra: Partial<MotBox> = {}): MotBox => ({ frame: 0, id, x0: x, y0: 0, x1: x + 19, y1: 39, ...extra });

describe('boxCauses', () => {
  it('classes boxes under IoU 0.5 by where they came from and how they lie on the objects', () => {
    const truth = [obj(1, 0), obj(2, 50), obj(3, 72), obj(4, 150), obj(5, 250, { ignore: true }), obj(6, 300), obj(7, 330)];
    const blobs: Rect[] = [
      [0, 0, 19, 39], // object 1 exactly
      [50, 0, 59, 14], // a piece of object 2 (150 px of 800)
      [50, 0, 91, 39], // over objects 2 and 3
      [180, 0, 199, 39], // beside object 4, on nothing
      [250, 0, 259, 9], // a piece of the ignored object 5
      [300, 0, 349, 39], // the group's blob over objects 6 and 7
    ];
    const r = frame(0, blobs, [
      { id: 1, blob: 0 },
      { id: 2, blob: 1 },
      { id: 3, blob: 2 },
      { id: 4, blob: 3 },
      { id: 5, blob: 4 },
      // A member whose estimate lies inside its group's blob but covers a sliver of object 7.
      { id: 6, blob: -1, merged: true, group: 5, box: [330, 0, 336, 39] },
    ]);
    const c = boxCauses(truth, [r]);
    expect(c.boxes).toBe(5);
    expect(c.under).toEqual({ piece: 1, several: 1, off: 1, pieces: 0, member: 1 });
  });
});
