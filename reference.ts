/// <reference types="@webgpu/types" preserve="true" />
// `flowmark/reference`: the plain CPU versions of the GPU operators (the test suite's oracles and the benchmarks'
// reference column), the seeded scenes with exact truth, and the evaluation metrics. Test-side code: nothing the
// main entry ships imports it.
export * from './src/reference/index.js';
export * from './src/eval/index.js';
