/**
 * Component features (CCA) on the GPU: per component area, bounding box, centroid, second-order central moments
 * (orientation, axis lengths, eccentricity), perimeter, mean/min/max gray and a border flag. Accumulated exactly
 * in integers (64-bit sums from two u32 words), filtered on the GPU, and read back as a small struct-of-arrays
 * list sorted by canonical label (`result.features`).
 *
 * Two ways in:
 * - **Straight after `threshold()`** (fastest): `features()` labels the mask itself with C2FL tiles and
 *   accumulates each tile's parts of components while the tile is labelled; parts meet at their roots after the
 *   border merge, and kept components get their canonical labels from the roots' ranks. No label image is
 *   relabelled. `connectivity` chooses 4 or 8.
 * - **After `label()`** (any algorithm, canonical labels): one set of atomics per run piece of the label image,
 *   or `method: 'per-pixel'`, the naive pass with every atomic for every pixel (for comparison).
 *
 * @example
 * fromPixels(ctx, images).pipe(threshold({ method: 'otsu' }), features({ minArea: 20 }), readResults())
 *   .subscribe((r) => console.log(r.features?.count, r.features?.cx));
 *
 * Needs the gray image and mask `threshold` leaves on the frame. Throws `InvalidOptionError` for bad options;
 * `InvalidFrameError` on the stream for a frame without a mask, or with labels that are not canonical.
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../src/gpuNode.js';
import type { GpuFrame } from '../src/GpuFrame.js';
import { InvalidFrameError, InvalidOptionError } from '../src/errors.js';
import type { FeaturesPath, FeaturesSettings } from '../src/features/FeaturesPath.js';
import { labelledFeatures } from '../src/features/labelledFeatures.js';
import { fusedComponents } from '../src/features/fusedComponents.js';

export interface FeatureFilter {
  minArea?: number;
  maxArea?: number;
  /** Bounds on the bounding box's shorter and longer sides. */
  minSide?: number;
  maxSide?: number;
  /** Longest allowed ratio of the box's longer to shorter side. */
  maxAspect?: number;
  /** Drop components whose box touches the frame border. */
  dropBorder?: boolean;
}

export interface FeaturesOptions extends FeatureFilter {
  /** Components read back per frame at most (default 4096); more set `truncated`. */
  maxResults?: number;
  /**
   * Components tracked per frame at most (default: every component a frame can hold, up to 2^20); without
   * `label()`, parts of components (one per component and 32×32 tile it touches). More set `overflow`.
   */
  maxComponents?: number;
  /** After `label()`: `fused` (default), one set of atomics per run piece; `per-pixel`, the naive pass. */
  method?: 'fused' | 'per-pixel';
  /** Without `label()`: 8 (default) or 4. */
  connectivity?: 4 | 8;
  /** Analysis only: time each kernel in a pass of its own. */
  profileKernels?: boolean;
  /** Analysis only: record the kernels this many times per frame, for steady-state timing (see `label`). */
  repeat?: number;
}

function checkCount(name: string, v: number | undefined, min: number): void {
  if (v !== undefined && (!Number.isInteger(v) || v < min)) throw new InvalidOptionError(`features: ${name} must be an integer ≥ ${min}, got ${v}`);
}

export function features(options: FeaturesOptions = {}): OperatorFunction<GpuFrame, GpuFrame> {
  const method = options.method ?? 'fused';
  if (method !== 'fused' && method !== 'per-pixel') throw new InvalidOptionError(`features: method must be 'fused' or 'per-pixel', got ${String(method)}`);
  checkCount('minArea', options.minArea, 0);
  checkCount('maxArea', options.maxArea, 0);
  checkCount('minSide', options.minSide, 0);
  checkCount('maxSide', options.maxSide, 0);
  checkCount('maxResults', options.maxResults, 1);
  checkCount('maxComponents', options.maxComponents, 1);
  if (options.maxAspect !== undefined && !(options.maxAspect >= 1)) throw new InvalidOptionError(`features: maxAspect must be ≥ 1, got ${options.maxAspect}`);
  const connectivity = options.connectivity ?? 8;
  if (connectivity !== 4 && connectivity !== 8) throw new InvalidOptionError(`features: connectivity must be 4 or 8, got ${String(connectivity)}`);
  const settings: FeaturesSettings = {
    ...options,
    maxResults: options.maxResults ?? 4096,
    method,
    connectivity,
    profileKernels: options.profileKernels ?? false,
    repeat: options.repeat ?? 1,
  };
  checkCount('repeat', settings.repeat, 1);

  return gpuNode(async (ctx, scope) => {
    // Each way in compiles its kernels on the first frame that needs them.
    const paths = new Map<'labelled' | 'fused', Promise<FeaturesPath>>();
    const ready = new Map<'labelled' | 'fused', FeaturesPath>();
    const path = (kind: 'labelled' | 'fused') => {
      let p = paths.get(kind);
      if (!p) {
        p = (kind === 'labelled' ? labelledFeatures : fusedComponents)(ctx, settings);
        p.then((made) => (scope.closed ? made.dispose() : ready.set(kind, made)), () => {});
        paths.set(kind, p);
      }
      return p;
    };
    return {
      process(f: GpuFrame) {
        if (!f.gray || !f.mask) throw new InvalidFrameError('features: the frame has no gray image or mask; put threshold() first');
        const kind = f.labels && f.labeling ? 'labelled' : 'fused';
        if (kind === 'fused' && method === 'per-pixel') throw new InvalidFrameError("features: method 'per-pixel' needs labels; put label() before features()");
        const made = ready.get(kind);
        return made ? made.record(f) : path(kind).then((p) => (scope.closed ? f : p.record(f)));
      },
      dispose() {
        for (const p of ready.values()) p.dispose();
      },
    };
  });
}
