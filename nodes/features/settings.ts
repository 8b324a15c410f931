/** `features()` options after validation, and the filter as the shaders' Params fields. */
import type { FeatureFilter } from '../../src/componentFeatures.js';

export interface FeaturesSettings extends FeatureFilter {
  readonly maxResults: number;
  readonly maxComponents?: number;
  /** From labels: one set of atomics per run piece (`runs`), or per pixel (`per-pixel`, the naive pass). */
  readonly method: 'runs' | 'per-pixel';
  /** From the mask: the connectivity of its own labeling. */
  readonly connectivity: 4 | 8;
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
