// flowmark: composable RxJS operators that label connected components on the GPU (WebGPU + WGSL).
export { GpuContext, type GpuContextOptions, type GpuFeatures, type GpuLimits } from './GpuContext.js';
export { BufferPool, type BufferPoolStats } from './BufferPool.js';
export { PipelineCache, kernelKey, type Kernel, type KernelSpec, type BindingKind, type PipelineCacheStats } from './PipelineCache.js';
export { Profiler, ProfileScope, type PassTiming } from './Profiler.js';
export { makeFrame, withFrame, withRead, type GpuFrame, type ReadRequest, type LabelingState } from './GpuFrame.js';
export { InFlight, type FrameLease } from './InFlight.js';
export { gpuNode, type NodeInstance, type NodeScope } from './gpuNode.js';
export type { FrameResult, ResultValues, LabelInfo, ThresholdInfo } from './results.js';
export * from './errors.js';
export { fromPixels, type PixelImage, type FromPixelsOptions } from '../nodes/fromPixels.js';
export { fromGpuBuffers, type GpuImage } from '../nodes/fromGpuBuffers.js';
export { threshold, type ThresholdOptions } from '../nodes/threshold.js';
export { label, labelAlgorithms, autoAlgorithm, defaultPasses, type LabelOptions, type LabelAlgorithm } from '../nodes/label.js';
export { readResults, type ReadResultsOptions } from '../nodes/readResults.js';
export { features, type FeaturesOptions, type FeatureFilter } from '../nodes/features.js';
export type { ComponentFeatures } from './features/record.js';
export * as reference from './reference/index.js';
export { probeMp4, type VideoInfo } from './video/probeMp4.js';
