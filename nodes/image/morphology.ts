/**
 * Morphology: cleans a frame's mask on the GPU with an opening (erode, then dilate: removes specks and thin
 * bridges smaller than the element) and/or a closing (dilate, then erode: fills holes and gaps), opening first, as
 * surveillance pipelines clean a background model's foreground before labeling it. Elements are squares or disks
 * of odd side 1..31 (a disk as OpenCV's MORPH_ELLIPSE of that size), or rectangles and ellipses of odd width and
 * height (`size: [width, height]`, OpenCV's MORPH_RECT and MORPH_ELLIPSE of that Size): a closing taller than wide
 * joins the pieces of an upright person without joining neighbours beside them. Pixels outside the frame are ignored,
 * as OpenCV's default border. The mask is packed 32 pixels to a word and the whole chain runs in one pass, a tile at
 * a time in workgroup memory (shaders/image/morphology.wgsl).
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

/** A tile's output: 8 bit words (256 pixels) across, 32 rows down (shaders/image/morphology.wgsl). */
const tileWords = 8;
const tileRows = 32;

/** A step packed as the shader reads it: bit 0 dilate, bit 1 disk, rx at bit 8, ry at bit 16. */
const packStep = (s: MorphStep) => (s.op === 'dilate' ? 1 : 0) | (s.shape === 'disk' ? 2 : 0) | (s.radiusX << 8) | (s.radiusY << 16);

/**
 * The one-pass kernel for these steps: its halo covers the radii summed (a step is wrong only within its radius of
 * the tile's edge). The largest chain (four steps of radius 15) needs 2·12·152 words of workgroup memory, 14.6 KB.
 */
function tileKernel(steps: readonly MorphStep[]): KernelSpec {
  const HX = Math.ceil(steps.reduce((a, s) => a + s.radiusX, 0) / 32);
  const HY = steps.reduce((a, s) => a + s.radiusY, 0);
  const SHARED = 2 * (tileWords + 2 * HX) * (tileRows + 2 * HY);
  return { shader: 'image/morphology', entryPoint: 'morph', bindings: ['uniform', 'read-only-storage', 'storage'], constants: { TW: tileWords, TH: tileRows, HX, HY, SHARED } };
}

export function morphology(options: MorphologyOptions): OperatorFunction<GpuFrame, GpuFrame> {
  const steps = morphologySteps(options);
  return gpuNode('morphology', async (node) => {
    const k = await node.kernels({
      morph: tileKernel(steps),
      unpack: { shader: 'image/morphology', entryPoint: 'unpack', bindings: ['uniform', 'read-only-storage', 'storage'] },
    });
    const layout = uniformLayout('image/morphology', 'Params');

    const sets = node.perFrame((size, alloc) => {
      const { width, height } = size;
      const pixels = width * height;
      const words = wordsFor(pixels);
      const rowWords = Math.ceil(width / 32);
      // Rows of whole mask words: the tiles write the mask; otherwise a mask word may span two rows (and two
      // tiles), so the tiles write bit rows and unpack makes the mask from them.
      const direct = width % 4 === 0;
      const [step0, step1, step2, step3] = [0, 1, 2, 3].map((i) => (steps[i] ? packStep(steps[i]) : 0));
      return {
        words,
        direct,
        tiles: [Math.ceil(rowWords / tileWords), Math.ceil(height / tileRows)] as const,
        params: alloc.uniform('params', layout, { width, height, pixels, words, rowWords, steps: steps.length, step0, step1, step2, step3, direct: direct ? 1 : 0 }),
        bits: direct ? null : alloc.buffer('bits', rowWords * height * 4, GPUBufferUsage.STORAGE),
        mask: alloc.buffer('mask', words * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC),
      };
    });

    return (f) => {
      if (!f.mask) throw new InvalidFrameError('morphology: the frame has no mask (put threshold() or background() before it)');
      const set = sets.take(f);
      const rec = PassRecorder.of(f, 'morphology');
      rec.grid('morph', k.morph, set.bind('morph', k.morph, [set.params, f.mask, set.bits ?? set.mask]), ...set.tiles);
      if (set.bits) rec.items('unpack', k.unpack, set.bind('unpack', k.unpack, [set.params, set.bits, set.mask]), set.words);
      rec.end();
      return withFrame(f, { mask: set.mask });
    };
  });
}
