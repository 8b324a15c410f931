/**
 * Where the C2FL tile kernel spends its time: the kernel at three stages (1: load mask and store labels,
 * 2: + run unions in workgroup memory, 3: + compression, as in production), each timed over ten back-to-back
 * dispatches in one pass, on a 2048×2048 random image (g = 4, d = 0.5).
 *
 *   node dist/bench/tiles.js [--dawn backend=vulkan]
 */
import { parseArgs } from 'node:util';
import { GpuContext } from '../src/index.js';
import { defaultDawnFlags } from '../src/gpu.js';
import { randomBlocks } from '../src/reference/images.js';
import { packUniform, uniformLayout } from '../src/uniforms.js';
import { bindGroup } from '../src/kernels.js';
import { runMain, timePass } from './timing.js';

const { values } = parseArgs({ options: { dawn: { type: 'string', multiple: true, default: [] }, size: { type: 'string', default: '2048' } } });

async function main(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'tiles', dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  const { device } = ctx;
  const size = Number(values.size);
  const pixels = size * size;
  const pixelGroup = ['uniform', 'read-only-storage', 'storage', 'storage', 'storage', 'storage'] as const;
  const mk = (usage: number, bytes: number, label: string) => device.createBuffer({ label, size: bytes, usage });
  const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const params = mk(GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, 32, 'params');
  device.queue.writeBuffer(params, 0, packUniform(uniformLayout('label/c2fl', 'Params'), { width: size, height: size, pixels, groupsX: 1, groupsY: 1, blocks: 1 }));
  const mask = mk(S, pixels, 'mask');
  device.queue.writeBuffer(mask, 0, randomBlocks(size, size, 0.5, 4, 3) as Uint8Array<ArrayBuffer>);
  const L = mk(S, pixels * 4, 'L');
  const [info, blocks, out] = ['info', 'blocks', 'out'].map((n) => mk(S, 256, n));
  const t = size / 32;
  console.log(`device: ${ctx.adapterName}; ${size}×${size}, g = 4, d = 0.5`);
  for (const stage of [1, 2, 3]) {
    const k = await ctx.pipelines.acquire({ shader: 'label/c2fl', entryPoint: 'tileLabel', bindings: pixelGroup, constants: { CONN8: 1, STAGE: stage } });
    const group = bindGroup(device, 'tiles', k, [params, mask, L, info, blocks, out]);
    const us = (await timePass(device, 'tiles', (pass) => {
      pass.setPipeline(k.pipeline);
      pass.setBindGroup(0, group);
      for (let i = 0; i < 10; i++) pass.dispatchWorkgroups(t, t);
    }, 50, 10)) / 10;
    console.log(`stage ${stage}: ${us.toFixed(2)} µs per dispatch (median of 50 passes of 10)`);
  }
  ctx.destroy();
}

runMain(main);
