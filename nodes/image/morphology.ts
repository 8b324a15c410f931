/**
 * Morphology: cleans a frame's mask on the GPU with an opening (erode, then dilate: removes specks and thin
 * bridges smaller than the element) and/or a closing (dilate, then erode: fills holes and gaps), opening first, as
 * surveillance pipelines clean a background model's foreground before labeling it. Elements are squares or disks
 * of odd side 1..31 (a disk as OpenCV's MORPH_ELLIPSE of that size), or rectangles and ellipses of odd width and
 * height (`size: [width, height]`, OpenCV's MORPH_RECT and MORPH_ELLIPSE of that Size): a closing taller than wide
 * joins the pieces of an upright person without joining neighbours beside them. Pixels outside the frame are ignored,
 * as OpenCV's default border. The mask is packed 32 pixels to a word and every step works a word at a time
 * (shaders/image/morphology.wgsl).
 *
 * @example
 * fromVideo(ctx, 'street.mp4').pipe(background(), morphology({ open: 3, close: { shape: 'disk', size: 5 } }),
 *   features({ minArea: 40 }), readResults())
 *
 * Needs `frame.mask` (threshold(), background()); outputs a new `frame.mask` that belongs to the frame until its
 * results are read. Throws `InvalidOptionError` for bad options; `InvalidFrameError` on the stream for a frame
 * with no mask.
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../../src/core/gpuNode.js';
import { withFrame, type GpuFrame } from '../../src/core/GpuFrame.js';
import type { KernelSpec } from '../../src/core/PipelineCache.js';
import { uniformLayout } from '../../src/core/uniforms.js';
import { wordsFor } from '../../src/core/dispatch.js';
import { PassRecorder } from '../../src/core/PassRecorder.js';
import { InvalidFrameError, InvalidOptionError } from '../../src/core/errors.js';
import { morphSteps, type MorphShape, type MorphStep } from '../../src/image/morphSteps.js';
import { checkOptions } from '../../src/core/checkOptions.js';

/**
 * A structuring element: a square of this odd side, or a square or disk of odd side `size`, or with `size: [width,
 * height]` (both odd) a rectangle ('square') or an ellipse ('disk') of that size.
 */
export type MorphElement = number | { shape?: MorphShape; size: number | readonly [number, number] };

export interface MorphologyOptions {
  /** Opening (erode, then dilate), applied first. */
  open?: MorphElement;
  /** Closing (dilate, then erode), applied after the opening. */
  close?: MorphElement;
}

/** Largest element side (width or height): the shader shifts words by up to the half-width, which must stay under 32. */
export const maxElementSize = 31;

function element(kind: 'open' | 'close', e: MorphElement): { shape: MorphShape; radiusX: number; radiusY: number } {
  const { shape = 'square', size } = typeof e === 'number' ? { size: e } : (e ?? ({} as { size: number }));
  const sides = Array.isArray(size) ? (size as unknown[]) : [size, size];
  const odd = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= maxElementSize && (v as number) % 2 === 1;
  if (sides.length !== 2 || !sides.every(odd)) {
    throw new InvalidOptionError(`morphology: ${kind} size must be an odd integer 1..${maxElementSize} or [width, height] of two, got ${JSON.stringify(size) ?? String(size)}`);
  }
  if (shape !== 'square' && shape !== 'disk') throw new InvalidOptionError(`morphology: ${kind} shape must be 'square' or 'disk', got ${String(shape)}`);
  const [w, h] = sides as number[];
  return { shape, radiusX: (w - 1) / 2, radiusY: (h - 1) / 2 };
}

/** The steps `options` ask for, validated (also what the CPU reference runs: `morphologyCpu(mask, w, h, steps)`). */
export function morphologySteps(options: MorphologyOptions): MorphStep[] {
  checkOptions('morphology', options, ['open', 'close']);
  if (options === undefined) throw new InvalidOptionError('morphology: give open and/or close');
  const steps: MorphStep[] = [];
  for (const kind of ['open', 'close'] as const) {
    if (options[kind] === undefined) continue;
    const { shape, radiusX, radiusY } = element(kind, options[kind]!);
    steps.push(...morphSteps(kind, shape, radiusX, radiusY));
  }
  if (steps.length === 0) throw new InvalidOptionError('morphology: give open and/or close');
  return steps;
}

const kernels = {
  pack: { shader: 'image/morphology', entryPoint: 'pack', bindings: ['uniform', 'read-only-storage', 'storage'] },
  morph: { shader: 'image/morphology', entryPoint: 'morph', bindings: ['uniform', 'read-only-storage', 'storage'] },
  unpack: { shader: 'image/morphology', entryPoint: 'unpack', bindings: ['uniform', 'read-only-storage', 'storage'] },
} satisfies Record<string, KernelSpec>;

export function morphology(options: MorphologyOptions): OperatorFunction<GpuFrame, GpuFrame> {
  const steps = morphologySteps(options);
  return gpuNode('morphology', async (node) => {
    const k = await node.kernels(kernels);
    const layout = uniformLayout('image/morphology', 'Params');

    const sets = node.perFrame((size, alloc) => {
      const { width, height } = size;
      const pixels = width * height;
      const words = wordsFor(pixels);
      const rowWords = Math.ceil(width / 32);
      const base = { width, height, pixels, words, rowWords };
      const bits = rowWords * height;
      // Bit rows in two buffers, each step reading one and writing the other.
      const rows = [0, 1].map((i) => alloc.buffer(`bits${i}`, bits * 4, GPUBufferUsage.STORAGE));
      return {
        bits,
        words,
        rows,
        // One uniform per step: its radii, shape and operation.
        params: steps.map((s, i) => alloc.uniform(`step${i}`, layout, { ...base, radiusX: s.radiusX, radiusY: s.radiusY, disk: s.shape === 'disk' ? 1 : 0, dilate: s.op === 'dilate' ? 1 : 0 })),
        mask: alloc.buffer('mask', words * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC),
      };
    });

    return (f) => {
      if (!f.mask) throw new InvalidFrameError('morphology: the frame has no mask (put threshold() or background() before it)');
      const set = sets.take(f);
      const rec = PassRecorder.of(f, 'morphology');
      rec.items('pack', k.pack, set.bind('pack', k.pack, [set.params[0], f.mask, set.rows[0]]), set.bits);
      steps.forEach((_, i) => {
        const [from, to] = [set.rows[i % 2], set.rows[(i + 1) % 2]];
        rec.items(`step${i}`, k.morph, set.bind(`step${i}`, k.morph, [set.params[i], from, to]), set.bits);
      });
      rec.items('unpack', k.unpack, set.bind('unpack', k.unpack, [set.params[0], set.rows[steps.length % 2], set.mask]), set.words);
      rec.end();
      return withFrame(f, { mask: set.mask });
    };
  });
}
