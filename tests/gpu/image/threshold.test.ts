import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threshold, InvalidOptionError, InvalidFrameError, type GpuContext, type GpuFrame, type PixelImage } from '../../../index.js';
import { map } from 'rxjs';
import { otsuLevel, thresholdAdaptive, thresholdFixed } from '../../../src/reference/thresholdCpu.js';
import { grayFromRgba } from '../../../src/image/grayFromRgba.js';
import { rng } from '../../../src/eval/images.js';
import { firstDiff, maskOf, readMask, run, testContext } from '../../support/gpu.js';

let ctx: GpuContext;
beforeAll(async () => {
  ctx = await testContext();
});
afterAll(() => ctx?.destroy());

/** A lit scene: a gradient (uneven light), dark blobs and noise; RGBA with color casts. */
function scene(w: number, h: number, seed: number): Uint8Array {
  const r = rng(seed);
  const blobs = Array.from({ length: 6 }, () => [r() * w, r() * h, 2 + r() * Math.min(w, h) * 0.2]);
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let v = 90 + (120 * x) / Math.max(1, w - 1) + (r() - 0.5) * 30;
      if (blobs.some(([bx, by, br]) => (x - bx) ** 2 + (y - by) ** 2 < br * br)) v *= 0.35;
      const p = (y * w + x) * 4;
      rgba[p] = Math.max(0, Math.min(255, v * (0.9 + r() * 0.2)));
      rgba[p + 1] = Math.max(0, Math.min(255, v));
      rgba[p + 2] = Math.max(0, Math.min(255, v * (0.8 + r() * 0.3)));
      rgba[p + 3] = 255;
    }
  }
  return rgba;
}

const sizes: [number, number][] = [[1, 1], [3, 5], [17, 1], [1, 9], [64, 48], [101, 67], [641, 3], [320, 240]];
const scenes = sizes.map(([w, h], i) => ({ w, h, rgba: scene(w, h, 11 + i) }));
const rgbaImages: PixelImage[] = scenes.map((s) => ({ width: s.w, height: s.h, format: 'rgba', data: s.rgba }));
const grayImages: PixelImage[] = scenes.map((s) => ({ width: s.w, height: s.h, format: 'gray', data: grayFromRgba(s.rgba, s.w * s.h) }));

describe('threshold', () => {
  for (const [name, images] of [['rgba', rgbaImages], ['gray', grayImages]] as const) {
    for (const [level, invert] of [[0, false], [77, false], [140, true], [255, false]] as const) {
      it(`fixed level ${level}${invert ? ' inverted' : ''} equals the CPU reference (${name} input)`, async () => {
        const results = await run(ctx, [...images], threshold({ level, invert }), readMask);
        scenes.forEach((s, i) => {
          const g = grayFromRgba(s.rgba, s.w * s.h);
          expect(results[i].threshold?.level).toBe(level);
          expect(firstDiff(maskOf(results[i]), thresholdFixed(g, level, invert)), `${s.w}x${s.h}`).toBe(-1);
        });
      });
    }

    it(`Otsu's level and mask equal the CPU reference (${name} input)`, async () => {
      const results = await run(ctx, [...images], threshold({ method: 'otsu' }), readMask);
      scenes.forEach((s, i) => {
        const g = grayFromRgba(s.rgba, s.w * s.h);
        const level = otsuLevel(g);
        expect(results[i].threshold?.level, `${s.w}x${s.h}`).toBe(level);
        expect(firstDiff(maskOf(results[i]), thresholdFixed(g, level)), `${s.w}x${s.h}`).toBe(-1);
      });
    });

    for (const [window, offset, invert] of [[3, 0, false], [15, 5, true], [31, -7, false]] as const) {
      it(`adaptive window ${window} offset ${offset}${invert ? ' inverted' : ''} equals the CPU reference (${name} input)`, async () => {
        const results = await run(ctx, [...images], threshold({ method: 'adaptive', window, offset, invert }), readMask);
        scenes.forEach((s, i) => {
          const g = grayFromRgba(s.rgba, s.w * s.h);
          expect(results[i].threshold?.level).toBe(-1);
          expect(firstDiff(maskOf(results[i]), thresholdAdaptive(g, s.w, s.h, window, offset, invert)), `${s.w}x${s.h}`).toBe(-1);
        });
      });
    }
  }

  it("finds Otsu's level on bimodal, uniform and two-valued images", async () => {
    const r = rng(5);
    const bimodal = Uint8Array.from({ length: 4000 }, () => (r() < 0.3 ? 40 + r() * 30 : 170 + r() * 50));
    const uniform = new Uint8Array(999).fill(93);
    const twoValues = Uint8Array.from({ length: 1000 }, (_, i) => (i % 3 ? 10 : 200));
    const imgs: PixelImage[] = [
      { width: 80, height: 50, format: 'gray', data: bimodal },
      { width: 37, height: 27, format: 'gray', data: uniform },
      { width: 40, height: 25, format: 'gray', data: twoValues },
    ];
    const results = await run(ctx, imgs, threshold({ method: 'otsu' }));
    expect(results.map((x) => x.threshold?.level)).toEqual(imgs.map((i) => otsuLevel(i.data)));
    // Sanity of the reference itself: the level separates the two modes.
    expect(otsuLevel(bimodal)).toBeGreaterThanOrEqual(69); // top of the dark mode (40..69)
    expect(otsuLevel(bimodal)).toBeLessThan(170);
    expect(otsuLevel(uniform)).toBe(93);
    expect(otsuLevel(twoValues)).toBe(10);
  });

  it('rejects bad options synchronously and frames without pixels on the stream', async () => {
    expect(() => threshold({ level: 256 })).toThrow(InvalidOptionError);
    expect(() => threshold({ method: 'adaptive', window: 4 })).toThrow(/window/);
    expect(() => threshold({ method: 'median' as 'otsu' })).toThrow(/method/);
    const bad = map((f: GpuFrame) => ({ ...f, rgba: null, gray: null }));
    await expect(run(ctx, [grayImages[4]], bad, threshold())).rejects.toThrow(InvalidFrameError);
  });
});
