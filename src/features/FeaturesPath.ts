/**
 * How `features()` measures a frame: from the labels `label()` left on it (labelledFeatures.ts), or by labelling
 * the mask itself with features accumulated during labeling (fusedComponents.ts). Each records its passes into
 * the frame's encoder and returns the frame with a `features` read request.
 */
import type { GpuContext } from '../GpuContext.js';
import { withRead, type GpuFrame } from '../GpuFrame.js';
import type { FeatureFilter } from '../../nodes/features.js';
import { decodeFeatures, record } from './record.js';

export interface FeaturesPath {
  record(frame: GpuFrame): GpuFrame;
  dispose(): void;
}

/** `features()` options after validation. */
export interface FeaturesSettings extends FeatureFilter {
  maxResults: number;
  maxComponents?: number;
  method: 'fused' | 'per-pixel';
  connectivity: 4 | 8;
  profileKernels: boolean;
  repeat: number;
}

/** The filter as the shaders' Params fields. */
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

/** The results buffer both ways in write (header, then label and record per kept component) and its read request. */
export function featureResults(ctx: GpuContext, s: FeaturesSettings, name: string) {
  const bytes = (record.HEAD + s.maxResults * (record.REC + 1)) * 4;
  const buffer = ctx.pool.acquire(`${name}:results`, bytes, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
  return {
    buffer,
    read(f: GpuFrame): GpuFrame {
      const { width, height } = f;
      return withRead(f, { key: 'features', buffer, offset: 0, size: bytes, decode: (b) => decodeFeatures(b, width, height, s.maxResults) });
    },
  };
}
