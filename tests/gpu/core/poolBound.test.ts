// Frames of ever new sizes (a folder of photos, a camera that changes resolution) through fromPixels → threshold →
// features: the pool's free buffers stay under the context's poolFreeBytes while the results stay those of the CPU
// reference, and a bad bound is refused before a device is opened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastValueFrom, tap, toArray } from 'rxjs';
import { GpuContext, InvalidOptionError, features, fromPixels, readResults, threshold, type PixelImage } from '../../../index.js';
import { labelCpu } from '../../../src/reference/labelCpu.js';
import { rng } from '../../../src/eval/images.js';
import { testContext } from '../../support/gpu.js';

const cap = 4 << 20;
let ctx: GpuContext;
beforeAll(async () => {
  const base = await testContext();
  // The same adapter and device as every other GPU test, with a small bound.
  ctx = await GpuContext.create({ device: base.device, poolFreeBytes: cap, label: 'pool bound' });
});
afterAll(() => ctx?.destroy());

describe('buffer pool bound', () => {
  it('keeps at most poolFreeBytes free over 60 frame sizes, with every frame labelled as the CPU reference', async () => {
    const random = rng(5);
    const images: PixelImage[] = Array.from({ length: 60 }, (_, i) => {
      const width = 200 + 7 * i;
      const height = 150 + 5 * i;
      return { width, height, format: 'gray', data: Uint8Array.from({ length: width * height }, () => (random() < 0.3 ? 220 : 20)) };
    });
    const free: number[] = [];
    const results = await lastValueFrom(
      fromPixels(ctx, images).pipe(threshold({ level: 128 }), features({ maxResults: 1 << 16 }), readResults(), tap(() => free.push(ctx.pool.stats().bytesFree)), toArray()),
    );
    expect(results).toHaveLength(60);
    results.forEach((r, i) => {
      const { width, height, data } = images[i];
      const want = labelCpu(Array.from(data as Uint8Array, (g) => (g > 128 ? 1 : 0)), width, height, 8);
      expect(r.features!.count, `${width}×${height}`).toBe(want.count);
    });
    // Sizes were given back: without a bound they would pile up past it.
    expect(Math.max(...free)).toBeLessThanOrEqual(cap);
    expect(ctx.pool.stats().bytesFree).toBeLessThanOrEqual(cap);
    expect(ctx.pool.stats().created).toBeGreaterThan(100);
  });

  it('refuses a bound that is not a number of bytes', async () => {
    for (const poolFreeBytes of [-1, Number.NaN, Infinity, '64' as unknown as number]) {
      await expect(GpuContext.create({ poolFreeBytes })).rejects.toThrow(InvalidOptionError);
    }
  });
});
