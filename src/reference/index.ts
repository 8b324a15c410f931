// Plain CPU versions of the GPU operators: the oracles of the test suite and the reference column of the benchmarks.
export * from './labelCpu.js';
export * from './thresholdCpu.js';
export * from './featuresCpu.js';
export * from './markerDecodeCpu.js';
export * from './refineCornersCpu.js';
export * from './detectMarkersCpu.js';
export * from './dotsCpu.js';
export * from './morphologyCpu.js';
export * from './backgroundCpu.js';
