// Seeded scenes with exact truth and the scores that compare results with it: the evaluation side of the benchmarks.
export * from './images.js';
export * from './corpus.js';
export * from './markerImage.js';
export * from './markerScene.js';
export * from './dotScene.js';
export * from './surveillanceScene.js';
export * from './motMetrics.js';
export * from './boardPhotos.js';
export * from './boardScene.js';
export { centreOf, type Point } from '../markers/centreOf.js';
export { boxIou } from '../track/boxIou.js';
export { boxShare } from '../track/boxShare.js';
export * from './charucoScene.js';
