// An operator written outside flowmark (examples/node/foregroundCount.ts: its own WGSL, gpuNode, per-frame buffers,
// a result of its own) runs in a chain like the built-in ones, equals a CPU count, and gives everything back. Like
// the example, this test uses the package by its public name (the built package), as a user's code would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastValueFrom, toArray, type OperatorFunction } from 'rxjs';
import { GpuContext, fromPixels, InvalidOptionError, label, readResults, threshold, type FrameResult, type GpuFrame, type PixelImage } from 'flowmark';
import { gpuNode } from 'flowmark/extend';
import * as reference from 'flowmark/reference';
import { foregroundCount, foregroundWgsl } from '../../../examples/node/foregroundCount.js';

let ctx: GpuContext;
beforeAll(async () => {
  ctx = await GpuContext.create({ label: 'extension-test' });
});
afterAll(() => ctx?.destroy());

const gray = (width: number, height: number, data: Uint8Array): PixelImage => ({ width, height, format: 'gray', data });
const run = (ctx: GpuContext, images: PixelImage[], ...ops: OperatorFunction<GpuFrame, GpuFrame>[]): Promise<FrameResult[]> =>
  lastValueFrom(ops.reduce((s, op) => op(s), fromPixels(ctx, images)).pipe(readResults(), toArray()));

/** Seeded gray noise with some structure, of any size. */
function noise(w: number, h: number, seed: number): Uint8Array {
  const r = reference.rng(seed);
  return Uint8Array.from({ length: w * h }, (_, p) => Math.min(255, Math.floor(r() * 200 + ((p % w) * 55) / w)));
}

describe('an operator written outside the package', () => {
  it('counts foreground pixels like the CPU, frame after frame of changing sizes, in a chain with built-in operators', async () => {
    const sizes = [[97, 61], [1, 1], [320, 240], [33, 7], [97, 61], [641, 9]];
    const images = sizes.map(([w, h], i) => gray(w, h, noise(w, h, 10 + i)));
    for (const level of [0, 100, 180]) {
      const results = await run(ctx, images, threshold({ level }), foregroundCount(), label({ algorithm: 'c2fl' }));
      expect(results.map((r) => r.seq)).toEqual(images.map((_, i) => i));
      results.forEach((r, i) => {
        const want = reference.thresholdFixed(images[i].data, level).filter((v) => v !== 0).length;
        expect(r.foreground, `level ${level}, frame ${i}`).toBe(want);
        expect(r.labeling!.converged).toBe(true);
      });
    }
    expect(ctx.pool.stats().inUse).toBe(0);
    expect(ctx.pipelines.stats().refs).toBe(0);
  });

  it('compiles its own WGSL once per device, and refuses another module under the same id', async () => {
    const before = ctx.pipelines.stats().modules;
    await run(ctx, [gray(8, 8, new Uint8Array(64).fill(9))], threshold(), foregroundCount());
    await run(ctx, [gray(8, 8, new Uint8Array(64).fill(9))], threshold(), foregroundCount({ minValue: 200 }));
    expect(ctx.pipelines.stats().modules).toBeLessThanOrEqual(before + 1);
    const impostor = gpuNode('impostor', async (node) => {
      await node.kernels({ k: { shader: { id: foregroundWgsl.id, code: foregroundWgsl.code + '\n// changed\n' }, entryPoint: 'countForeground', bindings: ['uniform', 'read-only-storage', 'storage'] } });
      return (f) => f;
    });
    await expect(run(ctx, [gray(4, 4, new Uint8Array(16))], threshold(), impostor)).rejects.toThrow(/already taken by another WGSL module/);
    expect(ctx.pipelines.stats().refs).toBe(0);
  });

  it('checks its options in the factory, and its input on the stream', async () => {
    expect(() => foregroundCount({ minValue: 0 })).toThrow(InvalidOptionError);
    await expect(run(ctx, [gray(4, 4, new Uint8Array(16))], foregroundCount())).rejects.toThrow(/no mask/);
    const results = await lastValueFrom(fromPixels(ctx, [gray(5, 5, new Uint8Array(25).fill(255))]).pipe(threshold(), foregroundCount(), readResults(), toArray()));
    // Typed through the package's ResultValues, which the operator's module augments.
    const count: number | undefined = results[0].foreground;
    expect(count).toBe(25);
  });
});
