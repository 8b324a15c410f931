// morphology() on the GPU against the CPU reference, exactly, over masks of odd sizes with specks, holes, thin
// bridges and blobs touching the border (the larger ones span several of the kernel's tiles, 256 pixels × 32 rows,
// with rows of whole mask words and not); bad options and frames without a mask.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastValueFrom, toArray } from 'rxjs';
import { fromPixels, morphology, readResults, threshold, InvalidFrameError, InvalidOptionError, type GpuContext, type MorphologyOptions, type PixelImage } from '../../../index.js';
import { morphologyOptionsCpu } from '../../../src/reference/morphologyCpu.js';
import { halfWidth } from '../../../src/image/morphSteps.js';
import { rng } from '../../../src/eval/images.js';
import { firstDiff, gray, maskOf, readMask, run, testContext } from '../../support/gpu.js';

let ctx: GpuContext;
beforeAll(async () => {
  ctx = await testContext();
});
afterAll(() => ctx?.destroy());

/** Blobs of every size (some cut by the border), single-pixel specks, holes and one-pixel lines: 0 or 255. */
function scene(w: number, h: number, seed: number): Uint8Array {
  const r = rng(seed);
  const m = new Uint8Array(w * h);
  const blobs = Array.from({ length: 3 + Math.floor((w * h) / 2000) }, () => [r() * w, r() * h, 1 + r() * Math.min(w, h) * 0.25]);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const inBlob = blobs.some(([bx, by, br]) => (x - bx) ** 2 + (y - by) ** 2 < br * br);
      let v = inBlob !== r() < 0.04; // specks outside, holes inside
      if (y === Math.floor(h / 3) && x % 7 !== 0) v = true; // a thin, broken line
      m[y * w + x] = v ? 255 : 0;
    }
  }
  return m;
}

const sizes: [number, number][] = [[1, 1], [3, 5], [33, 7], [1, 40], [97, 1], [31, 33], [64, 48], [101, 67], [320, 240], [600, 97], [515, 70]];
const images: PixelImage[] = sizes.map(([w, h], i) => gray(w, h, scene(w, h, 40 + i)));

const cases: [string, MorphologyOptions][] = [
  ['open 3', { open: 3 }],
  ['close 5', { close: 5 }],
  ['open 1 (no change)', { open: 1 }],
  ['open disk 5', { open: { shape: 'disk', size: 5 } }],
  ['close disk 7', { close: { shape: 'disk', size: 7 } }],
  ['open 3, close 5 (the usual cleanup)', { open: 3, close: 5 }],
  ['open disk 15, close 31 (words shifted far)', { open: { shape: 'disk', size: 15 }, close: { size: 31 } }],
  ['close disk 3 then open square 9', { close: { shape: 'disk', size: 3 }, open: { shape: 'square', size: 9 } }],
  ['close rectangle 5×9 (taller than wide)', { close: { size: [5, 9] } }],
  ['open 3, close ellipse 9×5', { open: 3, close: { shape: 'disk', size: [9, 5] } }],
  ['open ellipse 3×15, close rectangle 31×1 (words shifted far, one row)', { open: { shape: 'disk', size: [3, 15] }, close: { size: [31, 1] } }],
  ['close ellipse 1×31 and open ellipse 31×1 (a column, a row)', { close: { shape: 'disk', size: [1, 31] }, open: { shape: 'disk', size: [31, 1] } }],
];

describe('morphology', () => {
  for (const [name, options] of cases) {
    it(`${name} equals the CPU reference exactly`, async () => {
      const results = await run(ctx, images, threshold({ level: 127 }), morphology(options), readMask);
      images.forEach((img, i) => {
        // Read from the options by the reference itself: the runtime's step list is what is under test.
        const want = morphologyOptionsCpu(img.data, img.width, img.height, options);
        expect(firstDiff(maskOf(results[i]), want), `${img.width}x${img.height}`).toBe(-1);
      });
    });
  }

  it('removes a speck and fills a hole as an opening and a closing should', async () => {
    const w = 14;
    const m = new Uint8Array(w * w);
    m[2 * w + 2] = 255; // a speck
    for (let y = 4; y < 11; y++) for (let x = 4; x < 11; x++) if (!(y === 7 && x === 7)) m[y * w + x] = 255; // a 7×7 block with a hole
    const [opened, closed] = await Promise.all([
      run(ctx, [gray(w, w, m)], threshold({ level: 127 }), morphology({ open: 3 }), readMask),
      run(ctx, [gray(w, w, m)], threshold({ level: 127 }), morphology({ close: 3 }), readMask),
    ]);
    const o = maskOf(opened[0]);
    const c = maskOf(closed[0]);
    expect(o[2 * w + 2]).toBe(0);
    expect(o[4 * w + 4]).toBe(255); // the block's corner survives the opening: a 3×3 fits there
    expect(o[7 * w + 7]).toBe(0);
    expect(c[7 * w + 7]).toBe(255);
    expect(c[2 * w + 2]).toBe(255); // closing keeps the speck
  });

  it('makes disks as OpenCV makes MORPH_ELLIPSE (3×3 a cross, 5×5 rows 1 5 5 5 1)', () => {
    const rows = (r: number) => Array.from({ length: 2 * r + 1 }, (_, i) => 2 * halfWidth('disk', r, r, i - r) + 1);
    expect(rows(1)).toEqual([1, 3, 1]);
    expect(rows(2)).toEqual([1, 5, 5, 5, 1]);
    expect(rows(3)).toEqual([1, 5, 7, 7, 7, 5, 1]);
  });

  it('makes ellipses as OpenCV makes MORPH_ELLIPSE of a width and height (rows from cv2.getStructuringElement)', () => {
    const rows = (w: number, h: number) => Array.from({ length: h }, (_, i) => 2 * halfWidth('disk', (w - 1) / 2, (h - 1) / 2, i - (h - 1) / 2) + 1);
    expect(rows(7, 3)).toEqual([1, 7, 1]);
    expect(rows(3, 7)).toEqual([1, 3, 3, 3, 3, 3, 1]);
    expect(rows(5, 9)).toEqual([1, 3, 5, 5, 5, 5, 5, 3, 1]);
    expect(rows(9, 5)).toEqual([1, 7, 9, 7, 1]);
    expect(rows(11, 5)).toEqual([1, 9, 11, 9, 1]);
    expect(rows(1, 5)).toEqual([1, 1, 1, 1, 1]);
  });

  it('joins the pieces of a column with a tall closing and leaves neighbours side by side apart', async () => {
    // Two 5-wide columns 7 pixels apart, each cut by a 6-row gap: a 5×9 closing fills the gaps (it bridges up to 8
    // rows) and keeps the columns apart (it bridges up to 4 columns); a 9×9 one joins them too.
    const [w, h] = [30, 30];
    const m = new Uint8Array(w * h);
    const column = (x0: number) => {
      for (let y = 3; y < 27; y++) for (let x = x0; x < x0 + 5; x++) if (y < 12 || y >= 18) m[y * w + x] = 255;
    };
    column(5);
    column(17);
    const [tall, square] = await Promise.all([
      run(ctx, [gray(w, h, m)], threshold({ level: 127 }), morphology({ close: { size: [5, 9] } }), readMask),
      run(ctx, [gray(w, h, m)], threshold({ level: 127 }), morphology({ close: 9 }), readMask),
    ]);
    const t = maskOf(tall[0]);
    const s = maskOf(square[0]);
    expect(t[15 * w + 7]).toBe(255); // the gap inside a column is filled
    expect(t[15 * w + 19]).toBe(255);
    expect(t[15 * w + 13]).toBe(0); // between the columns stays clear
    expect(t[5 * w + 13]).toBe(0);
    expect(s[5 * w + 13]).toBe(255); // a 9×9 closing bridges the 7-pixel gap between them
  });

  it('refuses bad options with InvalidOptionError', () => {
    const bad: unknown[] = [
      {}, { open: 4 }, { open: 0 }, { close: 33 }, { open: 2.5 }, { open: { shape: 'hex', size: 3 } }, { close: { shape: 'disk' } }, { open: '3' }, null,
      { close: { size: [5] } }, { close: { size: [5, 8] } }, { close: { size: [33, 3] } }, { open: { size: [3, 3, 3] } }, { close: { size: ['5', 9] } },
    ];
    for (const o of bad) expect(() => morphology(o as MorphologyOptions), JSON.stringify(o)).toThrow(InvalidOptionError);
  });

  it('ends the stream with InvalidFrameError for a frame with no mask', async () => {
    const stream = fromPixels(ctx, [gray(8, 8, new Uint8Array(64))]).pipe(morphology({ open: 3 }), readResults(), toArray());
    await expect(lastValueFrom(stream)).rejects.toThrow(InvalidFrameError);
  });
});
