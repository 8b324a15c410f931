/**
 * Threshold: turns a frame's RGBA or gray pixels into a binary mask (0 or 255 per pixel) on the GPU.
 *
 * - `fixed` (default): foreground where gray > `level` (default 0: any nonzero gray).
 * - `otsu`: Otsu's level from a GPU histogram, found in exact integer arithmetic (frames up to 2^24 pixels).
 * - `adaptive`: foreground where gray > mean of the `window`×`window` neighbourhood (clipped at the border)
 *   minus `offset`; what markers need under uneven light. Window sums come from row prefix sums slid down
 *   columns, so a large window costs little more than a small one.
 * `invert: true` takes the complement (dark objects on a light background).
 * Gray is Rec. 601 luma in integers: (77 R + 150 G + 29 B + 128) >> 8.
 *
 * @example
 * fromPixels(ctx, images).pipe(threshold({ method: 'adaptive', window: 15, offset: 5, invert: true }), label(), readResults())
 *
 * Outputs `frame.gray` and `frame.mask`; reads back `threshold.level` (-1 for adaptive). Throws `InvalidOptionError`
 * for bad options; `InvalidFrameError` on the stream for an Otsu frame over 2^24 pixels. Each frame's gray image
 * and mask belong to it until its results are read.
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../../src/core/gpuNode.js';
import { withRead, type GpuFrame, type ReadRequest } from '../../src/core/GpuFrame.js';
import type { KernelSpec } from '../../src/core/PipelineCache.js';
import { uniformLayout, wgslConstant } from '../../src/core/uniforms.js';
import { WG, wordsFor } from '../../src/core/dispatch.js';
import { PassRecorder } from '../../src/core/PassRecorder.js';
import { InvalidFrameError, InvalidOptionError } from '../../src/core/errors.js';
import { checkBoolean, checkOptions } from '../../src/core/checkOptions.js';
import type { ThresholdInfo } from '../../src/core/results.js';

export type ThresholdOptions =
  | { method?: 'fixed'; level?: number; invert?: boolean }
  | { method: 'otsu'; invert?: boolean }
  | { method: 'adaptive'; window?: number; offset?: number; invert?: boolean };

/** Otsu keeps the sum of gray values in 32 bits: 255 × 2^24 < 2^32. */
export const otsuMaxPixels = 1 << 24;
/** Rows each adaptive invocation slides its window down (CHUNK in threshold.wgsl). */
export const adaptiveChunk = wgslConstant('image/threshold', 'CHUNK');
/** `stats` (threshold.wgsl): histogram bins 0..255, then the level used at word 256. */
const levelAt = 256 * 4;

/** The adaptive threshold's kernels (markers' stacked threshold records them too): luma, row prefix sums, windows. */
export const adaptiveKernels = {
  gray: { shader: 'image/threshold', entryPoint: 'grayFromRgba', bindings: ['uniform', 'read-only-storage', 'storage'] },
  rows: { shader: 'image/threshold', entryPoint: 'rowPrefixes', bindings: ['uniform', 'read-only-storage', 'storage'] },
  adaptive: { shader: 'image/threshold', entryPoint: 'adaptive', bindings: ['uniform', 'read-only-storage', 'read-only-storage', 'storage'] },
} satisfies Record<string, KernelSpec>;

function kernels(method: 'fixed' | 'otsu' | 'adaptive'): Record<string, KernelSpec> {
  const s: Record<string, KernelSpec> = { gray: adaptiveKernels.gray };
  if (method === 'adaptive') {
    s.rows = adaptiveKernels.rows;
    s.adaptive = adaptiveKernels.adaptive;
  } else {
    s.binarize = { shader: 'image/threshold', entryPoint: 'binarize', bindings: ['uniform', 'read-only-storage', 'read-only-storage', 'storage'] };
  }
  if (method === 'otsu') {
    s.histogram = { shader: 'image/threshold', entryPoint: 'histogram', bindings: ['uniform', 'read-only-storage', 'storage'] };
    s.otsu = { shader: 'image/threshold', entryPoint: 'otsu', bindings: ['uniform', 'storage'] };
  }
  return s;
}

export function threshold(options: ThresholdOptions = {}): OperatorFunction<GpuFrame, GpuFrame> {
  checkOptions('threshold', options, ['method', 'level', 'window', 'offset', 'invert']);
  const method = options.method ?? 'fixed';
  const given = options as { level?: number; window?: number; offset?: number };
  if (method !== 'fixed' && given.level !== undefined) throw new InvalidOptionError(`threshold: level applies to method 'fixed' only, not '${String(method)}'`);
  for (const key of ['window', 'offset'] as const) {
    if (method !== 'adaptive' && given[key] !== undefined) throw new InvalidOptionError(`threshold: ${key} applies to method 'adaptive' only, not '${String(method)}'`);
  }
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
  checkBoolean('threshold', 'invert', options.invert);

  return gpuNode('threshold', async (node) => {
    const k = await node.kernels(kernels(method));
    const layout = uniformLayout('image/threshold', 'Params');
    const maxDim = node.ctx.limits.maxComputeWorkgroupsPerDimension;

    const sets = node.perFrame((size, alloc) => {
      const pixels = size.width * size.height;
      const words = wordsFor(pixels);
      // Each histogram invocation reads up to 16 words, a grid stride apart.
      const histGroups = Math.max(1, Math.min(Math.ceil(words / (WG * 16)), maxDim));
      const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
      // A fixed level sits in `stats` from the start; Otsu writes its own there every frame.
      const stats = new Uint32Array(257);
      stats[256] = level;
      return {
        pixels,
        words,
        histGroups,
        params: alloc.uniform('params', layout, { width: size.width, height: size.height, pixels, words, invert: invert ? 1 : 0, radius, offset, threads: histGroups * WG, base: 0 }),
        stats: alloc.buffer('stats', 260 * 4, usage, stats),
        gray: alloc.buffer('gray', words * 4, usage),
        mask: alloc.buffer('mask', words * 4, usage),
        // The adaptive threshold's row prefix sums: width + 1 per row.
        prefix: method === 'adaptive' ? alloc.buffer('prefix', (size.width + 1) * size.height * 4, GPUBufferUsage.STORAGE) : null,
      };
    });

    return (f) => {
      if (!f.rgba && !f.gray) throw new InvalidFrameError('threshold: the frame has neither RGBA nor gray pixels');
      if (method === 'otsu' && f.width * f.height > otsuMaxPixels) {
        throw new InvalidFrameError(`threshold: Otsu supports frames up to ${otsuMaxPixels} pixels, got ${f.width}×${f.height}`);
      }
      const set = sets.take(f);
      // A gray image already made (by a threshold before this one) is used as it is.
      const gray = f.gray ?? set.gray;
      if (method === 'otsu') f.encoder.clearBuffer(set.stats, 0, levelAt);
      // The adaptive pass sets foreground bits only.
      if (method === 'adaptive') f.encoder.clearBuffer(set.mask);
      const rec = PassRecorder.of(f, 'threshold');
      if (!f.gray) rec.items('gray', k.gray, set.bind('gray', k.gray, [set.params, f.rgba!, set.gray]), set.words);
      if (method === 'otsu') {
        rec.grid('histogram', k.histogram, set.bind('histogram', k.histogram, [set.params, gray, set.stats]), set.histGroups);
        rec.grid('otsu', k.otsu, set.bind('otsu', k.otsu, [set.params, set.stats]), 1);
      }
      if (method === 'adaptive') {
        rec.grid('rows', k.rows, set.bind('rows', k.rows, [set.params, gray, set.prefix!]), f.height);
        rec.items('adaptive', k.adaptive, set.bind('adaptive', k.adaptive, [set.params, gray, set.prefix!, set.mask]), f.width * Math.ceil(f.height / adaptiveChunk));
      } else {
        rec.items('binarize', k.binarize, set.bind('binarize', k.binarize, [set.params, gray, set.stats, set.mask]), set.words);
      }
      rec.end();
      // Adaptive thresholds have no single level: -1, with nothing read back.
      const read: ReadRequest =
        method === 'adaptive'
          ? { key: 'threshold', buffer: set.stats, offset: 0, size: 0, decode: (): ThresholdInfo => ({ level: -1 }) }
          : { key: 'threshold', buffer: set.stats, offset: levelAt, size: 4, decode: (b): ThresholdInfo => ({ level: new Uint32Array(b)[0] }) };
      return withRead(f, read, { gray, mask: set.mask });
    };
  });
}
