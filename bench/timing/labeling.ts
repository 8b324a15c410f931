/**
 * Labeling benchmark (`npm run bench`, not a test): every algorithm on random images at 2048×2048 (each g×g block foreground with
 * probability d, g = 1/4/16, d = 0..1 step 0.1) and 1280×720, through threshold → label (shibata) → readResults.
 * Prints GPU time per node from timestamp queries (median over repetitions), wall time per frame, and the CPU
 * reference (two-pass union-find, one thread) measured in the same run.
 *
 *   node dist/bench/timing/labeling.js [--size 2048] [--reps 20] [--connectivity 8] [--passes until-converged|N]
 *                               [--json FILE] [--dawn backend=vulkan] [--in-flight 8] [--per-submit 8]
 *                               [--source gpu|upload] [--granularities 1,4,16] [--hd yes|no] [--split] [--repeat K]
 *                               [--ha4-segments ballot|bits]
 *
 * With several frames per submit the GPU runs frames back to back, as a throughput benchmark does; with
 * `--per-submit 1 --in-flight 1` every frame starts on an idle GPU, as a live camera's would. `--repeat K`
 * records the labeling kernels K times per frame and reports GPU time per repetition: steady-state kernel time.
 */
import { writeFileSync } from 'node:fs';
import { GpuContext, fromGpuBuffers, fromPixels, labelAlgorithms, readResults, threshold, type FrameResult, type LabelAlgorithm, type PixelImage } from '../../index.js';
import { labelWith, defaultDawnFlags } from '../../extend.js';
import { gpuMs, runMain } from '../support/timing.js';
import { labelCpu, randomBlocks } from '../../reference.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(import.meta.url, {
  size: { type: 'string', default: '2048' },
  reps: { type: 'string', default: '20' },
  connectivity: { type: 'string', default: '8' },
  passes: { type: 'string', default: 'until-converged' },
  json: { type: 'string' },
  dawn: { type: 'string', multiple: true, default: [] },
  'cpu-reps': { type: 'string', default: '1' },
  algorithms: { type: 'string', default: labelAlgorithms.join(',') },
  'in-flight': { type: 'string', default: '8' },
  'per-submit': { type: 'string', default: '8' },
  source: { type: 'string', default: 'gpu' },
  granularities: { type: 'string', default: '1,4,16' },
  hd: { type: 'string', default: 'yes' },
  'warmup-ms': { type: 'string', default: '3000' },
  split: { type: 'boolean', default: false },
  repeat: { type: 'string', default: '1' },
  'ha4-segments': { type: 'string' },
}, ['size', 'reps', 'connectivity', 'cpu-reps', 'in-flight', 'per-submit', 'granularities', 'warmup-ms', 'repeat']);

const size = Number(values.size);
const reps = Number(values.reps);
const connectivity = Number(values.connectivity) as 4 | 8;
const passes = values.passes === 'until-converged' ? 'until-converged' : Number(values.passes);
const cpuReps = Number(values['cpu-reps']);
const algorithms = (values.algorithms as string).split(',') as LabelAlgorithm[];
const inFlight = Number(values['in-flight']);
if (values.split && Number(values.repeat) > 1) {
  // Each repeated kernel would take a timestamp pair; a frame has 32.
  console.error('--split and --repeat > 1 together would run out of timestamp slots; use one or the other');
  process.exit(2);
}

interface Row {
  algorithm: LabelAlgorithm;
  width: number;
  height: number;
  granularity: number;
  density: number;
  components: number;
  passes: number;
  converged: boolean;
  thresholdMs: number;
  labelMs: number;
  canonicalMs: number;
  gpuMs: number;
  wallMs: number;
  cpuMs: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const sumBy = (r: FrameResult, name: string) => r.timings.filter((t) => t.name === name).reduce((s, t) => s + t.ms, 0);

async function measure(ctx: GpuContext, algorithm: LabelAlgorithm, mask: Uint8Array, w: number, h: number, g: number, d: number, cpuMs: number, refCount: number): Promise<Row> {
  const img: PixelImage = { width: w, height: h, format: 'gray', data: mask };
  // `--source gpu` (default): the image is uploaded once and every frame reads it in place, as frames imported
  // from a camera would be; `--source upload` writes the image from the CPU for every frame.
  let gpuBuf: GPUBuffer | null = null;
  if (values.source === 'gpu') {
    gpuBuf = ctx.device.createBuffer({ label: 'bench:image', size: Math.ceil(mask.length / 4) * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    const padded = new Uint8Array(Math.ceil(mask.length / 4) * 4);
    padded.set(mask);
    ctx.device.queue.writeBuffer(gpuBuf, 0, padded);
  }
  // One warm-up frame (buffer allocation, first use of the pipelines), then `reps` timed frames back to back.
  const results: FrameResult[] = [];
  let t0 = 0;
  await new Promise<void>((resolve, reject) => {
    const frames = function* () {
      for (let i = 0; i <= reps; i++) yield img;
    };
    const source = gpuBuf
      ? fromGpuBuffers(ctx, (function* () { for (let i = 0; i <= reps; i++) yield { buffer: gpuBuf!, width: w, height: h, format: 'gray' as const }; })(), { maxInFlight: inFlight })
      : fromPixels(ctx, frames(), { maxInFlight: inFlight });
    source
      .pipe(
        threshold(),
        labelWith({ algorithm, connectivity, passes: algorithm === 'shibata' ? passes : undefined, ha4Segments: values['ha4-segments'] as 'ballot' | 'bits' | undefined }, { split: values.split as boolean, repeat: Number(values.repeat) }),
        readResults({ framesPerSubmit: Number(values['per-submit']) }),
      )
      .subscribe({
        next(r) {
          if (r.seq === 0) t0 = performance.now();
          else results.push(r);
        },
        error: reject,
        complete: resolve,
      });
  });
  const wallMs = (performance.now() - t0) / reps;
  gpuBuf?.destroy();
  if (values.split && refCount >= 0) {
    const names = [...new Set(results.flatMap((r) => r.timings.map((t) => t.name)))];
    const per = (n: string) => median(results.map((r) => sumBy(r, n))) / (n.startsWith('label:') && !n.endsWith(':scan') ? Number(values.repeat) : 1);
    kernelRows.push({ algorithm, g, d, w, h, kernels: Object.fromEntries(names.map((n) => [n, per(n)])) });
  }
  const last = results.at(-1)!;
  if (refCount >= 0 && last.labeling!.converged && last.labeling!.count !== refCount) {
    throw new Error(`${algorithm}: GPU found ${last.labeling!.count} components, CPU ${refCount} (g=${g} d=${d})`);
  }
  const thresholdMs = median(results.map((r) => sumBy(r, 'threshold')));
  // With --repeat K the labeling kernels ran K times in the same passes: report time per repetition.
  const k = Number(values.repeat);
  const labelMs = median(results.map((r) => gpuMs(r, `label:${algorithm}`))) / k;
  const canonicalMs = median(results.map((r) => gpuMs(r, 'label:canonical'))) / k;
  return {
    algorithm,
    width: w,
    height: h,
    granularity: g,
    density: d,
    components: last.labeling!.count,
    passes: last.labeling!.passes,
    converged: last.labeling!.converged,
    thresholdMs,
    labelMs,
    canonicalMs,
    gpuMs: median(results.map((r) => gpuMs(r))),
    wallMs,
    cpuMs,
  };
}

const kernelRows: { algorithm: string; g: number; d: number; w: number; h: number; kernels: Record<string, number> }[] = [];

const f = (x: number, n = 3) => (Number.isFinite(x) ? x.toFixed(n) : 'n/a');
const mean = (rs: Row[], k: keyof Row) => rs.reduce((s, r) => s + (r[k] as number), 0) / rs.length;

/** One matrix per granularity: densities down, algorithms across (label GPU ms), then canonical and CPU. */
function printMatrix(title: string, rows: Row[]): void {
  console.log(`\n${title}: label GPU ms (median of timestamps), + canonical renumbering, CPU reference`);
  for (const g of [...new Set(rows.map((r) => r.granularity))]) {
    const rs = rows.filter((r) => r.granularity === g);
    console.log(`\ng = ${g}\n`);
    console.log(`| density | components | ${algorithms.join(' | ')} | canonical | threshold | CPU ref |`);
    console.log(`|---|---|${algorithms.map(() => '---|').join('')}---|---|---|`);
    for (const d of [...new Set(rs.map((r) => r.density))]) {
      const at = rs.filter((r) => r.density === d);
      const cell = (a: LabelAlgorithm) => {
        const r = at.find((x) => x.algorithm === a)!;
        return `${f(r.labelMs)}${r.algorithm === 'shibata' ? ` (${r.passes}${r.converged ? '' : '!'})` : ''}`;
      };
      console.log(`| ${d.toFixed(1)} | ${at[0].components} | ${algorithms.map(cell).join(' | ')} | ${f(mean(at, 'canonicalMs'))} | ${f(mean(at, 'thresholdMs'))} | ${f(at[0].cpuMs, 1)} |`);
    }
    const px = rs[0].width * rs[0].height;
    const means = algorithms.map((a) => mean(rs.filter((r) => r.algorithm === a), 'labelMs'));
    console.log(`| **mean** | | ${means.map((m) => `**${f(m)}**`).join(' | ')} | ${f(mean(rs, 'canonicalMs'))} | ${f(mean(rs, 'thresholdMs'))} | ${f(mean(rs.filter((r) => r.algorithm === algorithms[0]), 'cpuMs'), 1)} |`);
    console.log(`| Gpx/s | | ${means.map((m) => f(px / m / 1e6, 1)).join(' | ')} | | | |`);
  }
  console.log('\nWall time per frame (ms; upload, all passes, readback, frames in flight), means over densities:\n');
  console.log(`| g | ${algorithms.join(' | ')} |`);
  console.log(`|---|${algorithms.map(() => '---|').join('')}`);
  for (const g of [...new Set(rows.map((r) => r.granularity))]) {
    console.log(`| ${g} | ${algorithms.map((a) => f(mean(rows.filter((r) => r.granularity === g && r.algorithm === a), 'wallMs'))).join(' | ')} |`);
  }
}

async function sweep(ctx: GpuContext, w: number, h: number, grans: number[], rows: Row[], seed0: number): Promise<void> {
  let seed = seed0;
  for (const g of grans) {
    for (let i = 0; i <= 10; i++) {
      const d = i / 10;
      const mask = randomBlocks(w, h, d, g, seed++);
      const cpu: number[] = [];
      let ref = labelCpu(mask, w, h, connectivity);
      for (let r = 0; r < cpuReps; r++) {
        const c0 = performance.now();
        ref = labelCpu(mask, w, h, connectivity);
        cpu.push(performance.now() - c0);
      }
      for (const a of algorithms) rows.push(await measure(ctx, a, mask, w, h, g, d, median(cpu), ref.count));
    }
  }
}

async function main(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'bench', profile: true, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  console.log(`flowmark labeling benchmark — ${new Date().toISOString()}`);
  console.log(`device: ${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback adapter: CPU emulation, compare ratios only)' : ''}`);
  console.log(`${connectivity}-connectivity; shibata passes ${passes}; ${reps} frames per cell; ${inFlight} frames in flight, ${values['per-submit']} per submit; source ${values.source}; labeling kernels repeated ${values.repeat}× per frame${values.split ? '; one pass per kernel (--split)' : ''}; timestamps ${ctx.features.timestamps ? 'on' : 'OFF'}`);
  // Warm-up: GPUs lower their clocks when lightly loaded; run untimed frames first so the timed ones see the
  // clocks a busy pipeline gets.
  const warm = randomBlocks(size, size, 0.5, 4, 999);
  for (const t0 = performance.now(); performance.now() - t0 < Number(values['warmup-ms']); ) {
    await measure(ctx, algorithms[0], warm, size, size, 4, 0.5, NaN, -1);
  }
  const rows: Row[] = [];
  await sweep(ctx, size, size, (values.granularities as string).split(',').map(Number), rows, 1);
  printMatrix(`${size}×${size}`, rows);
  const hd: Row[] = [];
  if (values.hd === 'yes') {
    await sweep(ctx, 1280, 720, [4], hd, 100);
    printMatrix('1280×720', hd);
  }
  if (values.split) {
    console.log('\nPer-kernel GPU ms (--split: one timed pass per kernel), means over densities, 2048² g = 4:\n');
    for (const a of algorithms) {
      const rs = kernelRows.filter((r) => r.algorithm === a && r.g === 4 && r.w === size);
      const names = [...new Set(rs.flatMap((r) => Object.keys(r.kernels)))];
      console.log(`${a}: ` + names.map((n) => `${n.replace('label:', '')} ${f(rs.reduce((s, r) => s + (r.kernels[n] ?? 0), 0) / rs.length)}`).join(', '));
    }
  }
  if (values.json) writeFileSync(values.json, JSON.stringify({ device: ctx.adapterName, connectivity, passes, reps, rows, hd }, null, 2));
  ctx.destroy();
}

runMain(main);
