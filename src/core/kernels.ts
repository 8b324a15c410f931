/**
 * Recording compute work: a bind group from a kernel's layout and its resources in binding order, and the two ways
 * every operator dispatches a kernel: a grid of workgroups, or 1-D work over items (WG invocations a workgroup,
 * folded into two dimensions past the per-dimension limit; see dispatch.ts).
 */
import type { Kernel } from './PipelineCache.js';
import { dispatchSize, WG } from './dispatch.js';

/** A buffer (bound whole) or a texture view. */
export type BindingResource = GPUBuffer | GPUTextureView;

/** A bind group for `kernel` from its resources in binding order. */
export function bindGroup(device: GPUDevice, label: string, kernel: Kernel, resources: readonly BindingResource[]): GPUBindGroup {
  return device.createBindGroup({
    label,
    layout: kernel.layout,
    entries: resources.map((r, binding) => ({ binding, resource: 'size' in r ? { buffer: r } : r })),
  });
}

/**
 * What each open pass last bound. One frame at a time is host-bound, and every call into the WebGPU binding costs
 * about a microsecond in Node: a kernel dispatched again with the same bind group (Shibata's passes, repeated
 * stages) needs only the dispatch. Every dispatch of the library goes through `dispatch`, so this is exact.
 */
const bound = new WeakMap<GPUComputePassEncoder, { pipeline: GPUComputePipeline; group: GPUBindGroup }>();

/** `x × y × z` workgroups of a kernel. */
export function dispatch(pass: GPUComputePassEncoder, kernel: Kernel, group: GPUBindGroup, x: number, y = 1, z = 1): void {
  const last = bound.get(pass);
  if (last?.pipeline !== kernel.pipeline || last.group !== group) {
    if (last?.pipeline !== kernel.pipeline) pass.setPipeline(kernel.pipeline);
    pass.setBindGroup(0, group);
    bound.set(pass, { pipeline: kernel.pipeline, group });
  }
  pass.dispatchWorkgroups(x, y, z);
}

/** One invocation per item of a 1-D kernel (workgroup size WG). */
export function dispatchItems(pass: GPUComputePassEncoder, kernel: Kernel, group: GPUBindGroup, items: number, maxPerDim: number): void {
  const [x, y] = dispatchSize(items, WG, maxPerDim);
  dispatch(pass, kernel, group, x, y);
}
