/// <reference types="@webgpu/types" preserve="true" />
// (Kept in the published .d.ts, preserve="true": they need the WebGPU types, a dependency of the package.)
// flowmark: composable RxJS operators that turn camera and video frames into labelled components, markers, poses and
// tracks on the GPU (WebGPU + WGSL). The package's main entry: sources, operators, the context, results, errors and
// the pose and camera helpers a user calls. Operator authors: flowmark/extend; CPU oracles and scenes:
// flowmark/reference. ARCHITECTURE.md says what lives where.

// Operators: sources, transforms, the sink.
export { fromPixels, type PixelImage, type FromPixelsOptions } from './nodes/sources/fromPixels.js';
export { fromGpuBuffers, type GpuImage, type FromGpuBuffersOptions } from './nodes/sources/fromGpuBuffers.js';
export { fromCamera, type FromCameraOptions, type CameraStats, type CameraSource } from './nodes/sources/fromCamera.js';
export { fromVideo, type FromVideoOptions } from './nodes/sources/fromVideo.js';
export { videoHasColor } from './nodes/sources/videoHasColor.js';
export { videoBackground } from './nodes/sources/videoBackground.js';
export { cameraPrime, defaultCameraPrimeSettings, type CameraPrimeOptions } from './nodes/sources/cameraPrime.js';
export { defaultVideoBackgroundSettings, type VideoBackgroundOptions } from './nodes/sources/backgroundPick.js';
export type { VideoHasColorOptions } from './nodes/sources/colorTest.js';
export { probeVideo, type VideoInfo } from './nodes/sources/probeVideo.js';
export type { DisplayTransform } from './nodes/sources/displayTransform.js';
export { threshold, type ThresholdOptions } from './nodes/image/threshold.js';
export { background, backgroundSettings, type BackgroundOptions } from './nodes/image/background.js';
export type { PrimeImage } from './src/image/backgroundSettings.js';
export { medianImage } from './src/image/medianImage.js';
export { grayFromRgba } from './src/image/grayFromRgba.js';
export { morphology, morphologySteps, maxElementSize, type MorphologyOptions, type MorphElement } from './nodes/image/morphology.js';
export { label, labelAlgorithms, autoAlgorithm, defaultPasses, type LabelOptions, type LabelAlgorithm } from './nodes/components/label.js';
export { features, type FeaturesOptions } from './nodes/components/features.js';
export { readResults, type ReadResultsOptions } from './nodes/sinks/readResults.js';
export { track, trackEvents, trackSettings, seenTracks, type TrackOptions } from './nodes/track/track.js';
export { blobTracking, blobFeatures, blobTrackOptions, blobWarmup, defaultBlobSettings, type BlobOptions, type BlobSettings, type BlobTrackerChoice } from './nodes/track/blobTracking.js';
export { defaultTrackSettings, type TrackSettings, type Box } from './src/track/Tracker.js';
export { countLines, countLinesSettings, countsAtEnd, type CountLinesOptions } from './nodes/track/countLines.js';
export { zones, zonesSettings, type ZonesOptions } from './nodes/track/zones.js';
export { trails, type TrailsOptions } from './nodes/track/trails.js';
export type { CountingLine } from './src/count/CountingLine.js';
export type { Zone } from './src/count/Zones.js';
export { pose, poseEvents, poseSettings, type PoseOptions } from './nodes/pose/pose.js';
export { MarkerPoser, markerKey, type PoseSettings } from './src/pose/MarkerPoser.js';
export { cameraModel, parseCamera, readOpenCvCalibration, writeOpenCvCalibration, toNormalised, toPixels, projectPoints, type CameraModel, type CameraSpec } from './src/pose/CameraModel.js';
export { squareCorners } from './src/pose/ippeSquare.js';
export { gridBoard, board, type Board, type BoardMarker, type GridBoardOptions } from './src/pose/Board.js';
export { charucoBoard, type CharucoBoard, type CharucoBoardOptions, type CharucoCorner } from './src/pose/charucoBoard.js';
export { charucoCorners, type FoundCharucoCorner } from './src/pose/charucoCorners.js';
export { refineChessCorners, type RefineChessOptions } from './src/pose/refineChessCorners.js';
export { charucoPose } from './src/pose/charucoPose.js';
export { boardPose, type BoardSolution, type SeenBoardMarker } from './src/pose/boardPose.js';
export { calibrateCamera, boardViews, charucoViews, type Calibration, type CalibrationOptions, type CalibrationView } from './src/pose/calibrateCamera.js';
export { reprojectionError, type PoseSolution } from './src/pose/refinePose.js';
export { OneEuroFilter, defaultOneEuroSettings, type OneEuroSettings } from './src/pose/OneEuroFilter.js';
export type { Mat3, Vec3 } from './src/pose/rotation.js';
export { markerDictionary, markerDictionaryNames, MarkerDictionary, type MarkerMatch, type MarkerDictionaryName } from './nodes/markers/MarkerDictionary.js';
export { markers, type MarkersOptions } from './nodes/markers/markers.js';
export { dots, type DotsOptions } from './nodes/components/dots.js';
export { isRoundDot, type DotRule } from './src/components/dotRule.js';

// The runtime: contexts, frames, results, errors.
export { GpuContext, type GpuContextOptions, type GpuFeatures, type GpuLimits } from './src/core/GpuContext.js';
export type { BufferPoolStats } from './src/core/BufferPool.js';
export type { PipelineCacheStats } from './src/core/PipelineCache.js';
export type { PassTiming } from './src/core/Profiler.js';
export type { GpuFrame } from './src/core/GpuFrame.js';
export type { FrameResult, ResultValues, FramePicture, LabelInfo, ThresholdInfo, DetectedMarker, MarkerResults, DetectedDot, TrackInfo, TrackEvent, TrackResults, MarkerPose, BoardPose, PoseEvent, PoseResults } from './src/core/results.js';
export type { ComponentFeatures, FeatureFilter } from './src/components/componentFeatures.js';
export * from './src/core/errors.js';

