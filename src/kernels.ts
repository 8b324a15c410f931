/**
 * Small helpers for recording compute work: bind groups from a kernel's layout and a list of buffers, and 1D
 * dispatches folded into two dimensions (see dispatch.ts).
 */
import type { Kernel } from './PipelineCache.js';
import { dispatchSize } from './dispatch.js';

export function bindGroup(device: GPUDevice, label: string, kernel: Kernel, buffers: readonly GPUBuffer[]): GPUBindGroup {
  return device.createBindGroup({
    label,
    layout: kernel.layout,
    entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
}

/** Dispatches `items` invocations of a kernel whose workgroup size is `wg`. */
export function dispatch1d(pass: GPUComputePassEncoder, kernel: Kernel, group: GPUBindGroup, items: number, wg: number, maxPerDim: number): void {
  const [x, y] = dispatchSize(items, wg, maxPerDim);
  pass.setPipeline(kernel.pipeline);
  pass.setBindGroup(0, group);
  pass.dispatchWorkgroups(x, y);
}
