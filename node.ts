/// <reference types="@webgpu/types" preserve="true" />
// The Node entry point (`flowmark/node`): sources that read files (node:fs) and decode video with ffmpeg.
export { readImage, type ReadImageOptions } from './nodes/sources/readImage.js';
export { readPng, type ReadPngOptions } from './nodes/sources/readPng.js';
export { fromImages, type FromImagesOptions } from './nodes/sources/fromImages.js';
export { fromCameraUrl, type FromCameraUrlOptions, type CameraUrlSource, type CameraUrlStats, type CameraStatus } from './nodes/sources/fromCameraUrl.js';
export { fromVideoFile, probeVideoFile, readVideoFrames, type FromVideoFileOptions, type ReadVideoFramesOptions } from './nodes/sources/fromVideoFile.js';
export { videoFileHasColor, type VideoFileHasColorOptions } from './nodes/sources/videoFileHasColor.js';
export { videoFileBackground, type VideoFileBackgroundOptions } from './nodes/sources/videoFileBackground.js';
export { FleetWorker, type FleetWorkerOptions, type FleetWorkerEvent } from './nodes/fleet/FleetWorker.js';
export { addCamera, removeCamera, fleetCameras, type FleetOptions, type FleetCamera } from './nodes/fleet/cameraFleet.js';
export { checkCameraSpec, type CameraSpec, type FleetCameraOptions, type FleetTrackingOptions } from './nodes/fleet/CameraSpec.js';
export { parseCameraResult, type CameraResult, type LineCounts } from './nodes/fleet/CameraResult.js';
export { fleetResults, type FleetResultsOptions } from './nodes/fleet/fleetResults.js';
export { fleetKeys, workerGroup, type FleetKeys } from './nodes/fleet/fleetKeys.js';
export type { RedisLink } from './nodes/fleet/RedisLink.js';
