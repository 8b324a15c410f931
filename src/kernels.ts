/**
 * Small helpers for recording compute work: bind groups from a kernel's layout and a list of buffers, and 1D
 * dispatches folded into two dimensions (see dispatch.ts).
 */
import type { Kernel } from './PipelineCache.js';
import { dispatchSize } from './dispatch.js';

/** A bind group for `kernel` from its resources in binding order: buffers, or texture views. */
export function bindGroup(device: GPUDevice, label: string, kernel: Kernel, resources: readonly (GPUBuffer | GPUTextureView)[]): GPUBindGroup {
  return device.createBindGroup({
    label,
    layout: kernel.layout,
    entries: resources.map((r, binding) => ({ binding, resource: 'size' in r ? { buffer: r } : r })),
  });
}

/** Dispatches `items` invocations of a kernel whose workgroup size is `wg`. */
export function dispatch1d(pass: GPUComputePassEncoder, kernel: Kernel, group: GPUBindGroup, items: number, wg: number, maxPerDim: number): void {
  const [x, y] = dispatchSize(items, wg, maxPerDim);
  pass.setPipeline(kernel.pipeline);
  pass.setBindGroup(0, group);
  pass.dispatchWorkgroups(x, y);
}
