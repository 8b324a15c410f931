/// <reference types="@webgpu/types" preserve="true" />
// The Node entry point (`flowmark/node`): sources that read files (node:fs) and decode video with ffmpeg.
export { readPng, type ReadPngOptions } from './nodes/sources/readPng.js';
export { fromPng } from './nodes/sources/fromPng.js';
export { fromVideoFile, probeVideoFile, type FromVideoFileOptions } from './nodes/sources/fromVideoFile.js';
export { videoFileHasColor, type VideoFileHasColorOptions } from './nodes/sources/videoFileHasColor.js';
export { videoFileBackground, type VideoFileBackgroundOptions } from './nodes/sources/videoFileBackground.js';
