/// <reference types="@webgpu/types" preserve="true" />
// The Node entry point (`flowmark/node`): sources that read files (node:fs) and decode video with ffmpeg.
export { readImage, type ReadImageOptions } from './nodes/sources/readImage.js';
export { readPng, type ReadPngOptions } from './nodes/sources/readPng.js';
export { fromImages, type FromImagesOptions } from './nodes/sources/fromImages.js';
export { fromCameraUrl, type FromCameraUrlOptions, type CameraUrlSource, type CameraUrlStats, type CameraStatus } from './nodes/sources/fromCameraUrl.js';
export { fromVideoFile, probeVideoFile, readVideoFrames, type FromVideoFileOptions, type ReadVideoFramesOptions } from './nodes/sources/fromVideoFile.js';
export { videoFileHasColor, type VideoFileHasColorOptions } from './nodes/sources/videoFileHasColor.js';
export { videoFileBackground, type VideoFileBackgroundOptions } from './nodes/sources/videoFileBackground.js';
