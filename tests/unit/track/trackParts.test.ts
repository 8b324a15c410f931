// countLines(), zones() and trails() as operators after track() in an rxjs chain (no GPU: scripted features): each
// adds its own part of the results and events, the same as the parts composed by hand over one tracker; each ends the
// stream with InvalidFrameError where it does not follow track(), or where results are held back past the next frame.
import { describe, expect, it } from 'vitest';
import { concatMap, from, lastValueFrom, bufferCount, toArray, type OperatorFunction } from 'rxjs';
import { countLines, trackEvents, trails, track, trackSettings, zones, InvalidFrameError, InvalidOptionError, type Box, type FrameResult } from '../../../index.js';
import { CountingLines, Tracker, Trails, Zones } from '../../../extend.js';
import type { ComponentFeatures } from '../../../src/components/componentFeatures.js';

/** Frame t's features: an object walking right 5 px a frame, and one walking left 4 px a frame lower down. */
function boxes(t: number): Box[] {
  return [
    [5 * t, 40, 5 * t + 19, 79],
    [300 - 4 * t, 120, 300 - 4 * t + 23, 169],
  ];
}

function frame(t: number): FrameResult {
  const b = boxes(t);
  const col = (k: number) => Uint32Array.from(b, (box) => box[k]);
  const features = { label: Uint32Array.from(b, (_, i) => i + 1), x0: col(0), y0: col(1), x1: col(2), y1: col(3) } as unknown as ComponentFeatures;
  return { seq: t, timeUs: t * 33_333, width: 320, height: 240, timings: [], features };
}

const frames = 60;
const line = { id: 'middle', a: [160, 239] as const, b: [160, 0] as const };
const zone = { id: 'left', polygon: [[0, 0], [100, 0], [100, 239], [0, 239]] as [number, number][] };
const through = <T>(op: OperatorFunction<FrameResult, T>) => lastValueFrom(from(Array.from({ length: frames }, (_, t) => frame(t))).pipe(op, toArray()));

describe('track() parts as operators', () => {
  it('countLines(), zones() and trails() after track() give what the parts give over the tracker by hand', async () => {
    const streamed = await through((s) => s.pipe(track(), countLines({ lines: [line] }), zones({ zones: [zone] }), trails({ length: 8 })));
    const tracker = new Tracker(trackSettings({}));
    const parts = [new CountingLines([line]), new Zones([zone]), new Trails(8)];
    const byHand = Array.from({ length: frames }, (_, t) => parts.reduce((r, p) => p.apply(r), tracker.update(boxes(t), t * 33_333, undefined, { width: 320, height: 240 })));
    expect(streamed.map((r) => r.tracks)).toEqual(byHand);
    // Both objects crossed the line, one each way; the right-walker started in the zone and left it, the left-walker
    // entered it and is in it at the end.
    const last = streamed[frames - 1].tracks!;
    expect(last.counts.middle).toEqual({ forward: 1, backward: 1 });
    expect(last.zones.left.occupancy).toBe(1);
    expect(last.tracks.every((k) => k.trail.length === 8)).toBe(true);
    const events = await through((s) => s.pipe(track(), countLines({ lines: [line] }), zones({ zones: [zone] }), trackEvents()));
    expect(events.filter((e) => e.type === 'crossed').map((e) => e.type === 'crossed' && e.direction).sort()).toEqual(['backward', 'forward']);
    expect(events.filter((e) => e.type === 'zoneEntered')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'zoneLeft')).toHaveLength(1);
  });

  it('without a part, its fields stay empty: no counts, no zones, no trails', async () => {
    const last = (await through((s) => s.pipe(track())))[frames - 1].tracks!;
    expect(last.counts).toEqual({});
    expect(last.zones).toEqual({});
    expect(last.tracks.every((k) => k.trail.length === 0)).toBe(true);
  });

  it('ends the stream with InvalidFrameError where a part does not follow track() or results are held back', async () => {
    await expect(through((s) => s.pipe(countLines({ lines: [line] })))).rejects.toThrow('countLines: the result has no tracks; put countLines() after track()');
    // Results copied on the way are no longer the tracker's.
    const copied: OperatorFunction<FrameResult, FrameResult> = (s) => s.pipe(track(), concatMap((r) => [{ ...r, tracks: { ...r.tracks! } }]), zones({ zones: [zone] }));
    await expect(through(copied)).rejects.toThrow(InvalidFrameError);
    // Two frames held back together: the first of them is a frame the tracker has moved on from.
    await expect(through((s) => s.pipe(track(), bufferCount(2), concatMap((pair) => pair), trails()))).rejects.toThrow('track() has moved on to a later frame');
  });

  it('refuses bad options when the operator is made', () => {
    expect(() => countLines({ lines: [{ id: 'l', a: [0, 0], b: [0, 0] }] })).toThrow(InvalidOptionError);
    expect(() => zones({ zones: [{ id: 'z', polygon: [[0, 0], [1, 1]] }] })).toThrow(InvalidOptionError);
    for (const length of [0, -1, 2.5, NaN]) expect(() => trails({ length }), String(length)).toThrow(InvalidOptionError);
    expect(() => track({ trailLength: 60 } as never)).toThrow('trailLength moved to trails(), an operator after track(): track(), trails({ length: … })');
  });
});
