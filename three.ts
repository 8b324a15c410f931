/// <reference types="@webgpu/types" preserve="true" />
// The three.js entry point (`flowmark/three`): AR scenes and overlays on flowmark's GPU device. `three` is an
// optional peer dependency: only this entry imports it.
export { createRenderer, contextForRenderer, offscreenTexture, type CreateRendererOptions } from './src/three/createRenderer.js';
export { IntrinsicCamera } from './src/three/IntrinsicCamera.js';
export { CameraBackground, type CameraBackgroundOptions } from './src/three/CameraBackground.js';
export { MarkerAnchor, type AnchorTarget, type AnchorPose } from './src/three/MarkerAnchor.js';
export { TrackOverlay, pixelCamera, trackColor, type TrackOverlayOptions } from './src/three/TrackOverlay.js';
export { poseMatrix } from './src/three/poseMatrix.js';
export type { FramePicture } from './src/core/results.js';
