/**
 * The inverted adaptive threshold at every window of `markers()` in one pass (shaders/image/threshold.wgsl: the row prefix
 * sums once, then one `adaptive` dispatch per window), the masks stacked one below the other with an empty row
 * between them, so that one labeling and one candidate search serve all windows: a frame pays the fixed cost of
 * each pass once rather than once per window, and the empty rows keep components of different windows apart.
 *
 * The frame this returns is the stacked mask's size (`stackedHeight` rows, stack.ts) for `label()` and `markerCandidates`,
 * which gives the frame its own height back. Its `gray` is the frame's own (made here when the frame has none).
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../../src/core/gpuNode.js';
import { makeFrame, type GpuFrame } from '../../src/core/GpuFrame.js';
import { uniformLayout } from '../../src/core/uniforms.js';
import { wordsFor } from '../../src/core/dispatch.js';
import { PassRecorder } from '../../src/core/PassRecorder.js';
import { InvalidFrameError } from '../../src/core/errors.js';
import { checkStack, stackedHeight } from './stack.js';
import { adaptiveChunk, adaptiveKernels } from '../image/threshold.js';

export interface StackedThresholdSettings {
  /** Odd window sizes, one mask each, in this order from the top. */
  readonly windows: readonly number[];
  readonly offset: number;
}

export function markerThreshold(s: StackedThresholdSettings): OperatorFunction<GpuFrame, GpuFrame> {
  return gpuNode('markers:threshold', async (node) => {
    const k = await node.kernels(adaptiveKernels);
    const layout = uniformLayout('image/threshold', 'Params');
    const maxBinding = node.ctx.limits.maxStorageBufferBindingSize;
    const sets = node.perFrame((size, alloc) => {
      const pixels = size.width * size.height;
      const words = wordsFor(pixels);
      const S = GPUBufferUsage.STORAGE;
      const uniform = (name: string, radius: number, base: number) =>
        alloc.uniform(name, layout, { width: size.width, height: size.height, pixels, words, invert: 1, radius, offset: s.offset, threads: 0, base });
      return {
        words,
        params: uniform('params', 0, 0),
        // Window i's mask starts at row i × (height + 1) of the stack.
        windows: s.windows.map((w, i) => uniform(`window${i}`, (w - 1) / 2, i * (size.height + 1) * size.width)),
        gray: alloc.buffer('gray', words * 4, S),
        prefix: alloc.buffer('prefix', (size.width + 1) * size.height * 4, S),
        mask: alloc.buffer('mask', wordsFor(size.width * stackedHeight(size.height, s.windows.length)) * 4, S | GPUBufferUsage.COPY_DST),
      };
    });

    return (f) => {
      if (!f.rgba && !f.gray) throw new InvalidFrameError('markers: the frame has neither RGBA nor gray pixels');
      checkStack(f.width, f.height, s.windows.length, maxBinding);
      const set = sets.take(f);
      const gray = f.gray ?? set.gray;
      // The adaptive passes set foreground bits only; the rows between the masks stay empty.
      f.encoder.clearBuffer(set.mask);
      const rec = PassRecorder.of(f, 'markers:threshold');
      if (!f.gray) rec.items('gray', k.gray, set.bind('gray', k.gray, [set.params, f.rgba!, set.gray]), set.words);
      rec.grid('rows', k.rows, set.bind('rows', k.rows, [set.params, gray, set.prefix]), f.height);
      const columns = f.width * Math.ceil(f.height / adaptiveChunk);
      set.windows.forEach((params, i) => rec.items(`adaptive${i}`, k.adaptive, set.bind(`adaptive${i}`, k.adaptive, [params, gray, set.prefix, set.mask]), columns));
      rec.end();
      return makeFrame({ ...f, height: stackedHeight(f.height, s.windows.length), gray, mask: set.mask, labels: null, labeling: null });
    };
  });
}
