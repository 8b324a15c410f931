/**
 * Latency benchmark (a camera's case): one frame at a time, uploaded from the CPU, each submitted alone and read
 * back before the next is uploaded (`maxInFlight: 1`, `framesPerSubmit: 1`). For every density of random images
 * (g×g blocks, 8-connectivity) it prints the wall time per frame (p50 and p99 over `--frames` frames, after
 * `--warmup` frames not counted) beside the GPU time of the passes (median, timestamp queries), for each labeling
 * algorithm asked for, and for the whole chains `threshold → label(c2fl) → features → readResults` and
 * `threshold → features → readResults` (`--chains yes`). "slow frames (GC)": frames over twice the median wall time,
 * and in parentheses those that overlapped a garbage collection (perf_hooks 'gc' entries). `--profile no` runs without
 * timestamp queries (a camera app's production setting; no GPU column then).
 *
 *   node dist/bench/timing/latency.js [--sizes 1280x720,2048x2048] [--algorithms shibata,c2fl] [--passes 8]
 *                              [--frames 200] [--warmup 20] [--g 4] [--chains yes|no] [--source upload|gpu]
 *                              [--profile yes|no] [--split] [--trace FILE] [--dawn backend=vulkan]
 *
 * With timestamps, a second table gives each pass's GPU ms (median over the cell's frames, mean over densities);
 * `--split` times every stage of the labeling and the features in a pass of its own there (analysis: adds pass
 * boundaries, so the wall times of a split run are not the production ones).
 *
 * `--trace FILE` splits every frame's wall time into phases, from `queue.submit` and `mapAsync` wrapped by this
 * benchmark (the library is unchanged): prepare (result → emission: release, next item, upload), record (emission
 * → submit: the operators' recording), submit (inside `queue.submit`), wait (submit → the readback's map resolved:
 * the GPU and Dawn's polling), decode (map → result: decoders and the sink). It prints, per run, the median of each
 * phase and, over the slow frames (over twice the median), each phase's mean excess over its median, so a tail
 * can be put on a phase, with the `setImmediate` calls a frame (Dawn's Node binding polls through it while it waits)
 * and the garbage collections of the cell; FILE gets every frame's phases as JSON. The "SM MHz" column is the GPU's
 * clock during the cell where `nvidia-smi` can tell (gpuClock.ts).
 */
import { writeFileSync } from 'node:fs';
import { GpuContext, fromGpuBuffers, fromPixels, readResults, threshold, type FrameResult, type GpuFrame, type LabelAlgorithm, type PixelImage } from '../../index.js';
import { labelWith, featuresWith, defaultDawnFlags } from '../../extend.js';
import { tap, type Observable, type OperatorFunction } from 'rxjs';
import { randomBlocks } from '../../reference.js';
import { grayBuffer, quantile, runMain, watchGcs } from '../support/timing.js';
import { GpuClock } from '../support/gpuClock.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(import.meta.url, {
  sizes: { type: 'string', default: '1280x720,2048x2048' },
  algorithms: { type: 'string', default: 'shibata,c2fl' },
  passes: { type: 'string', default: '8' },
  frames: { type: 'string', default: '200' },
  warmup: { type: 'string', default: '20' },
  g: { type: 'string', default: '4' },
  chains: { type: 'string', default: 'yes' },
  source: { type: 'string', default: 'upload' },
  profile: { type: 'string', default: 'yes' },
  dawn: { type: 'string', multiple: true, default: [] },
  trace: { type: 'string' },
  split: { type: 'boolean', default: false },
}, ['frames', 'warmup', 'g']);
const frames = Number(values.frames);
const warmup = Number(values.warmup);
const g = Number(values.g);
const passes = values.passes === 'until-converged' ? 'until-converged' : Number(values.passes);
const analysis = { split: values.split as boolean, repeat: 1 };
const label = (o: Parameters<typeof labelWith>[0]) => labelWith(o, analysis);
const features = (o: Parameters<typeof featuresWith>[0]) => featuresWith(o, analysis);

const gpuOf = (r: FrameResult, prefix = '') => r.timings.filter((t) => t.name.startsWith(prefix)).reduce((s, t) => s + t.ms, 0);

/** Garbage collections seen, to tell host pauses apart. */
const { gcs, duringGc } = watchGcs();
/** perf_hooks' GC kinds: 1 scavenge (young generation), 4 mark-compact (whole heap), 8 incremental marking. */
const gcKinds = (from: number, to: number) => {
  const inCell = gcs.filter(([s]) => s >= from && s <= to);
  return `${inCell.filter((g) => g[2] === 1).length} / ${inCell.filter((g) => g[2] === 4).length}`;
};

/** `--trace`: when the last `queue.submit` began and ended, when the last READ map resolved, and `setImmediate`
 * calls so far (Dawn's Node binding polls the device through the global `setImmediate`, one call per turn of the event
 * loop while a map or `onSubmittedWorkDone` is pending). */
const marks = { submitStart: 0, submitEnd: 0, mapped: 0, immediates: 0 };
/** Wraps the device's queue.submit and GPUBuffer.mapAsync to stamp `marks` (the benchmark's instrument only). */
function instrument(device: GPUDevice): void {
  const queue = device.queue;
  const submit = queue.submit.bind(queue);
  queue.submit = (buffers: Iterable<GPUCommandBuffer>) => {
    marks.submitStart = performance.now();
    submit(buffers);
    marks.submitEnd = performance.now();
  };
  const setImmediate = globalThis.setImmediate;
  globalThis.setImmediate = Object.assign((...args: Parameters<typeof setImmediate>) => {
    marks.immediates++;
    return setImmediate(...args);
  }, setImmediate);
  const proto = Object.getPrototypeOf(device.createBuffer({ label: 'bench:probe', size: 4, usage: GPUBufferUsage.COPY_DST })) as GPUBuffer;
  const mapAsync = proto.mapAsync;
  proto.mapAsync = function (this: GPUBuffer, mode: number, offset?: number, size?: number) {
    const p = mapAsync.call(this, mode, offset, size);
    return mode === GPUMapMode.READ ? p.then(() => void (marks.mapped = performance.now())) : p;
  };
}
const phaseNames = ['prepare', 'record', 'submit', 'wait', 'decode'] as const;
type Phases = Record<(typeof phaseNames)[number], number>;

interface Cell {
  /** [start, end] of each frame's wall interval. */
  spans: [number, number][];
  wall: number[];
  /** From the last result to this frame's emission (release, next item, upload): host work before recording. */
  prepare: number[];
  /** GPU ms per frame: all passes, and the labeling's alone. (Results themselves are not kept: a program that held
   * every frame's features would grow its heap and time the collector, not the pipeline.) */
  gpu: number[];
  labelGpu: number[];
  /** GPU ms of each named pass, per counted frame. */
  passGpu: Map<string, number[]>;
  /** `--trace`: each counted frame's phases (ms), and `setImmediate` calls in all counted frames. */
  phases: Phases[];
  immediates: number;
  last: FrameResult;
}

/** Runs `warmup + frames` frames one at a time through `ops`; wall time per frame from one result to the next. */
async function measure(ctx: GpuContext, img: PixelImage, ops: OperatorFunction<GpuFrame, GpuFrame>[], labelPass: string): Promise<Cell> {
  const total = warmup + frames;
  const images = function* () {
    for (let i = 0; i < total; i++) yield img;
  };
  const wall: number[] = [];
  const spans: [number, number][] = [];
  const prepare: number[] = [];
  const gpu: number[] = [];
  const labelGpu: number[] = [];
  const passGpu = new Map<string, number[]>();
  const phases: Phases[] = [];
  let lastResult: FrameResult | null = null;
  let immediatesAtStart = marks.immediates;
  let last = performance.now();
  let emitted = last;
  // `--source gpu`: the image is uploaded once and every frame reads it in place (no upload per frame).
  let buffer: GPUBuffer | null = null;
  let source: Observable<GpuFrame>;
  if (values.source === 'gpu') {
    buffer = grayBuffer(ctx, img.data as Uint8Array, 'bench:image');
    const b = buffer;
    source = fromGpuBuffers(ctx, (function* () { for (let i = 0; i < total; i++) yield { buffer: b, width: img.width, height: img.height, format: 'gray' as const }; })(), { maxInFlight: 1 });
  } else {
    source = fromPixels(ctx, images(), { maxInFlight: 1 });
  }
  await new Promise<void>((resolve, reject) =>
    ops
      .reduce((s, op) => s.pipe(op), source.pipe(tap(() => (emitted = performance.now()))))
      .pipe(readResults({ framesPerSubmit: 1 }))
      .subscribe({
        next(r) {
          const now = performance.now();
          if (r.seq >= warmup) {
            wall.push(now - last);
            spans.push([last, now]);
            prepare.push(emitted - last);
            gpu.push(gpuOf(r));
            labelGpu.push(gpuOf(r, labelPass));
            for (const t of r.timings) {
              if (!passGpu.has(t.name)) passGpu.set(t.name, []);
              passGpu.get(t.name)!.push(t.ms);
            }
            if (values.trace) {
              phases.push({ prepare: emitted - last, record: marks.submitStart - emitted, submit: marks.submitEnd - marks.submitStart, wait: marks.mapped - marks.submitEnd, decode: now - marks.mapped });
            }
          }
          if (r.seq === warmup - 1) immediatesAtStart = marks.immediates;
          last = now;
          lastResult = r;
        },
        error: reject,
        complete: resolve,
      }),
  );
  buffer?.destroy();
  return { spans, wall, prepare, gpu, labelGpu, passGpu, phases, immediates: marks.immediates - immediatesAtStart, last: lastResult! };
}

const f3 = (x: number) => x.toFixed(3);

async function main(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'bench-latency', profile: values.profile !== 'no', dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  if (values.trace) instrument(ctx.device);
  const clock = GpuClock.start();
  const traces: { size: string; run: string; density: number; frames: (Phases & { wall: number; gpu: number; gc: boolean })[] }[] = [];
  const phaseRows: string[] = [];
  console.log(`flowmark latency benchmark — ${new Date().toISOString()}`);
  console.log(`device: ${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback adapter: CPU emulation, compare ratios only)' : ''}`);
  console.log(`one frame at a time, ${values.source === 'gpu' ? 'already on the GPU' : 'uploaded'} (gray), 8-connectivity, g = ${g}, timestamps ${ctx.features.timestamps ? 'on' : 'off'}, shibata passes ${passes}; ${frames} frames per cell after ${warmup} not counted; wall = result to result, of which "prepare" = result to the next frame's emission (release, next item, upload)`);
  const runs: [string, () => OperatorFunction<GpuFrame, GpuFrame>[]][] = (values.algorithms as string)
    .split(',')
    .filter(Boolean)
    .map((a) => [a, () => [threshold(), label({ algorithm: a as LabelAlgorithm, passes: a === 'shibata' ? passes : undefined })]]);
  if (values.chains === 'yes') {
    runs.push(['threshold → c2fl → features', () => [threshold(), label({ algorithm: 'c2fl' }), features({ maxResults: 1024 })]]);
    runs.push(['threshold → features (one labeling)', () => [threshold(), features({ maxResults: 1024 })]]);
  }
  for (const size of (values.sizes as string).split(',')) {
    const [w, h] = size.split('x').map(Number);
    console.log(`\n${w}×${h}\n`);
    console.log('| run | density | components | wall p50 ms | wall p99 ms | p99/p50 | prepare p50 ms | GPU ms (median) | label GPU ms | label passes | slow frames (GC) | SM MHz |');
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    // Densities outer, runs inner: the runs of one density are measured back to back, so a drift of the machine
    // (clocks, other load) touches all of them alike and their ratios hold.
    // Rows wait for the clock's samples of their cell, read once the size is done (no pause between cells).
    const rows = new Map<string, (() => string)[]>(runs.map(([name]) => [name, []]));
    const stats = new Map(runs.map(([name]) => [name, { p50s: [] as number[], ratios: [] as number[], gpus: [] as number[], passes: new Map<string, number[]>() }]));
    for (let i = 0; i <= 10; i++) {
      const d = i / 10;
      const img: PixelImage = { width: w, height: h, format: 'gray', data: randomBlocks(w, h, d, g, 100 + i) };
      for (const [name, ops] of runs) {
        const cell = await measure(ctx, img, ops(), `label:${name}`);
        const [from, to] = [cell.spans[0][0], cell.spans[cell.spans.length - 1][1]];
        const p50 = quantile(cell.wall, 0.5);
        const p99 = quantile(cell.wall, 0.99);
        const gpu = quantile(cell.gpu, 0.5);
        const last = cell.last;
        const count = last.labeling?.count ?? last.features?.count ?? 0;
        const chain = name.includes('→');
        const label = chain ? '' : `${last.labeling!.passes}${last.labeling!.converged ? '' : '!'}`;
        const labelGpu = chain ? '' : f3(quantile(cell.labelGpu, 0.5));
        const st = stats.get(name)!;
        st.p50s.push(p50);
        st.ratios.push(p99 / p50);
        st.gpus.push(gpu);
        for (const [pass, ms] of cell.passGpu) {
          if (!st.passes.has(pass)) st.passes.set(pass, []);
          st.passes.get(pass)!.push(quantile(ms, 0.5));
        }
        // Frames over twice the median, and how many of them overlapped a garbage collection.
        const slow = cell.spans.filter((_, k) => cell.wall[k] > 2 * p50);
        const inGc = slow.filter(([a, b]) => duringGc(a, b)).length;
        if (values.trace) {
          const traced = cell.phases.map((p, k) => ({ ...p, wall: cell.wall[k], gpu: cell.gpu[k], gc: duringGc(...cell.spans[k]) }));
          traces.push({ size, run: name, density: d, frames: traced });
          const med = Object.fromEntries(phaseNames.map((n) => [n, quantile(cell.phases.map((p) => p[n]), 0.5)])) as Phases;
          const slowOnes = traced.filter((f) => f.wall > 2 * p50);
          const excess = phaseNames.map((n) => (slowOnes.length ? f3(slowOnes.reduce((a, f) => a + f[n] - med[n], 0) / slowOnes.length) : '')).join(' | ');
          phaseRows.push(`| ${name} | ${d.toFixed(1)} | ${phaseNames.map((n) => f3(med[n])).join(' | ')} | ${(cell.immediates / frames).toFixed(0)} | ${gcKinds(from, to)} | ${slowOnes.length} | ${excess} | ${slowOnes.length ? f3(slowOnes.reduce((a, f) => a + f.gpu, 0) / slowOnes.length) : ''} |`);
        }
        rows.get(name)!.push(() => `| ${name} | ${d.toFixed(1)} | ${count} | ${f3(p50)} | ${f3(p99)} | ${(p99 / p50).toFixed(2)} | ${f3(quantile(cell.prepare, 0.5))} | ${f3(gpu)} | ${labelGpu} | ${label} | ${slow.length} (${inGc}) | ${clock.cell(from, to)} |`);
      }
    }
    await clock.settle(performance.now());
    for (const lines of rows.values()) lines.forEach((l) => console.log(l()));
    if (values.trace) {
      console.log(`\n${w}×${h}, phases (ms; medians, then over the slow frames each phase's mean excess over its median, and their GPU ms):\n`);
      console.log(`| run | density | ${phaseNames.join(' | ')} | setImmediate calls a frame | GCs: scavenges / mark-compacts | slow | ${phaseNames.map((n) => `+${n}`).join(' | ')} | slow GPU ms |`);
      console.log(`|---|---|${'---|'.repeat(2 * phaseNames.length + 4)}`);
      phaseRows.splice(0).forEach((l) => console.log(l));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const summary = runs.map(([name]) => {
      const st = stats.get(name)!;
      return `| ${name} | ${f3(mean(st.p50s))} | ${Math.max(...st.ratios).toFixed(2)} | ${f3(mean(st.gpus))} |`;
    });
    console.log(`\n${w}×${h}, means over densities:\n`);
    console.log('| run | wall p50 ms | worst p99/p50 | GPU ms |');
    console.log('|---|---|---|---|');
    summary.forEach((l) => console.log(l));
    if (ctx.features.timestamps) {
      console.log(`\n${w}×${h}, GPU ms per pass (median over a cell's frames, mean over densities)${values.split ? ', every stage in a pass of its own' : ''}:\n`);
      console.log('| run | pass | GPU ms |');
      console.log('|---|---|---|');
      for (const [name] of runs) for (const [pass, ms] of stats.get(name)!.passes) console.log(`| ${name} | ${pass} | ${f3(mean(ms))} |`);
    }
  }
  if (values.trace) writeFileSync(values.trace, JSON.stringify(traces));
  clock.stop();
  ctx.destroy();
}

runMain(main);
