/**
 * Features benchmark at 2048×2048 over densities 0–1 and granularities 1/4/16, in one run:
 * - labels and features in one labeling (`threshold → features()`: C2FL tiles accumulate their parts of
 *   components while they are labelled; no relabeling),
 * - `threshold → label → features()`: labels, canonical relabeling, then the run-piece features pass,
 * - the naive pass after relabeling (every atomic for every pixel), the comparison the HA4 paper makes.
 * GPU ms from timestamp queries, per repetition with `--repeat K`; `--split` times each kernel of the one-labeling
 * path in a pass of its own (analysis: adds pass boundaries).
 *
 *   node dist/bench/timing/features.js [--size 2048] [--reps 10] [--repeat 10] [--algorithm c2fl] [--split] [--histogram | --spatial] [--dawn backend=vulkan]
 *
 * `--histogram` measures every component's gray histogram too (`features({ histogram: true })`), `--spatial` with
 * each bin's place (`histogram: 'spatial'`).
 */
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, fromGpuBuffers, readResults, threshold, type LabelAlgorithm } from '../../index.js';
import { labelWith, featuresWith, defaultDawnFlags } from '../../extend.js';
import { randomBlocks } from '../../reference.js';
import { gpuMs, runMain } from '../support/timing.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(import.meta.url, {
  size: { type: 'string', default: '2048' },
  reps: { type: 'string', default: '10' },
  repeat: { type: 'string', default: '10' },
  algorithm: { type: 'string', default: 'c2fl' },
  connectivity: { type: 'string', default: '8' },
  granularities: { type: 'string', default: '1,4,16' },
  split: { type: 'boolean', default: false },
  histogram: { type: 'boolean', default: false },
  spatial: { type: 'boolean', default: false },
  'warmup-ms': { type: 'string', default: '3000' },
  dawn: { type: 'string', multiple: true, default: [] },
}, ['size', 'reps', 'repeat', 'connectivity', 'granularities', 'warmup-ms']);
const size = Number(values.size);
const reps = Number(values.reps);
const repeat = Number(values.repeat);
const algorithm = values.algorithm as LabelAlgorithm;
const connectivity = Number(values.connectivity) as 4 | 8;
const histogram = values.spatial ? ('spatial' as const) : (values.histogram as boolean);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const frames = function* (buffer: GPUBuffer) {
  for (let i = 0; i <= reps; i++) yield { buffer, width: size, height: size, format: 'gray' as const };
};

/** The one-labeling kernels (nodes/components/features/fromMask.ts), timed one by one with --split. */
const stages = ['tile', 'merge', 'resolve', 'scan', 'compact'];

/** Labels and features in one labeling: GPU ms per repetition, and per kernel with --split. */
async function measureOne(ctx: GpuContext, buffer: GPUBuffer) {
  const results = await lastValueFrom(
    fromGpuBuffers(ctx, frames(buffer), { maxInFlight: 8 }).pipe(
      threshold(),
      featuresWith({ connectivity, maxResults: 1024, histogram }, { split: values.split as boolean, repeat }),
      readResults({ framesPerSubmit: 8 }),
      toArray(),
    ),
  );
  const timed = results.slice(1);
  const f = timed.at(-1)!.features!;
  const kernels = stages.map((k) => median(timed.map((r) => gpuMs(r, `features:components:${k}`))) / repeat);
  return { count: f.count, overflow: f.overflow, total: median(timed.map((r) => gpuMs(r, 'features:components'))) / repeat, kernels };
}

async function measure(ctx: GpuContext, buffer: GPUBuffer, method: 'runs' | 'per-pixel') {
  const results = await lastValueFrom(
    fromGpuBuffers(ctx, frames(buffer), { maxInFlight: 8 }).pipe(
      threshold(),
      labelWith({ algorithm, connectivity, passes: algorithm === 'shibata' ? 8 : undefined }, { split: false, repeat }),
      featuresWith({ method, maxResults: 1024, histogram }, { split: false, repeat }),
      readResults({ framesPerSubmit: 8 }),
      toArray(),
    ),
  );
  const timed = results.slice(1);
  return {
    count: timed.at(-1)!.features!.count,
    label: median(timed.map((r) => gpuMs(r, `label:${algorithm}`))) / repeat,
    canonical: median(timed.map((r) => gpuMs(r, 'label:canonical'))) / repeat,
    features: median(timed.map((r) => gpuMs(r, `features:${method}`))) / repeat,
  };
}

async function main(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'bench-features', profile: true, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  console.log(`flowmark features benchmark — ${new Date().toISOString()}`);
  console.log(`device: ${ctx.adapterName}; ${size}×${size}, ${connectivity}-connectivity, labels by ${algorithm}; kernels repeated ${repeat}× per frame, median of ${reps} frames`);
  const buffer = ctx.device.createBuffer({ label: 'bench:image', size: Math.ceil((size * size) / 4) * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const upload = (m: Uint8Array) => {
    const padded = new Uint8Array(Math.ceil(m.length / 4) * 4);
    padded.set(m);
    ctx.device.queue.writeBuffer(buffer, 0, padded);
  };
  upload(randomBlocks(size, size, 0.5, 4, 1));
  for (const t0 = performance.now(); performance.now() - t0 < Number(values['warmup-ms']); ) {
    await measure(ctx, buffer, 'runs');
    await measureOne(ctx, buffer);
  }
  let seed = 1;
  for (const g of (values.granularities as string).split(',').map(Number)) {
    console.log(`\ng = ${g}\n`);
    console.log('| density | components | **labels + features, one labeling** ms | label ms | canonical ms | features ms | labels + canonical + features ms | naive per-pixel features ms | naive / run-piece |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    const rows: number[][] = [];
    const splits: number[][] = [];
    for (let i = 0; i <= 10; i++) {
      const d = i / 10;
      upload(randomBlocks(size, size, d, g, seed++));
      const one = await measureOne(ctx, buffer);
      const runs = await measure(ctx, buffer, 'runs');
      const naive = await measure(ctx, buffer, 'per-pixel');
      if (one.count !== runs.count || one.overflow) throw new Error(`d=${d}: one labeling found ${one.count} components${one.overflow ? ' (overflow)' : ''}, label() ${runs.count}`);
      const total = runs.label + runs.canonical + runs.features;
      rows.push([one.total, runs.label, runs.canonical, runs.features, total, naive.features]);
      splits.push(one.kernels);
      console.log(`| ${d.toFixed(1)} | ${runs.count} | **${one.total.toFixed(3)}** | ${runs.label.toFixed(3)} | ${runs.canonical.toFixed(3)} | ${runs.features.toFixed(3)} | ${total.toFixed(3)} | ${naive.features.toFixed(3)} | ${(naive.features / runs.features).toFixed(1)}× |`);
    }
    const mean = (xs: number[][], k: number) => xs.reduce((s, r) => s + r[k], 0) / xs.length;
    console.log(`| **mean** | | **${mean(rows, 0).toFixed(3)}** | ${mean(rows, 1).toFixed(3)} | ${mean(rows, 2).toFixed(3)} | ${mean(rows, 3).toFixed(3)} | ${mean(rows, 4).toFixed(3)} | ${mean(rows, 5).toFixed(3)} | ${(mean(rows, 5) / mean(rows, 3)).toFixed(1)}× |`);
    if (values.split) {
      console.log(`\none labeling, each kernel in a pass of its own (g = ${g}, means over densities): ` + stages.map((k, i) => `${k} ${mean(splits, i).toFixed(3)} ms`).join(', '));
    }
  }
  buffer.destroy();
  ctx.destroy();
}

runMain(main);
