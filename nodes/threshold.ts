/**
 * Threshold: turns a frame's RGBA or gray pixels into a binary mask (0 or 255 per pixel) on the GPU.
 *
 * - `fixed` (default): foreground where gray > `level` (default 0: any nonzero gray).
 * - `otsu`: Otsu's level from a GPU histogram, found in exact integer arithmetic (frames up to 2^24 pixels).
 * - `adaptive`: foreground where gray > mean of the `window`×`window` neighbourhood (clipped at the border)
 *   minus `offset`; what markers need under uneven light.
 * `invert: true` takes the complement (dark objects on a light background).
 * Gray is Rec. 601 luma in integers: (77 R + 150 G + 29 B + 128) >> 8.
 *
 * @example
 * fromPixels(ctx, images).pipe(threshold({ method: 'adaptive', window: 15, offset: 5, invert: true }), label(), readResults())
 *
 * Outputs `frame.gray` and `frame.mask`; reads back `threshold.level` (-1 for adaptive). Throws `InvalidOptionError`
 * for bad options; `InvalidFrameError` on the stream for an Otsu frame over 2^24 pixels.
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../src/gpuNode.js';
import { withRead, type GpuFrame } from '../src/GpuFrame.js';
import type { Kernel, KernelSpec } from '../src/PipelineCache.js';
import { bindGroup, dispatch1d } from '../src/kernels.js';
import { packUniform, uniformLayout } from '../src/uniforms.js';
import { wordsFor } from '../src/dispatch.js';
import { InvalidFrameError, InvalidOptionError } from '../src/errors.js';
import type { ThresholdInfo } from '../src/results.js';

export type ThresholdOptions =
  | { method?: 'fixed'; level?: number; invert?: boolean }
  | { method: 'otsu'; invert?: boolean }
  | { method: 'adaptive'; window?: number; offset?: number; invert?: boolean };

const WG = 256;
/** Otsu keeps the sum of gray values in 32 bits: 255 × 2^24 < 2^32. */
export const otsuMaxPixels = 1 << 24;

function specs(method: 'fixed' | 'otsu' | 'adaptive'): Record<string, KernelSpec> {
  const c = { WG };
  const s: Record<string, KernelSpec> = {
    gray: { shader: 'threshold', entryPoint: 'grayFromRgba', bindings: ['uniform', 'read-only-storage', 'storage'], constants: c },
  };
  if (method === 'adaptive') {
    s.rows = { shader: 'threshold', entryPoint: 'boxRows', bindings: ['uniform', 'read-only-storage', 'storage'], constants: c };
    s.adaptive = {
      shader: 'threshold',
      entryPoint: 'adaptive',
      bindings: ['uniform', 'read-only-storage', 'read-only-storage', 'storage'],
      constants: c,
    };
  } else {
    s.binarize = {
      shader: 'threshold',
      entryPoint: 'binarize',
      bindings: ['uniform', 'read-only-storage', 'read-only-storage', 'storage'],
      constants: c,
    };
  }
  if (method === 'otsu') {
    s.histogram = { shader: 'threshold', entryPoint: 'histogram', bindings: ['uniform', 'read-only-storage', 'storage'], constants: c };
    s.otsu = { shader: 'threshold', entryPoint: 'otsu', bindings: ['uniform', 'storage'] };
  }
  return s;
}

export function threshold(options: ThresholdOptions = {}): OperatorFunction<GpuFrame, GpuFrame> {
  const method = options.method ?? 'fixed';
  const invert = options.invert ?? false;
  let level = 0;
  let radius = 0;
  let offset = 0;
  if (method === 'fixed') {
    level = (options as { level?: number }).level ?? 0;
    if (!Number.isInteger(level) || level < 0 || level > 255) throw new InvalidOptionError(`threshold: level must be an integer 0..255, got ${level}`);
  } else if (method === 'adaptive') {
    const o = options as { window?: number; offset?: number };
    const window = o.window ?? 15;
    offset = o.offset ?? 5;
    if (!Number.isInteger(window) || window < 3 || window % 2 === 0 || window > 255) {
      throw new InvalidOptionError(`threshold: window must be an odd integer 3..255, got ${window}`);
    }
    if (!Number.isInteger(offset) || Math.abs(offset) > 255) throw new InvalidOptionError(`threshold: offset must be an integer -255..255, got ${offset}`);
    radius = (window - 1) / 2;
  } else if (method !== 'otsu') {
    throw new InvalidOptionError(`threshold: method must be 'fixed', 'otsu' or 'adaptive', got ${String(method)}`);
  }
  if (typeof invert !== 'boolean') throw new InvalidOptionError(`threshold: invert must be a boolean`);

  return gpuNode(async (ctx) => {
    const { device, pool } = ctx;
    const k: Record<string, Kernel> = await ctx.pipelines.acquireAll(specs(method));
    const layout = uniformLayout('threshold', 'Params');
    const params = pool.acquire('threshold:params', layout.size, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
    const stats = pool.acquire('threshold:stats', 260 * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC);
    if (method === 'fixed') device.queue.writeBuffer(stats, 256 * 4, new Uint32Array([level]));
    const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;

    // Per-size state, rebuilt when the frame size or its input buffer changes.
    let size = '';
    let grayBuf: GPUBuffer | null = null;
    let maskBuf: GPUBuffer | null = null;
    let rowSum: GPUBuffer | null = null;
    let groups: Record<string, GPUBindGroup> = {};
    let input: GPUBuffer | null = null;
    let histThreads = 0;

    const resize = (f: GpuFrame) => {
      const pixels = f.width * f.height;
      const words = wordsFor(pixels);
      const key = `${f.width}x${f.height}`;
      if (key !== size) {
        size = key;
        pool.release(grayBuf);
        pool.release(maskBuf);
        pool.release(rowSum);
        const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
        grayBuf = pool.acquire('threshold:gray', words * 4, usage);
        maskBuf = pool.acquire('threshold:mask', words * 4, usage);
        rowSum = method === 'adaptive' ? pool.acquire('threshold:rowSum', pixels * 4, GPUBufferUsage.STORAGE) : null;
        // Each histogram invocation reads up to 16 words, a grid stride apart.
        const histGroups = Math.max(1, Math.min(Math.ceil(words / (WG * 16)), maxDim));
        histThreads = histGroups * WG;
        device.queue.writeBuffer(
          params,
          0,
          packUniform(layout, { width: f.width, height: f.height, pixels, words, invert: invert ? 1 : 0, radius, offset, threads: histThreads }),
        );
        input = null;
      }
      const src = f.rgba ?? f.gray!;
      if (src !== input) {
        input = src;
        const g = f.rgba ? grayBuf! : src;
        groups = { gray: bindGroup(device, 'threshold:gray', k.gray, [params, f.rgba ?? grayBuf!, grayBuf!]) };
        if (k.binarize) groups.binarize = bindGroup(device, 'threshold:binarize', k.binarize, [params, g, stats, maskBuf!]);
        if (k.histogram) groups.histogram = bindGroup(device, 'threshold:histogram', k.histogram, [params, g, stats]);
        if (k.otsu) groups.otsu = bindGroup(device, 'threshold:otsu', k.otsu, [params, stats]);
        if (k.rows) groups.rows = bindGroup(device, 'threshold:rows', k.rows, [params, g, rowSum!]);
        if (k.adaptive) groups.adaptive = bindGroup(device, 'threshold:adaptive', k.adaptive, [params, g, rowSum!, maskBuf!]);
      }
    };

    return {
      process(f) {
        if (!f.rgba && !f.gray) throw new InvalidFrameError('threshold: the frame has neither RGBA nor gray pixels');
        const pixels = f.width * f.height;
        if (method === 'otsu' && pixels > otsuMaxPixels) {
          throw new InvalidFrameError(`threshold: Otsu supports frames up to ${otsuMaxPixels} pixels, got ${f.width}×${f.height}`);
        }
        resize(f);
        const words = wordsFor(pixels);
        if (method === 'otsu') f.encoder.clearBuffer(stats, 0, 256 * 4);
        const pass = f.encoder.beginComputePass({ label: 'threshold', timestampWrites: f.profile?.pass('threshold') });
        if (f.rgba) dispatch1d(pass, k.gray, groups.gray, words, WG, maxDim);
        if (method === 'otsu') {
          pass.setPipeline(k.histogram.pipeline);
          pass.setBindGroup(0, groups.histogram);
          pass.dispatchWorkgroups(histThreads / WG);
          pass.setPipeline(k.otsu.pipeline);
          pass.setBindGroup(0, groups.otsu);
          pass.dispatchWorkgroups(1);
        }
        if (method === 'adaptive') {
          dispatch1d(pass, k.rows, groups.rows, pixels, WG, maxDim);
          dispatch1d(pass, k.adaptive, groups.adaptive, words, WG, maxDim);
        } else {
          dispatch1d(pass, k.binarize, groups.binarize, words, WG, maxDim);
        }
        pass.end();
        const gray = f.rgba ? grayBuf! : f.gray!;
        if (method === 'adaptive') return withRead(f, adaptiveRead(stats), { gray, mask: maskBuf });
        return withRead(
          f,
          { key: 'threshold', buffer: stats, offset: 256 * 4, size: 4, decode: (b): ThresholdInfo => ({ level: new Uint32Array(b)[0] }) },
          { gray, mask: maskBuf },
        );
      },
      dispose() {
        ctx.pipelines.releaseAll(k);
        for (const b of [params, stats, grayBuf, maskBuf, rowSum]) pool.release(b);
      },
    };
  });
}

/** Adaptive thresholds have no single level; report -1 without reading anything back. */
function adaptiveRead(stats: GPUBuffer) {
  return { key: 'threshold', buffer: stats, offset: 0, size: 0, decode: (): ThresholdInfo => ({ level: -1 }) };
}
