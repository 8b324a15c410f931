// Plain CPU versions of the GPU nodes: the oracles of the test suite and the reference column of the benchmarks.
export * from './labelCpu.js';
export * from './thresholdCpu.js';
export * from './images.js';
export * from './corpus.js';
export * from './featuresCpu.js';
export * from './markerImage.js';
export * from './markerScene.js';
export * from './markerDecodeCpu.js';
export * from './refineCornersCpu.js';
export * from './detectMarkersCpu.js';
export * from './dotsCpu.js';
export * from './dotScene.js';
export * from './morphologyCpu.js';
export * from './backgroundCpu.js';
export * from './surveillanceScene.js';
export * from './motMetrics.js';
export * from './boardPhotos.js';
