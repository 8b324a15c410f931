// bench/evaluation/countBounds.ts on scripted frames: what a line would count from the blobs with every object's identity known,
// by blobs of an object's own and by any blob holding it that lies wholly on a side.
import { describe, expect, it } from 'vitest';
import { countBounds } from '../../../bench/evaluation/countBounds.js';
import { lineCrossings, type MotBox } from '../../../src/eval/motMetrics.js';
import type { ComponentFeatures } from '../../../src/components/componentFeatures.js';
import type { FrameResult } from '../../../src/core/results.js';

type Rect = [number, number, number, number];

/** A frame's blobs as its features' boxes. */
function frame(seq: number, blobs: Rect[]): FrameResult {
  const col = (k: number) => Uint32Array.from(blobs, (b) => b[k]);
  const features = { label: Uint32Array.from(blobs, (_, i) => i + 1), x0: col(0), y0: col(1), x1: col(2), y1: col(3) } as unknown as ComponentFeatures;
  return { seq, timeUs: seq * 33_333, width: 200, height: 200, timings: [], features };
}

const box = (frame: number, id: number, [x0, y0, x1, y1]: Rect, ignore = false): MotBox => ({ frame, id, x0, y0, x1, y1, ignore });

describe('countBounds', () => {
  // Over 40 frames, about the vertical line x = 100: object 1 walks right alone (its own blob); objects 2 and 3 walk
  // left side by side, always one blob; object 4 is 60 px wide and drifts right by 20 px, its centre over the line
  // while its blob always straddles it; object 5 walks right alone, but inside a blob with object 6 (standing
  // far right) from frame 30, wholly past the line.
  const frames = 40;
  const truth: MotBox[] = [];
  const results: FrameResult[] = [];
  for (let f = 0; f < frames; f++) {
    const one: Rect = [50 + 3 * f, 0, 69 + 3 * f, 29];
    const two: Rect = [150 - 3 * f, 40, 169 - 3 * f, 69];
    const three: Rect = [172 - 3 * f, 40, 191 - 3 * f, 69];
    const four: Rect = [60 + f / 2, 80, 119 + f / 2, 109];
    const five: Rect = [40 + 3 * f, 120, 59 + 3 * f, 149];
    const six: Rect = [158, 120, 177, 149];
    truth.push(box(f, 1, one), box(f, 2, two), box(f, 3, three), box(f, 4, four), box(f, 5, five), box(f, 6, six));
    const fiveSix: Rect[] = f < 30 ? [five, six] : [[five[0], 120, six[2], 149]];
    results.push(frame(f, [one, [two[0], 40, three[2], 69], four, ...fiveSix]));
  }

  it('counts the lone walkers by their own blobs, and the pair only where it knows who is in a blob', () => {
    const truthCounts = lineCrossings(truth, 100);
    expect(truthCounts).toEqual({ forward: 3, backward: 2 });
    const { own, wholly } = countBounds(truth, results, 100);
    // Own blobs: objects 1 and 5 (5 was seen alone before the line and past it in frames 21-29).
    expect(own).toEqual({ forward: 2, backward: 0 });
    // Any blob wholly on a side: the pair too; object 4 by neither.
    expect(wholly).toEqual({ forward: 2, backward: 2 });
  });

  it('takes no blob as an object\'s own where another visible object\'s centre lies in it; a barely visible one does not count', () => {
    // A walks right over x = 100 in a blob that is its box; B, a small object, rides inside A's box.
    const both = (ignoreB: boolean) =>
      Array.from({ length: 30 }, (_, f) => [box(f, 1, [40 + 3 * f, 120, 59 + 3 * f, 149]), box(f, 2, [52 + 3 * f, 142, 59 + 3 * f, 149], ignoreB)]).flat();
    const blobs = Array.from({ length: 30 }, (_, f) => frame(f, [[40 + 3 * f, 120, 59 + 3 * f, 149]]));
    expect(countBounds(both(false), blobs, 100).own).toEqual({ forward: 0, backward: 0 });
    expect(countBounds(both(true), blobs, 100).own).toEqual({ forward: 1, backward: 0 });
    expect(countBounds(both(false), blobs, 100).wholly).toEqual({ forward: 2, backward: 0 });
  });

  it('counts on a horizontal line with axis y', () => {
    const down = Array.from({ length: 30 }, (_, f) => box(f, 1, [50, 20 + 4 * f, 69, 49 + 4 * f]));
    const blobs = down.map((t, f) => frame(f, [[t.x0, t.y0, t.x1, t.y1]]));
    expect(lineCrossings(down, 100, 'y')).toEqual({ forward: 1, backward: 0 });
    expect(countBounds(down, blobs, 100, 'y')).toEqual({ own: { forward: 1, backward: 0 }, wholly: { forward: 1, backward: 0 } });
    expect(countBounds(down, blobs, 100, 'x')).toEqual({ own: { forward: 0, backward: 0 }, wholly: { forward: 0, backward: 0 } });
  });
});
