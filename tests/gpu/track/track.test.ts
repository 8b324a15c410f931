// track() at the end of the GPU chain: background → morphology → features → readResults → track over a synthetic
// fixed-camera clip (texture, noise, two people-sized objects crossing, one passing behind a pillar): ids kept with
// and without the blobs' histograms, a counting line counted; results without features refused; trackEvents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastValueFrom, toArray } from 'rxjs';
import { background, countLines, features, fromPixels, morphology, readResults, threshold, track, trackEvents, InvalidFrameError, type GpuContext, type PixelImage, type TrackResults } from '../../../index.js';
import { rng } from '../../../src/eval/images.js';
import { gray, testContext } from '../../support/gpu.js';

let ctx: GpuContext;
beforeAll(async () => {
  ctx = await testContext();
});
afterAll(() => ctx?.destroy());

const [W, H] = [200, 120];
/** Object i's box at frame t (x0, y0, x1, y1) or null before it enters. */
const objects = [
  (t: number) => [10 + 3 * t, 30, 10 + 3 * t + 13, 30 + 29],
  (t: number) => [180 - 3 * t, 36, 180 - 3 * t + 13, 36 + 29],
];
const pillar: [number, number] = [150, 175]; // x range, in front of the objects (lighter than both)

function clip(frames: number): PixelImage[] {
  const r = rng(21);
  const texture = Float64Array.from({ length: W * H }, (_, p) => 90 + 30 * Math.sin((p % W) / 6) + 15 * r());
  return Array.from({ length: frames }, (_, t) => {
    const data = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        let v = texture[y * W + x];
        objects.forEach((o, i) => {
          const [x0, y0, x1, y1] = o(t);
          if (t >= 8 && x >= x0 && x <= x1 && y >= y0 && y <= y1) v = i === 0 ? 225 : 20;
        });
        if (x >= pillar[0] && x < pillar[1]) v = 150; // the pillar hides what passes behind it
        data[y * W + x] = Math.max(0, Math.min(255, Math.round(v + (r() - 0.5) * 8)));
      }
    }
    return gray(W, H, data, t * 33_333);
  });
}

describe('track', () => {
  it('follows blobs from the GPU with lasting ids through a crossing and a pillar, and counts a line', async () => {
    const images = clip(60);
    const line = { id: 'gate', a: [100, 119] as const, b: [100, 0] as const }; // forward: west to east
    const results = await lastValueFrom(
      fromPixels(ctx, images).pipe(background({ learningRate: 0.005 }), morphology({ open: 3, close: 5 }), features({ minArea: 40, histogram: true }), readResults(), track(), countLines({ lines: [line] }), toArray()),
    );
    // The tracker had the blobs' histograms (its appearance cue): the bright object's pixels in the top bins, the dark one's
    // in the bottom ones.
    const f18 = results[18].features!;
    expect(f18.histogram!.length).toBe(16 * f18.label.length);
    for (let i = 0; i < f18.label.length; i++) expect(f18.histogram!.subarray(16 * i, 16 * i + 16).reduce((a, b) => a + b, 0)).toBe(f18.area[i]);
    const share = (i: number, from: number, to: number) => f18.histogram!.subarray(16 * i + from, 16 * i + to + 1).reduce((a, b) => a + b, 0) / f18.area[i];
    const blobs = Array.from(f18.label, (_, i) => i);
    expect(blobs.some((i) => share(i, 13, 15) > 0.9)).toBe(true);
    expect(blobs.some((i) => share(i, 0, 1) > 0.9)).toBe(true);
    const near = (r: TrackResults, x: number, y: number) =>
      r.tracks.filter((t) => t.state !== 'tentative').sort((a, b) => Math.hypot(a.cx - x, a.cy - y) - Math.hypot(b.cx - x, b.cy - y))[0];
    const centre = (i: number, t: number) => {
      const [x0, y0, x1, y1] = objects[i](t);
      return [(x0 + x1) / 2, (y0 + y1) / 2] as const;
    };
    const ids = [0, 1].map((i) => near(results[18].tracks!, ...centre(i, 18)).id);
    expect(ids[0]).not.toBe(ids[1]);
    // Frame 58: object 0 is past the crossing (frames ~24-33) and the pillar (~42-55), about to leave on the right;
    // object 1 came out from behind the pillar at the start and is past the crossing.
    for (const i of [0, 1]) {
      const t = near(results[58].tracks!, ...centre(i, 58));
      expect(t.id, `object ${i}`).toBe(ids[i]);
      expect(Math.hypot(t.cx - centre(i, 58)[0], t.cy - centre(i, 58)[1]), `object ${i} position`).toBeLessThan(4);
    }
    expect(results[58].tracks!.counts.gate).toEqual({ forward: 1, backward: 1 });
    const events = await lastValueFrom(
      fromPixels(ctx, images).pipe(background({ learningRate: 0.005 }), morphology({ open: 3, close: 5 }), features({ minArea: 40 }), readResults(), track(), countLines({ lines: [line] }), trackEvents(), toArray()),
    );
    // Without histograms (the second run), the same ids enter.
    expect(events.filter((e) => e.type === 'entered').map((e) => e.id).sort()).toEqual([...ids].sort());
    expect(events.filter((e) => e.type === 'crossed')).toHaveLength(2);
  });

  it('ends the stream with InvalidFrameError for results without features', async () => {
    const stream = fromPixels(ctx, [gray(8, 8, new Uint8Array(64))]).pipe(threshold(), readResults(), track(), toArray());
    await expect(lastValueFrom(stream)).rejects.toThrow(InvalidFrameError);
  });
});
