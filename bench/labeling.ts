/**
 * Labeling benchmark (`npm run bench`, not a test): random images at 2048×2048 (each g×g block foreground with
 * probability d, g = 1/4/16, d = 0..1 step 0.1) and 1280×720, through threshold → label (shibata) → readResults.
 * Prints GPU time per node from timestamp queries (median over repetitions), wall time per frame, and the CPU
 * reference (two-pass union-find, one thread) measured in the same run.
 *
 *   node dist/bench/labeling.js [--size 2048] [--reps 20] [--connectivity 8] [--passes until-converged|N]
 *                               [--json FILE] [--dawn backend=vulkan]
 */
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { GpuContext, fromPixels, label, readResults, threshold, type FrameResult, type PixelImage } from '../src/index.js';
import { defaultDawnFlags } from '../src/gpu.js';
import { labelCpu } from '../src/reference/labelCpu.js';
import { randomBlocks } from '../src/reference/images.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '2048' },
    reps: { type: 'string', default: '20' },
    connectivity: { type: 'string', default: '8' },
    passes: { type: 'string', default: 'until-converged' },
    json: { type: 'string' },
    dawn: { type: 'string', multiple: true, default: [] },
    'cpu-reps': { type: 'string', default: '1' },
  },
});

const size = Number(values.size);
const reps = Number(values.reps);
const connectivity = Number(values.connectivity) as 4 | 8;
const passes = values.passes === 'until-converged' ? 'until-converged' : Number(values.passes);
const cpuReps = Number(values['cpu-reps']);

interface Row {
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

async function measure(ctx: GpuContext, w: number, h: number, g: number, d: number, seed: number): Promise<Row> {
  const mask = randomBlocks(w, h, d, g, seed);
  const img: PixelImage = { width: w, height: h, format: 'gray', data: mask };
  // One warm-up frame (buffer allocation, first use of the pipelines), then `reps` timed frames back to back.
  const results: FrameResult[] = [];
  let t0 = 0;
  await new Promise<void>((resolve, reject) => {
    const frames = function* () {
      for (let i = 0; i <= reps; i++) yield img;
    };
    fromPixels(ctx, frames())
      .pipe(threshold(), label({ connectivity, passes }), readResults())
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
  const cpuTimes: number[] = [];
  let ref = labelCpu(mask, w, h, connectivity);
  for (let i = 0; i < cpuReps; i++) {
    const c0 = performance.now();
    ref = labelCpu(mask, w, h, connectivity);
    cpuTimes.push(performance.now() - c0);
  }
  const last = results.at(-1)!;
  if (last.labeling!.converged && last.labeling!.count !== ref.count) {
    throw new Error(`GPU found ${last.labeling!.count} components, CPU ${ref.count} (g=${g} d=${d})`);
  }
  const thresholdMs = median(results.map((r) => sumBy(r, 'threshold')));
  const labelMs = median(results.map((r) => sumBy(r, 'label:shibata')));
  const canonicalMs = median(results.map((r) => sumBy(r, 'label:canonical')));
  return {
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
    gpuMs: median(results.map((r) => r.timings.reduce((s, t) => s + t.ms, 0))),
    wallMs,
    cpuMs: median(cpuTimes),
  };
}

function printTable(title: string, rows: Row[]): void {
  const f = (x: number, n = 3) => (Number.isFinite(x) ? x.toFixed(n) : 'n/a');
  console.log(`\n${title}`);
  console.log('| g | density | components | passes | threshold ms | label ms | canonical ms | GPU total ms | wall ms/frame | CPU ref ms | CPU/GPU |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.granularity} | ${r.density.toFixed(1)} | ${r.components} | ${r.passes}${r.converged ? '' : ' (not converged)'} | ${f(r.thresholdMs)} | ${f(r.labelMs)} | ${f(r.canonicalMs)} | ${f(r.gpuMs)} | ${f(r.wallMs)} | ${f(r.cpuMs, 1)} | ${f(r.cpuMs / r.gpuMs, 0)}× |`,
    );
  }
  const gs = [...new Set(rows.map((r) => r.granularity))];
  console.log('\nMeans over densities:');
  console.log('| g | threshold ms | label ms | canonical ms | GPU total ms | wall ms/frame | CPU ref ms | label Gpx/s |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const g of gs) {
    const rs = rows.filter((r) => r.granularity === g);
    const mean = (k: keyof Row) => rs.reduce((s, r) => s + (r[k] as number), 0) / rs.length;
    const px = rs[0].width * rs[0].height;
    console.log(
      `| ${g} | ${f(mean('thresholdMs'))} | ${f(mean('labelMs'))} | ${f(mean('canonicalMs'))} | ${f(mean('gpuMs'))} | ${f(mean('wallMs'))} | ${f(mean('cpuMs'), 1)} | ${f(px / (mean('labelMs') + mean('canonicalMs')) / 1e6, 2)} |`,
    );
  }
}

async function main(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'bench', dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  console.log(`flowmark labeling benchmark — ${new Date().toISOString()}`);
  console.log(`device: ${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback adapter: CPU emulation, compare ratios only)' : ''}`);
  console.log(`algorithm shibata, ${connectivity}-connectivity, passes ${passes}, ${reps} frames per row (median GPU times), timestamps ${ctx.features.timestamps ? 'on' : 'OFF'}`);
  if (!ctx.features.timestamps) console.log('no timestamp-query: GPU columns are n/a');
  const rows: Row[] = [];
  const densities = Array.from({ length: 11 }, (_, i) => i / 10);
  let seed = 1;
  for (const g of [1, 4, 16]) for (const d of densities) rows.push(await measure(ctx, size, size, g, d, seed++));
  printTable(`${size}×${size}`, rows);
  const hd: Row[] = [];
  for (const d of densities) hd.push(await measure(ctx, 1280, 720, 4, d, seed++));
  printTable('1280×720, g = 4', hd);
  if (values.json) writeFileSync(values.json, JSON.stringify({ device: ctx.adapterName, connectivity, passes, reps, rows, hd }, null, 2));
  ctx.destroy();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
