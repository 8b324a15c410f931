/// <reference types="@webgpu/types" preserve="true" />
// The operator SDK (`flowmark/extend`): what an operator or source written outside the package needs of the runtime
// (ARCHITECTURE.md, "Adding an operator"), and the analysis variants of the operators the benchmark programs time.
export { gpuNode, type NodeScope, type ProcessFrame } from './src/core/gpuNode.js';
export type { PerFrame, FrameSet, FrameSize, SetAllocator } from './src/core/PerFrame.js';
export { PassRecorder, type Analysis } from './src/core/PassRecorder.js';
export type { WgslModule, ShaderSource } from './src/core/shaderSource.js';
export { uniformLayout, packUniform, wgslConstant, type UniformLayout } from './src/core/uniforms.js';
export { frameSource, leasedFrame, type FrameInputs } from './src/core/frameSource.js';
export { tagSource } from './src/core/streamInfo.js';
export { InFlight, type InFlightPlace } from './src/core/InFlight.js';
export { withFrame, withRead, type ReadRequest, type LabelingState } from './src/core/GpuFrame.js';
export type { FrameLease } from './src/core/FrameLease.js';
export type { BufferPool, BufferPoolStats } from './src/core/BufferPool.js';
export type { PipelineCache, Kernel, KernelSpec, BindingKind, PipelineCacheStats } from './src/core/PipelineCache.js';
export type { ProfileScope } from './src/core/Profiler.js';
export { defaultDawnFlags } from './src/core/gpu.js';
export { labelWith } from './nodes/components/label.js';
export { featuresWith } from './nodes/components/features.js';
export { decodeFeatures, record as featureRecord } from './nodes/components/features/results.js';
export { markersWith } from './nodes/markers/markers.js';
// Building blocks the operators are made of: the tracker alone on boxes and its parts (each `apply`s to its results,
// in the order of the operators), assignment, the pose solvers and rotations.
export { Tracker } from './src/track/Tracker.js';
export { CountingLines } from './src/count/CountingLines.js';
export { Zones } from './src/count/Zones.js';
export { Trails } from './src/track/Trails.js';
export { assign } from './src/track/assign.js';
export { ippeSquare } from './src/pose/ippeSquare.js';
export { refinePose } from './src/pose/refinePose.js';
export { rotationFromVector, vectorFromRotation, quaternionFromRotation, rotationBetween, mul3 } from './src/pose/rotation.js';
export { turnClockwise } from './src/markers/turnClockwise.js';
