/**
 * Dispatch sizes. Every 1-D kernel runs WG invocations per workgroup: the pipeline cache sets each shader's
 * `override WG` to this value, and `dispatchItems` sizes dispatches by it, so the number lives here only.
 * WebGPU caps each dimension at maxComputeWorkgroupsPerDimension (65535 by default), and a 4096×4096 image at 256
 * invocations a group needs 65536 groups, so large dispatches fold into two dimensions; shaders rebuild the linear
 * index with `linearIndex()` from shaders/common/index.wgsl.
 */
export const WG = 256;

export function dispatchSize(items: number, workgroupSize: number, maxPerDim = 65535): [number, number] {
  const groups = Math.ceil(items / workgroupSize);
  if (groups <= maxPerDim) return [Math.max(groups, 1), 1];
  const y = Math.ceil(groups / maxPerDim);
  const x = Math.ceil(groups / y);
  if (y > maxPerDim) throw new RangeError(`${items} items exceed the dispatch limits`);
  return [x, y];
}

/** Number of u32 words holding `pixels` 8-bit values. */
export function wordsFor(pixels: number): number {
  return Math.ceil(pixels / 4);
}
