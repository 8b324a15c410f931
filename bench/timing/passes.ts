/**
 * Micro-benchmark of the floor under every node: the GPU time of an (almost) empty timed pass, of one dispatch
 * that copies 16 MiB of u32 words, and of ten such dispatches in one pass. Tells per-pass and per-dispatch
 * overheads apart from bandwidth on the device at hand.
 *
 *   node dist/bench/timing/passes.js [--dawn backend=vulkan]
 */
import { GpuContext } from '../../index.js';
import { defaultDawnFlags } from '../../extend.js';
import { runMain, timePass } from '../support/timing.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(import.meta.url, { dawn: { type: 'string', multiple: true, default: [] }, reps: { type: 'string', default: '50' } }, ['reps']);

const code = /* wgsl */ `
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@compute @workgroup_size(256)
fn copy(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.y * nwg.x * 256u + gid.x;
  if (i < arrayLength(&src)) { dst[i] = src[i]; }
}
@compute @workgroup_size(1)
fn nothing() { }
`;

async function main(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'passes', profile: true, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  const { device } = ctx;
  if (!ctx.features.timestamps) throw new Error('needs timestamp-query');
  const n = 4 << 20;
  const module = device.createShaderModule({ label: 'passes', code });
  const layout = device.createBindGroupLayout({
    label: 'passes',
    entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
      { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
    ],
  });
  const pl = device.createPipelineLayout({ label: 'passes', bindGroupLayouts: [layout] });
  const copy = await device.createComputePipelineAsync({ label: 'copy', layout: pl, compute: { module, entryPoint: 'copy' } });
  const nothing = await device.createComputePipelineAsync({ label: 'nothing', layout: pl, compute: { module, entryPoint: 'nothing' } });
  const a = device.createBuffer({ label: 'a', size: n * 4, usage: GPUBufferUsage.STORAGE });
  const b = device.createBuffer({ label: 'b', size: n * 4, usage: GPUBufferUsage.STORAGE });
  const group = device.createBindGroup({ label: 'ab', layout, entries: [{ binding: 0, resource: { buffer: a } }, { binding: 1, resource: { buffer: b } }] });
  const groups = n / 256;
  const reps = Number(values.reps);
  const dispatch = (pass: GPUComputePassEncoder, pipe: GPUComputePipeline, g: number, times: number) => {
    pass.setPipeline(pipe);
    pass.setBindGroup(0, group);
    for (let t = 0; t < times; t++) pass.dispatchWorkgroups(Math.min(g, 32768), Math.ceil(g / 32768));
  };
  const empty = await timePass(device, 'empty', (pass) => dispatch(pass, nothing, 1, 1), reps);
  const one = await timePass(device, 'copy', (pass) => dispatch(pass, copy, groups, 1), reps);
  const ten = (await timePass(device, 'copy10', (pass) => dispatch(pass, copy, groups, 10), reps)) / 10;
  console.log(`device: ${ctx.adapterName}`);
  console.log(`empty pass (1 workgroup):          ${empty.toFixed(2)} µs`);
  console.log(`copy 16 MiB, 1 dispatch:           ${one.toFixed(2)} µs (${((2 * n * 4) / one / 1e6).toFixed(2)} TB/s read+write)`);
  console.log(`copy 16 MiB ×10 in one pass:       ${ten.toFixed(2)} µs per dispatch (${((2 * n * 4) / ten / 1e6).toFixed(2)} TB/s)`);
  ctx.destroy();
}

runMain(main);
