/**
 * Component features (CCA) on the GPU: per component area, bounding box, centroid, second-order central moments
 * (orientation, axis lengths, eccentricity), perimeter, mean/min/max gray, a border flag and, with `histogram: true`,
 * a 16-bin gray histogram. Accumulated exactly
 * in integers (64-bit sums from two u32 words), filtered on the GPU, and read back as a small struct-of-arrays
 * list sorted by canonical label (`result.features`).
 *
 * Two ways in, chosen by what the frames carry:
 * - **From the mask** (`threshold() → features()`, fastest): `features()` labels the mask itself with C2FL tiles
 *   and accumulates each tile's parts of components while the tile is labelled; parts meet at their roots after
 *   the border merge, and kept components get their canonical labels from the roots' ranks. No label image is
 *   relabelled. `connectivity` chooses 4 or 8 (nodes/components/features/fromMask.ts).
 * - **From labels** (`label() → features()`, any algorithm, canonical labels): one set of atomics per run piece of
 *   the label image (`method: 'runs'`), or `method: 'per-pixel'`, the naive pass with every atomic for every
 *   pixel (nodes/components/features/fromLabels.ts).
 *
 * @example
 * fromPixels(ctx, images).pipe(threshold({ method: 'otsu' }), features({ minArea: 20 }), readResults())
 *   .subscribe((r) => console.log(r.features?.count, r.features?.cx));
 *
 * Needs the gray image and mask `threshold` leaves on the frame. Throws `InvalidOptionError` for bad options;
 * `InvalidFrameError` on the stream for a frame without a mask, or with labels that are not canonical.
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../../src/core/gpuNode.js';
import type { GpuFrame } from '../../src/core/GpuFrame.js';
import { InvalidFrameError, InvalidOptionError } from '../../src/core/errors.js';
import { checkBoolean, checkOptions } from '../../src/core/checkOptions.js';
import { production, type Analysis } from '../../src/core/PassRecorder.js';
import { shapeOf } from '../../src/core/streamInfo.js';
import type { FeatureFilter } from '../../src/components/componentFeatures.js';
import { featuresFromLabels } from './features/fromLabels.js';
import { featuresFromMask } from './features/fromMask.js';
import { checkDeviceLimits, type FeaturesSettings } from './features/settings.js';

export interface FeaturesOptions extends FeatureFilter {
  /** Components read back per frame at most (default 4096); more set `truncated`. */
  maxResults?: number;
  /**
   * Components tracked per frame at most (default: every component a frame can hold, up to 2^20); from the mask,
   * parts of components (one per component and 32×32 tile it touches). More set `overflow`.
   */
  maxComponents?: number;
  /** From labels: `runs` (default), one set of atomics per run piece; `per-pixel`, the naive pass. */
  method?: 'runs' | 'per-pixel';
  /** From the mask: 8 (default) or 4. */
  connectivity?: 4 | 8;
  /**
   * Also count each component's pixels in 16 bins of gray (bin b: gray 16b to 16b + 15), read back as
   * `features.histogram` (component i's bins at 16i … 16i + 15). An appearance that survives two objects' blobs
   * joining, as their means do not: `track()` uses it when present. Costs an atomic per pixel and 64 more bytes read
   * back per result (default false). `'spatial'` also gives where each bin's pixels lie, the mean column and row of
   * each bin (`features.histogramX`, `features.histogramY`, NaN where a bin is empty; a spatiogram): where in a blob
   * of two objects of different grays each of them is. Exact 64-bit sums as the other moments; costs four more
   * atomics per pixel and 320 bytes per result.
   */
  histogram?: boolean | 'spatial';
}

function checkCount(name: string, v: number | undefined, min: number): void {
  if (v !== undefined && (!Number.isInteger(v) || v < min)) throw new InvalidOptionError(`features: ${name} must be an integer ≥ ${min}, got ${v}`);
}

function validate(options: FeaturesOptions, analysis: Analysis): FeaturesSettings {
  checkOptions('features', options, ['minArea', 'maxArea', 'minSide', 'maxSide', 'maxAspect', 'dropBorder', 'maxResults', 'maxComponents', 'method', 'connectivity', 'histogram']);
  checkBoolean('features', 'dropBorder', options.dropBorder);
  const method = options.method ?? 'runs';
  if (method !== 'runs' && method !== 'per-pixel') throw new InvalidOptionError(`features: method must be 'runs' or 'per-pixel', got ${String(method)}`);
  checkCount('minArea', options.minArea, 0);
  checkCount('maxArea', options.maxArea, 0);
  checkCount('minSide', options.minSide, 0);
  checkCount('maxSide', options.maxSide, 0);
  checkCount('maxResults', options.maxResults, 1);
  checkCount('maxComponents', options.maxComponents, 1);
  checkCount('repeat', analysis.repeat, 1);
  for (const [lo, hi] of [['minArea', 'maxArea'], ['minSide', 'maxSide']] as const) {
    const [a, b] = [options[lo], options[hi]];
    if (a !== undefined && b !== undefined && a > b) throw new InvalidOptionError(`features: ${lo} ${a} is above ${hi} ${b}: no component could pass`);
  }
  if (options.maxAspect !== undefined && !(options.maxAspect >= 1)) throw new InvalidOptionError(`features: maxAspect must be ≥ 1, got ${options.maxAspect}`);
  const connectivity = options.connectivity ?? 8;
  if (connectivity !== 4 && connectivity !== 8) throw new InvalidOptionError(`features: connectivity must be 4 or 8, got ${String(connectivity)}`);
  if (options.histogram !== undefined && typeof options.histogram !== 'boolean' && options.histogram !== 'spatial') throw new InvalidOptionError(`features: histogram must be true, false or 'spatial', got ${String(options.histogram)}`);
  return { ...options, maxResults: options.maxResults ?? 4096, method, connectivity, histogram: options.histogram ?? false };
}

export function features(options: FeaturesOptions = {}): OperatorFunction<GpuFrame, GpuFrame> {
  return featuresWith(options, production);
}

/** @internal `features()` as benchmarks run it (kernel repetitions, split passes); not part of the public API. */
export function featuresWith(options: FeaturesOptions, analysis: Analysis): OperatorFunction<GpuFrame, GpuFrame> {
  const s = validate(options, analysis);
  return gpuNode('features', async (node) => {
    checkDeviceLimits(s, node.ctx);
    const labelled = node.input.labels;
    if (!labelled && s.method === 'per-pixel') throw new InvalidFrameError("features: method 'per-pixel' needs labels; put label() before features()");
    const process = await (labelled ? featuresFromLabels : featuresFromMask)(node, s, analysis);
    return (f) => {
      if (!f.gray || !f.mask) throw new InvalidFrameError('features: the frame has no gray image or mask; put threshold() first');
      if (shapeOf(f).labels !== labelled) {
        throw new InvalidFrameError(`features: the stream's frames ${labelled ? 'carried labels, this one has none' : 'had no labels, this one has'}; a stream takes one way in`);
      }
      return process(f);
    };
  });
}
