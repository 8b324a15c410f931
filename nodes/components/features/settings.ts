/** `features()` options after validation, and the filter as the shaders' Params fields. */
import type { FeatureFilter } from '../../../src/components/componentFeatures.js';
import type { GpuContext } from '../../../src/core/GpuContext.js';
import { InvalidOptionError } from '../../../src/core/errors.js';
import { resultBytes, resultWords, record, type HistogramKind } from './results.js';

export interface FeaturesSettings extends FeatureFilter {
  readonly maxResults: number;
  readonly maxComponents?: number;
  /** From labels: one set of atomics per run piece (`runs`), or per pixel (`per-pixel`, the naive pass). */
  readonly method: 'runs' | 'per-pixel';
  /** From the mask: the connectivity of its own labeling. */
  readonly connectivity: 4 | 8;
  readonly histogram: HistogramKind;
}

/** The filter fields of both shaders' Params (shaders/common/filterParams.wgsl). */
export function filterParams(s: FeaturesSettings): Record<string, number> {
  return {
    maxResults: s.maxResults,
    minArea: s.minArea ?? 0,
    maxArea: s.maxArea ?? 0xffffffff,
    minSide: s.minSide ?? 0,
    maxSide: s.maxSide ?? 0xffffffff,
    maxAspect: s.maxAspect ?? 3.4e38,
    dropBorder: s.dropBorder ? 1 : 0,
  };
}

/**
 * `maxResults` against this device: the results buffer is one storage binding. Checked when the operator is built
 * on a context (at subscription), before anything is allocated.
 */
export function checkDeviceLimits(s: FeaturesSettings, ctx: GpuContext): void {
  const limit = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
  if (resultBytes(s.maxResults, s.histogram) > limit) {
    const most = Math.floor((limit / 4 - record.HEAD) / resultWords(s.histogram));
    throw new InvalidOptionError(`features: maxResults ${s.maxResults} needs ${resultBytes(s.maxResults, s.histogram)} bytes of results, over this device's limit of ${limit} bytes per buffer; at most ${most}`);
  }
}
