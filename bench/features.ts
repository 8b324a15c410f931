/**
 * Features benchmark: threshold → label → features at 2048×2048 over densities 0–1 and granularities 1/4/16,
 * comparing in one run the fused features pass (one set of atomics per run piece) with the naive pass (every
 * atomic for every pixel after relabeling). GPU ms from timestamp queries, per repetition with `--repeat K`.
 *
 *   node dist/bench/features.js [--size 2048] [--reps 10] [--repeat 10] [--algorithm c2fl] [--dawn backend=vulkan]
 */
import { parseArgs } from 'node:util';
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, features, fromGpuBuffers, label, readResults, threshold, type FrameResult, type LabelAlgorithm } from '../src/index.js';
import { defaultDawnFlags } from '../src/gpu.js';
import { randomBlocks } from '../src/reference/images.js';
import { runMain } from './timing.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '2048' },
    reps: { type: 'string', default: '10' },
    repeat: { type: 'string', default: '10' },
    algorithm: { type: 'string', default: 'c2fl' },
    connectivity: { type: 'string', default: '8' },
    granularities: { type: 'string', default: '1,4,16' },
    'warmup-ms': { type: 'string', default: '3000' },
    dawn: { type: 'string', multiple: true, default: [] },
  },
});
const size = Number(values.size);
const reps = Number(values.reps);
const repeat = Number(values.repeat);
const algorithm = values.algorithm as LabelAlgorithm;
const connectivity = Number(values.connectivity) as 4 | 8;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ms = (r: FrameResult, prefix: string) => r.timings.filter((t) => t.name === prefix || t.name.startsWith(prefix + ':')).reduce((s, t) => s + t.ms, 0);

async function measure(ctx: GpuContext, buffer: GPUBuffer, method: 'fused' | 'per-pixel') {
  const frames = function* () {
    for (let i = 0; i <= reps; i++) yield { buffer, width: size, height: size, format: 'gray' as const };
  };
  const results = await lastValueFrom(
    fromGpuBuffers(ctx, frames(), { maxInFlight: 8 }).pipe(
      threshold(),
      label({ algorithm, connectivity, passes: 8, repeat }),
      features({ method, repeat, maxResults: 1024 }),
      readResults({ framesPerSubmit: 8 }),
      toArray(),
    ),
  );
  const timed = results.slice(1);
  return {
    count: timed.at(-1)!.features!.passed,
    label: median(timed.map((r) => ms(r, `label:${algorithm}`))) / repeat,
    canonical: median(timed.map((r) => ms(r, 'label:canonical'))) / repeat,
    features: median(timed.map((r) => ms(r, `features:${method}`))) / repeat,
  };
}

async function main(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'bench-features', dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  console.log(`flowmark features benchmark — ${new Date().toISOString()}`);
  console.log(`device: ${ctx.adapterName}; ${size}×${size}, ${connectivity}-connectivity, labels by ${algorithm}; kernels repeated ${repeat}× per frame, median of ${reps} frames`);
  const buffer = ctx.device.createBuffer({ label: 'bench:image', size: Math.ceil((size * size) / 4) * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const upload = (m: Uint8Array) => {
    const padded = new Uint8Array(Math.ceil(m.length / 4) * 4);
    padded.set(m);
    ctx.device.queue.writeBuffer(buffer, 0, padded);
  };
  upload(randomBlocks(size, size, 0.5, 4, 1));
  for (const t0 = performance.now(); performance.now() - t0 < Number(values['warmup-ms']); ) await measure(ctx, buffer, 'fused');
  let seed = 1;
  for (const g of (values.granularities as string).split(',').map(Number)) {
    console.log(`\ng = ${g}\n`);
    console.log('| density | components | label ms | canonical ms | features fused ms | features per-pixel ms | per-pixel / fused | labels + fused features ms |');
    console.log('|---|---|---|---|---|---|---|---|');
    const rows: number[][] = [];
    for (let i = 0; i <= 10; i++) {
      const d = i / 10;
      upload(randomBlocks(size, size, d, g, seed++));
      const fused = await measure(ctx, buffer, 'fused');
      const naive = await measure(ctx, buffer, 'per-pixel');
      const total = fused.label + fused.canonical + fused.features;
      rows.push([fused.label, fused.canonical, fused.features, naive.features, total]);
      console.log(`| ${d.toFixed(1)} | ${fused.count} | ${fused.label.toFixed(3)} | ${fused.canonical.toFixed(3)} | ${fused.features.toFixed(3)} | ${naive.features.toFixed(3)} | ${(naive.features / fused.features).toFixed(1)}× | ${total.toFixed(3)} |`);
    }
    const mean = (k: number) => rows.reduce((s, r) => s + r[k], 0) / rows.length;
    console.log(`| **mean** | | ${mean(0).toFixed(3)} | ${mean(1).toFixed(3)} | **${mean(2).toFixed(3)}** | ${mean(3).toFixed(3)} | ${(mean(3) / mean(2)).toFixed(1)}× | **${mean(4).toFixed(3)}** |`);
  }
  buffer.destroy();
  ctx.destroy();
}

runMain(main);
