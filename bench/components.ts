/**
 * Where the one-labeling features path (shaders/components.wgsl) spends its time, on 2048×2048 random images
 * (g = 4) at a few densities: the tile kernel at its analysis stages (1: label and store, 2: + local roots and
 * parts' allocation, 3: + run accumulation, 4: + parts written, as in production), with every label stored, with
 * other workgroup-memory slot counts, and the kernels added one by one. Each figure is µs per repetition, from one
 * submission of ten repetitions (median of 30 submissions).
 *
 *   node dist/bench/components.js [--dawn backend=vulkan] [--densities 0,0.2,0.5,0.9]
 */
import { parseArgs } from 'node:util';
import { GpuContext } from '../src/index.js';
import { defaultDawnFlags } from '../src/gpu.js';
import { randomBlocks } from '../src/reference/images.js';
import { packUniform, uniformLayout } from '../src/uniforms.js';
import { bindGroup } from '../src/kernels.js';
import type { Kernel } from '../src/PipelineCache.js';
import { runMain } from './timing.js';

const { values } = parseArgs({
  options: {
    dawn: { type: 'string', multiple: true, default: [] },
    size: { type: 'string', default: '2048' },
    g: { type: 'string', default: '4' },
    densities: { type: 'string', default: '0,0.2,0.5,0.9' },
  },
});

async function main(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'components', dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  const { device } = ctx;
  const size = Number(values.size);
  const pixels = size * size;
  const t = Math.ceil(size / 32);
  const group = ['uniform', 'read-only-storage', 'read-only-storage', 'storage', 'storage', 'storage', 'storage'] as const;
  const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const mk = (usage: number, bytes: number, label: string) => device.createBuffer({ label, size: bytes, usage });
  const params = mk(GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, 64, 'params');
  const capacity = 1 << 20;
  device.queue.writeBuffer(params, 0, packUniform(uniformLayout('components', 'Params'), {
    width: size, height: size, tilesX: t, tilesY: t, capacity, maxResults: 1024,
    minArea: 0, maxArea: 0xffffffff, minSide: 0, maxSide: 0xffffffff, maxAspect: 3.4e38, dropBorder: 0,
  }));
  const mask = mk(S, pixels, 'mask');
  const gray = mk(S, pixels, 'gray');
  const L = mk(S, pixels * 4, 'L');
  const parts = mk(S, capacity * 21 * 4, 'parts');
  const book = mk(S, (4 + 2 * t * t + t + 2 * t * t * 32) * 4, 'book');
  const results = mk(S, (4 + 1024 * 21) * 4, 'results');
  device.queue.writeBuffer(book, 0, new Uint32Array(4));
  const kernel = (entryPoint: string, constants: Record<string, number> = {}) =>
    ctx.pipelines.acquire({ shader: 'components', entryPoint, bindings: group, constants: { CONN8: 1, ...constants } });
  const [merge, resolve, scan, compact] = await Promise.all(['mergeTiles', 'resolve', 'scanRoots', 'compactParts'].map((e) => kernel(e)));
  const bind = bindGroup(device, 'components', merge, [params, mask, gray, L, parts, book, results]);
  const run = (pass: GPUComputePassEncoder, k: Kernel) => {
    pass.setPipeline(k.pipeline);
    pass.setBindGroup(0, bind);
    // resolve and compact take 4×4 tiles per workgroup (GROUP in components.wgsl).
    if (k === scan) return pass.dispatchWorkgroups(t);
    const g = k === resolve || k === compact ? 4 : 1;
    pass.dispatchWorkgroups(Math.ceil(t / g), Math.ceil(t / g));
  };
  // Ten repetitions per submission, each in a pass of its own after the parts allocator is cleared (so kernels
  // short of the resolve kernel, which resets it, can repeat); timestamps span the ten.
  const qs = device.createQuerySet({ label: 'components:queries', type: 'timestamp', count: 2 });
  const resolved = mk(GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC, 16, 'resolved');
  const read = mk(GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, 16, 'read');
  const time = async (seq: Kernel[]) => {
    const samples: number[] = [];
    for (let r = 0; r < 35; r++) {
      const enc = device.createCommandEncoder({ label: 'components' });
      for (let i = 0; i < 10; i++) {
        enc.clearBuffer(book, 0, 16);
        const pass = enc.beginComputePass({
          label: 'components',
          ...(i === 0 ? { timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0 } } : {}),
          ...(i === 9 ? { timestampWrites: { querySet: qs, endOfPassWriteIndex: 1 } } : {}),
        });
        for (const k of seq) run(pass, k);
        pass.end();
      }
      enc.resolveQuerySet(qs, 0, 2, resolved, 0);
      enc.copyBufferToBuffer(resolved, 0, read, 0, 16);
      device.queue.submit([enc.finish()]);
      await read.mapAsync(GPUMapMode.READ);
      const ts = new BigUint64Array(read.getMappedRange().slice(0));
      read.unmap();
      if (r >= 5) samples.push(Number(ts[1] - ts[0]) / 1000 / 10);
    }
    return samples.sort((a, b) => a - b)[samples.length >> 1];
  };
  const variants: [string, Record<string, number>][] = [
    ['stage 1', { STAGE_PARTS: 1 }],
    ['stage 2', { STAGE_PARTS: 2 }],
    ['stage 3', { STAGE_PARTS: 3 }],
    ['stage 4 (production)', {}],
    ['all labels stored', { STORE: 2 }],
    ['256 slots', { SLOTS: 256 }],
    ['32 slots', { SLOTS: 32 }],
  ];
  const tiles = await Promise.all(variants.map(([, c]) => kernel('tilePartsQuad', c)));
  console.log(`device: ${ctx.adapterName}; ${size}×${size}, g = ${values.g}; µs per repetition`);
  const head = ['tile (stage 1)', 'tile (stage 2)', 'tile (stage 3)', 'tile', 'tile, all labels stored', 'tile, 256 slots', 'tile, 32 slots', '+ merge', '+ resolve', '+ scan', '+ compact'];
  console.log(`\n| density | ${head.join(' | ')} |`);
  console.log(`|---|${head.map(() => '---|').join('')}`);
  let seed = 1;
  for (const d of (values.densities as string).split(',').map(Number)) {
    const m = randomBlocks(size, size, d, Number(values.g), seed++);
    device.queue.writeBuffer(mask, 0, m as Uint8Array<ArrayBuffer>);
    device.queue.writeBuffer(gray, 0, m as Uint8Array<ArrayBuffer>);
    const row: number[] = [];
    for (const k of tiles) row.push(await time([k]));
    const prod = tiles[3];
    row.push(await time([prod, merge]), await time([prod, merge, resolve]), await time([prod, merge, resolve, scan]), await time([prod, merge, resolve, scan, compact]));
    console.log(`| ${d} | ${row.map((v) => v.toFixed(1)).join(' | ')} |`);
  }
  ctx.destroy();
}

runMain(main);
