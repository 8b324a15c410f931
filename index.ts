/// <reference types="@webgpu/types" preserve="true" />
// (Kept in the published .d.ts, preserve="true": they need the WebGPU types, a dependency of the package.)
// flowmark: composable RxJS operators that turn camera and video frames into labelled components and their
// features on the GPU (WebGPU + WGSL). The package's entry point: the operators (nodes/) and what a user or an
// operator written outside the package needs of the runtime (src/). ARCHITECTURE.md says what lives where.

// Operators: sources, transforms, the sink.
export { fromPixels, type PixelImage, type FromPixelsOptions } from './nodes/sources/fromPixels.js';
export { fromGpuBuffers, type GpuImage, type FromGpuBuffersOptions } from './nodes/sources/fromGpuBuffers.js';
export { fromCamera, type CameraOptions, type CameraStats, type CameraSource } from './nodes/sources/fromCamera.js';
export { fromVideo, type FromVideoOptions } from './nodes/sources/fromVideo.js';
export { videoHasColor } from './nodes/sources/videoHasColor.js';
export { videoBackground } from './nodes/sources/videoBackground.js';
export { cameraPrime, cameraPrimeDefaults, type CameraPrimeOptions } from './nodes/sources/cameraPrime.js';
export { videoBackgroundDefaults, type VideoBackgroundOptions } from './nodes/sources/backgroundPick.js';
export type { VideoHasColorOptions } from './nodes/sources/colorTest.js';
export { probeMp4, type VideoInfo } from './nodes/sources/probeMp4.js';
export type { DisplayTransform } from './nodes/sources/displayTransform.js';
export { threshold, type ThresholdOptions } from './nodes/threshold.js';
export { background, backgroundSettings, type BackgroundOptions } from './nodes/background.js';
export type { PrimeImage } from './src/reference/backgroundCpu.js';
export { medianImage } from './src/medianImage.js';
export { morphology, morphologySteps, maxElementSize, type MorphologyOptions, type MorphElement } from './nodes/morphology.js';
export { label, labelAlgorithms, autoAlgorithm, defaultPasses, type LabelOptions, type LabelAlgorithm } from './nodes/label.js';
export { features, type FeaturesOptions } from './nodes/features.js';
export { readResults, type ReadResultsOptions } from './nodes/readResults.js';
export { track, trackEvents, trackerSettings, seenTracks, countsAtEnd, type TrackOptions } from './nodes/track.js';
export { Tracker, defaultTrackerSettings, type TrackerSettings, type CountingLine, type Zone, type Box } from './src/track/Tracker.js';
export { assign } from './src/track/assign.js';
export { pose, poseEvents, poserSettings, type PoseOptions } from './nodes/pose.js';
export { MarkerPoser, type PoserSettings } from './src/pose/MarkerPoser.js';
export { cameraModel, parseCamera, readOpenCvCalibration, writeOpenCvCalibration, toNormalised, toPixels, projectPoints, type CameraModel, type CameraSpec } from './src/pose/CameraModel.js';
export { ippeSquare, squareCorners } from './src/pose/ippeSquare.js';
export { gridBoard, board, type Board, type BoardMarker, type GridBoardOptions } from './src/pose/Board.js';
export { boardPose, type BoardSolution, type SeenBoardMarker } from './src/pose/boardPose.js';
export { calibrateCamera, boardViews, type Calibration, type CalibrationOptions, type CalibrationView } from './src/pose/calibrateCamera.js';
export { refinePose, reprojectionError, type PoseSolution } from './src/pose/refinePose.js';
export { OneEuroFilter, defaultOneEuro, type OneEuroSettings } from './src/pose/OneEuroFilter.js';
export { rotationFromVector, vectorFromRotation, quaternionFromRotation, rotationBetween, mul3, type Mat3, type Vec3 } from './src/pose/rotation.js';
export { markerDictionary, markerDictionaryNames, MarkerDictionary, type MarkerMatch, type MarkerDictionaryName } from './nodes/markers/MarkerDictionary.js';
export { markers, type MarkersOptions } from './nodes/markers.js';
export { dots, type DotsOptions } from './nodes/dots.js';
export { isRoundDot, type DotRule } from './src/dots.js';
export { turnClockwise } from './src/turnClockwise.js';

// The runtime: contexts, frames, results, errors.
export { GpuContext, type GpuContextOptions, type GpuFeatures, type GpuLimits } from './src/GpuContext.js';
export type { BufferPool, BufferPoolStats } from './src/BufferPool.js';
export type { PipelineCache, Kernel, KernelSpec, BindingKind, PipelineCacheStats } from './src/PipelineCache.js';
export type { PassTiming, ProfileScope } from './src/Profiler.js';
export { withFrame, withRead, type GpuFrame, type ReadRequest, type LabelingState } from './src/GpuFrame.js';
export type { FrameLease } from './src/FrameLease.js';
export type { FrameResult, ResultValues, FramePicture, LabelInfo, ThresholdInfo, DetectedMarker, MarkerResults, DetectedDot, TrackInfo, TrackEvent, TrackResults, MarkerPose, BoardPose, PoseEvent, PoseResults } from './src/results.js';
export type { ComponentFeatures, FeatureFilter } from './src/componentFeatures.js';
export * from './src/errors.js';
export * as reference from './src/reference/index.js';

// Writing operators and sources of your own (ARCHITECTURE.md, "Adding an operator").
export { gpuNode, type NodeScope, type ProcessFrame } from './src/gpuNode.js';
export type { PerFrame, FrameSet, FrameSize, SetAllocator } from './src/PerFrame.js';
export { PassRecorder } from './src/PassRecorder.js';
export type { WgslModule, ShaderSource } from './src/shaderSource.js';
export { uniformLayout, packUniform, wgslConstant, type UniformLayout } from './src/uniforms.js';
export { frameSource, leasedFrame, type FrameInputs } from './src/frameSource.js';
export { tagSource } from './src/streamInfo.js';
export { InFlight, type InFlightPlace } from './src/InFlight.js';
