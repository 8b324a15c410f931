// fromGpuBuffers: frames already on the GPU (a user's own buffers, gray four pixels a word or RGBA one a word) read in
// place: labels equal the CPU reference's from both formats, the user's buffers are neither written nor destroyed,
// and buffers that cannot be frames are refused on the stream with InvalidFrameError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastValueFrom, toArray } from 'rxjs';
import { fromGpuBuffers, label, readResults, threshold, InvalidFrameError, type GpuContext, type GpuImage } from '../../../index.js';
import { labelCpu } from '../../../src/reference/labelCpu.js';
import { randomBlocks } from '../../../src/eval/images.js';
import { firstDiff, testContext } from '../../support/gpu.js';

let ctx: GpuContext;
beforeAll(async () => {
  ctx = await testContext();
});
afterAll(() => ctx?.destroy());

/** A STORAGE buffer holding `bytes` (padded to a word), readable for the check that it was left as it was. */
function buffer(bytes: Uint8Array, usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC): GPUBuffer {
  const size = Math.ceil(bytes.length / 4) * 4;
  const b = ctx.device.createBuffer({ label: 'test:user-frame', size, usage });
  const padded = new Uint8Array(size);
  padded.set(bytes);
  ctx.device.queue.writeBuffer(b, 0, padded);
  return b;
}

async function contents(b: GPUBuffer): Promise<Uint8Array> {
  const read = ctx.device.createBuffer({ label: 'test:read', size: b.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = ctx.device.createCommandEncoder({ label: 'test:copy' });
  enc.copyBufferToBuffer(b, 0, read, 0, b.size);
  ctx.device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const out = new Uint8Array(read.getMappedRange().slice(0));
  read.destroy();
  return out;
}

describe('fromGpuBuffers', () => {
  it('labels gray and RGBA buffers read in place as the CPU reference does, leaving them as they were', async () => {
    const sizes = [[61, 37], [128, 96], [7, 5]] as const;
    const grays = sizes.map(([w, h], i) => randomBlocks(w, h, 0.45, 2, 40 + i));
    const images: GpuImage[] = [];
    const kept: Uint8Array[] = [];
    sizes.forEach(([w, h], i) => {
      // Gray values 0 / 200; as RGBA the same gray in R, G and B.
      const g = Uint8Array.from(grays[i], (v) => (v ? 200 : 0));
      const rgba = new Uint8Array(4 * w * h);
      g.forEach((v, p) => rgba.set([v, v, v, 255], 4 * p));
      for (const [format, bytes] of [['gray', g], ['rgba', rgba]] as const) {
        images.push({ buffer: buffer(bytes), width: w, height: h, format, timeUs: 1000 * images.length });
        kept.push(bytes);
      }
    });
    const results = await lastValueFrom(fromGpuBuffers(ctx, images).pipe(threshold({ level: 100 }), label({ readLabels: true }), readResults(), toArray()));
    expect(results.map((r) => r.timeUs)).toEqual(images.map((img) => img.timeUs));
    results.forEach((r, k) => {
      const [w, h] = sizes[k >> 1];
      expect(firstDiff(r.labels!, labelCpu(grays[k >> 1], w, h, 8).labels), `${w}×${h} ${images[k].format}`).toBe(-1);
    });
    for (let k = 0; k < images.length; k++) {
      expect(Array.from((await contents(images[k].buffer)).subarray(0, kept[k].length))).toEqual(Array.from(kept[k]));
      expect(images[k].buffer.mapState).toBe('unmapped');
    }
    for (const img of images) img.buffer.destroy();
  });

  it('refuses on the stream a buffer without STORAGE usage, one too small for its size, and a bad size or format', async () => {
    const small = buffer(new Uint8Array(16));
    const noStorage = ctx.device.createBuffer({ label: 'test:uniform', size: 256, usage: GPUBufferUsage.UNIFORM });
    for (const [img, why] of [
      [{ buffer: noStorage, width: 8, height: 8, format: 'gray' }, /needs STORAGE usage/],
      [{ buffer: small, width: 8, height: 8, format: 'gray' }, /8×8 gray needs 64 bytes, the buffer has 16/],
      [{ buffer: small, width: 4, height: 4, format: 'rgba' }, /4×4 rgba needs 64 bytes, the buffer has 16/],
      [{ buffer: small, width: 0, height: 4, format: 'gray' }, /width and height must be positive integers/],
      [{ buffer: small, width: 4, height: 4, format: 'bgra' }, /format must be 'rgba' or 'gray'/],
    ] as const) {
      const e = await lastValueFrom(fromGpuBuffers(ctx, [img as unknown as GpuImage]).pipe(threshold(), readResults())).then(() => null, (err: unknown) => err);
      expect(e, String(why)).toBeInstanceOf(InvalidFrameError);
      expect((e as Error).message).toMatch(why);
    }
    small.destroy();
    noStorage.destroy();
  });
});
