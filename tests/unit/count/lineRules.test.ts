// Two of the counting line's rules (docs/operators/countLines.md), each with a scene where it decides the count:
// an object walking past the end of a short doorway line crosses the line's extension, not the line, and counts
// nothing; a thin object standing on a line with its centre a few pixels either way by turns is not clear of it
// (a tenth of its height at least), and counts nothing, while one walking through counts once.
import { describe, expect, it } from 'vitest';
import { trackSettings, type Box } from '../../../index.js';
import { CountingLines, Tracker } from '../../../extend.js';

/** The counts of `line` after the tracker and the line have seen `frames` frames of `boxes(t)`. */
function count(line: { id: string; a: readonly [number, number]; b: readonly [number, number] }, frames: number, boxes: (t: number) => Box[]) {
  const tracker = new Tracker(trackSettings({}));
  const lines = new CountingLines([line]);
  let counts = {};
  for (let t = 0; t < frames; t++) counts = lines.apply(tracker.update(boxes(t), t * 33_333, undefined, { width: 320, height: 240 })).counts;
  return counts;
}

describe('counting line rules', () => {
  // A doorway: a line 40 px long, upright at x = 160 from y = 60 to y = 100.
  const door = { id: 'door', a: [160, 100] as const, b: [160, 60] as const };

  it('counts an object walking through a short line, not one walking past its end', () => {
    const walk = (y: number) => (t: number): Box[] => [[20 + 4 * t, y, 20 + 4 * t + 15, y + 29]];
    // Through the doorway: its centre at y = 79.5, between the ends.
    expect(count(door, 70, walk(65))).toEqual({ door: { forward: 1, backward: 0 } });
    // Past its end, 60 px below: it crosses x = 160, the line's extension, and no line.
    expect(count(door, 70, walk(160))).toEqual({ door: { forward: 0, backward: 0 } });
  });

  it('counts nothing for a thin object standing on the line, its centre either side by turns', () => {
    const line = { id: 'mid', a: [160, 239] as const, b: [160, 0] as const };
    // 3 px wide and 60 tall, its centre 4 px left or 3 px right of the line by turns, ten frames each: clear of the
    // line by its own half-width, never by a tenth of its height (6 px).
    const jitter = (t: number): Box[] => {
      const x = Math.floor(t / 10) % 2 === 0 ? 155 : 162;
      return [[x, 90, x + 2, 149]];
    };
    expect(count(line, 90, jitter)).toEqual({ mid: { forward: 0, backward: 0 } });
    // The same object walking through counts once.
    expect(count(line, 90, (t) => [[100 + 2 * t, 90, 100 + 2 * t + 2, 149]])).toEqual({ mid: { forward: 1, backward: 0 } });
  });
});
