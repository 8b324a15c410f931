/**
 * Surveillance pixel work on the GPU beside OpenCV on the CPU, measured in the same run: background() (MOG2) →
 * morphology({ open: 3, close: 5 }) → features (one labeling, or label(c2fl) → features), over a synthetic
 * fixed-camera sequence (textured scene, noise, moving objects). Prints the GPU time per node (median of timestamp
 * queries) in steady state (frames already on the GPU, several in flight) and the wall time per frame one at a
 * time, then OpenCV's MOG2 + open/close + connectedComponentsWithStats on the same frames (Python, a test-time tool).
 *
 * `--streams N` adds a run of N such streams (the first chain) on one context at once, each fed its own frames,
 * their command buffers submitted together (`framesPerSubmit: N`): streams × frames per second.
 *
 *   node dist/bench/chains/surveillance.js [--size 1920x1080] [--frames 200] [--warmup 30] [--python /usr/bin/python3]
 *                                   [--opencv-repeat 2] [--streams 16] [--stream-size 1280x720] [--dawn backend=vulkan]
 *                                   [--only TEXT] [--heat-ms 2000] [--close N|WxH] [--foreground-learning F]
 *                                   [--max-results 1024]
 *
 * Before each chain is timed it runs, uncounted, for `--heat-ms` of wall time: the GPU's driver sets the SM clock by
 * load (low while idle, as while this program makes its frames on the CPU) and takes about a second to raise it, so a
 * chain timed straight after an idle stretch runs at a fraction of the clock (gpuClock.ts). The "SM
 * MHz" columns give the clock during the steady-state and the one-at-a-time runs where `nvidia-smi` can tell.
 *
 * `--only TEXT` times only the chains whose name holds TEXT (e.g. "shadows"); `--close 5x9` closes with a 5×9 rectangle
 * instead of the 5×5 square; `--foreground-learning F` gives every background model that factor (default 1);
 * `--max-results N` every features() its maxResults (the slots read back each frame, whatever passes; `flowmark track`
 * reads 4096).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { lastValueFrom, tap, toArray, type Observable, type OperatorFunction } from 'rxjs';
import { GpuContext, background, features, fromGpuBuffers, label, morphology, readResults, type FrameResult, type GpuFrame } from '../../index.js';
import { elementArg, elementText, learningArg } from '../../cli/args.js';
import { defaultDawnFlags } from '../../extend.js';
import { rng } from '../../reference.js';
import { gpuMs, grayBuffer, oneAtATime, runMain } from '../support/timing.js';
import { GpuClock } from '../support/gpuClock.js';
import { benchArgs } from '../support/args.js';

const { values, orRefuse, refuse } = benchArgs(import.meta.url, {
  size: { type: 'string', default: '1920x1080' },
  frames: { type: 'string', default: '200' },
  warmup: { type: 'string', default: '30' },
  distinct: { type: 'string', default: '24' },
  python: { type: 'string', default: '/usr/bin/python3' },
  'opencv-repeat': { type: 'string', default: '2' },
  streams: { type: 'string', default: '0' },
  'stream-size': { type: 'string', default: '1280x720' },
  dawn: { type: 'string', multiple: true, default: [] },
  only: { type: 'string', default: '' },
  'heat-ms': { type: 'string', default: '2000' },
  close: { type: 'string' },
  'foreground-learning': { type: 'string' },
  'max-results': { type: 'string', default: '1024' },
}, ['frames', 'warmup', 'distinct', 'opencv-repeat', 'streams', 'heat-ms', 'max-results']);
/** Every features()'s maxResults: the slots read back each frame. */
const maxResults = Number(values['max-results']);
if (!(Number.isInteger(maxResults) && maxResults >= 1)) refuse(`--max-results takes an integer ≥ 1, got "${values['max-results']}"`);
/** background()'s foregroundLearning in every chain (1: OpenCV's behaviour; `flowmark track --foreground-learning`). */
const foregroundLearning = orRefuse(() => learningArg(values['foreground-learning'], 1));
/** The closing of every chain, as `flowmark track --close` takes it (5: OpenCV users' usual 5×5; e.g. 5x9). */
const close = orRefuse(() => elementArg('close', values.close, 5));
const [width, height] = (values.size as string).split('x').map(Number);
const frames = Number(values.frames);
const warmup = Number(values.warmup);
const distinct = Number(values.distinct);

/** A fixed camera: a textured scene, noise, a dozen objects crossing it (each covers a pixel a few frames). */
function scene(n: number): Uint8Array[] {
  const r = rng(3);
  const texture = Float32Array.from({ length: width * height }, (_, p) => 70 + 50 * Math.sin((p % width) / 9) * Math.cos(Math.floor(p / width) / 7) + 20 * r());
  const objects = Array.from({ length: 12 }, () => ({ x: r() * width, y: r() * height, vx: (r() - 0.5) * 24, vy: (r() - 0.5) * 16, w: 20 + r() * 80, h: 30 + r() * 120, v: r() < 0.5 ? 20 : 230 }));
  return Array.from({ length: n }, (_, t) => {
    const f = new Uint8Array(width * height);
    for (let p = 0; p < f.length; p++) f[p] = Math.max(0, Math.min(255, texture[p] + (r() - 0.5) * 12));
    for (const o of objects) {
      const x0 = Math.floor((((o.x + o.vx * t) % width) + width) % width);
      const y0 = Math.floor((((o.y + o.vy * t) % height) + height) % height);
      for (let y = y0; y < Math.min(height, y0 + o.h); y++) f.fill(o.v, y * width + x0, y * width + Math.min(width, x0 + o.w));
    }
    return f;
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const f3 = (x: number) => x.toFixed(3);

/** N streams of `--stream-size` frames on one context at once, frames batched per submit: frames per second. */
async function manyStreams(ctx: GpuContext, n: number): Promise<void> {
  const [w, h] = (values['stream-size'] as string).split('x').map(Number);
  const r = rng(9);
  // Each stream its own few frames: noise over a gradient, so the models have work to do.
  const own = Array.from({ length: n }, (_, s) =>
    Array.from({ length: 4 }, (_, i) => grayBuffer(ctx, Uint8Array.from({ length: w * h }, (_, p) => ((p % w) >> 3) + r() * 24 + (i === 3 && p % w < 64 ? 120 : 0)), `bench:stream${s}:${i}`)),
  );
  const done: number[] = [];
  const start = performance.now();
  await Promise.all(
    own.map((bufs) =>
      lastValueFrom(
        fromGpuBuffers(ctx, (function* () { for (let i = 0; i < warmup + frames; i++) yield { buffer: bufs[i % bufs.length], width: w, height: h, format: 'gray' as const }; })(), { maxInFlight: 2 }).pipe(
          background({ foregroundLearning }),
          morphology({ open: 3, close }),
          features({ minArea: 50, maxResults: 256 }),
          readResults({ framesPerSubmit: n }),
          tap((res) => res.seq >= warmup && done.push(performance.now())),
          toArray(),
        ),
      ),
    ),
  );
  done.sort((a, b) => a - b);
  const fps = (done.length - 1) / ((done[done.length - 1] - done[0]) / 1000);
  console.log(`\n${n} streams of ${w}×${h} on one context (background → morphology → features, 2 in flight each, ${n} frames per submit): ${fps.toFixed(0)} frames/s in all, ${(fps / n).toFixed(1)} per stream (${((performance.now() - start) / 1000).toFixed(2)} s)`);
  own.flat().forEach((b) => b.destroy());
}

async function main(): Promise<void> {
  const images = scene(distinct);
  const ctx = await GpuContext.create({ label: 'bench-surveillance', profile: true, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  console.log(`flowmark surveillance benchmark — ${new Date().toISOString()}`);
  console.log(`device: ${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback adapter: CPU emulation, compare ratios only)' : ''}`);
  console.log(`${width}×${height} gray, ${distinct} distinct frames cycled; ${frames} frames per run after ${warmup} not counted; foreground learning ${foregroundLearning}; morphology: 3×3 opening, ${elementText(close)} closing`);
  // Frames on the GPU once: the runs time the pixel work, not uploads.
  const buffers = images.map((img, i) => grayBuffer(ctx, img, `bench:frame${i}`));
  // The same frames in color (RGBA, a warm tint) for the color chains, made when the first of them runs. (Making
  // them takes seconds of CPU, with the GPU idle and its clock falling: the heat-up before each chain is why the
  // chains timed after them no longer read slow.)
  let color: GPUBuffer[] = [];
  const colorBuffers = () =>
    color.length ? color : (color = images.map((img, i) => grayBuffer(ctx, Uint8Array.from({ length: 4 * img.length }, (_, k) => (k % 4 === 3 ? 255 : Math.round(img[k >> 2] * [1, 0.9, 0.8][k % 4]))), `bench:rgba${i}`)));
  /** Frames cycled from the GPU buffers while `more(i)` holds (by default the warm-up and the counted frames). */
  const source = (inFlight: number, format: 'gray' | 'rgba', more = (i: number) => i < warmup + frames) =>
    fromGpuBuffers(ctx, (function* () { for (let i = 0; more(i); i++) yield { buffer: (format === 'gray' ? buffers : colorBuffers())[i % distinct], width, height, format }; })(), { maxInFlight: inFlight });
  const chains: [string, () => OperatorFunction<GpuFrame, GpuFrame>[], ('gray' | 'rgba')?][] = [
    ['background → morphology → features (one labeling)', () => [background({ foregroundLearning }), morphology({ open: 3, close }), features({ minArea: 50, maxResults })]],
    ['background(compensateLighting) → morphology → features', () => [background({ foregroundLearning, compensateLighting: true }), morphology({ open: 3, close }), features({ minArea: 50, maxResults })]],
    // As `flowmark track` runs it on gray video: the blobs' histograms for the tracker.
    ['background(compensateLighting) → morphology → features(histogram)', () => [background({ foregroundLearning, compensateLighting: true }), morphology({ open: 3, close }), features({ minArea: 50, maxResults, histogram: true })]],
    // With where each gray lies (track()'s placeByGray).
    ["background(compensateLighting) → morphology → features(histogram: 'spatial')", () => [background({ foregroundLearning, compensateLighting: true }), morphology({ open: 3, close }), features({ minArea: 50, maxResults, maxComponents: 65536, histogram: 'spatial' })]],
    ['background → morphology → label(c2fl) → features', () => [background({ foregroundLearning }), morphology({ open: 3, close }), label({ algorithm: 'c2fl' }), features({ minArea: 50, maxResults })]],
    ['background(color), RGBA frames → morphology → features', () => [background({ foregroundLearning, color: true }), morphology({ open: 3, close }), features({ minArea: 50, maxResults })], 'rgba'],
    // flowmark track's chain on a color video: the gray model and the color one side by side, lighting compensated.
    ["background(color: 'shadows', compensateLighting), RGBA → morphology → features", () => [background({ foregroundLearning, color: 'shadows', compensateLighting: true }), morphology({ open: 3, close }), features({ minArea: 50, maxResults })], 'rgba'],
  ];
  const gpuBy = (rs: FrameResult[], name: string) => median(rs.map((r) => gpuMs(r, name)));
  const clock = GpuClock.start();
  console.log('\n| chain | background ms | morphology ms | label ms | features ms | GPU total ms | steady wall ms/frame | one at a time wall p50 ms | blobs | SM MHz steady / one at a time |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, ops, format = 'gray'] of chains) {
    if (!name.includes(values.only as string)) continue;
    // Uncounted, until the clock has risen (see the top); the color frames made first, not inside that time.
    if (format === 'rgba') colorBuffers();
    const heatEnd = performance.now() + Number(values['heat-ms']);
    const through = (input: Observable<GpuFrame>) => ops().reduce((s, op) => s.pipe(op), input);
    await lastValueFrom(through(source(4, format, () => performance.now() < heatEnd)).pipe(readResults({ framesPerSubmit: 4 })), { defaultValue: null });
    // Steady state: 4 in flight, 4 per submit; wall from the first counted result to the last.
    const at: number[] = [];
    const steady = await lastValueFrom(through(source(4, format)).pipe(readResults({ framesPerSubmit: 4 }), tap(() => at.push(performance.now())), toArray()));
    const steadyWall = (at[at.length - 1] - at[warmup]) / (at.length - 1 - warmup);
    const counted = steady.slice(warmup);
    const total = median(counted.map((r) => gpuMs(r)));
    const oneStart = performance.now();
    const one = await oneAtATime(through(source(1, format)), warmup);
    const oneEnd = performance.now();
    await clock.settle(oneEnd);
    const blobs = median(counted.map((r) => r.features?.label.length ?? 0));
    console.log(`| ${name} | ${f3(gpuBy(counted, 'background'))} | ${f3(gpuBy(counted, 'morphology'))} | ${name.includes('label(') ? f3(gpuBy(counted, 'label')) : ''} | ${f3(gpuBy(counted, 'features'))} | ${f3(total)} | ${f3(steadyWall)} | ${f3(median(one.wall))} | ${blobs} | ${clock.cell(at[warmup], at[at.length - 1])} / ${clock.cell(oneStart, oneEnd)} |`);
  }
  clock.stop();
  [...buffers, ...color].forEach((b) => b.destroy());
  const streams = Number(values.streams);
  if (streams > 0) await manyStreams(ctx, streams);
  ctx.destroy();
  try {
    const script = fileURLToPath(new URL('../../../bench/baselines/opencv-mog2.py', import.meta.url));
    const input = Buffer.concat(images.map((i) => Buffer.from(i)));
    const cv = JSON.parse(execFileSync(values.python as string, [script, '--time', `${width}`, `${height}`, `${distinct}`, values['opencv-repeat'] as string], { input, maxBuffer: 1 << 30 }).toString());
    console.log(`\nOpenCV ${cv.version} on the CPU (${cv.threads} threads), same frames, median ms per frame: MOG2 ${f3(cv.mog2)}, shadows dropped + 3×3 open + 5×5 close ${f3(cv.morphology)}, connectedComponentsWithStats ${f3(cv.components)}, total ${f3(cv.total)}`);
  } catch (e) {
    console.log(`\nOpenCV reference not run (${(e as Error).message.split('\n')[0]}); needs python3-opencv`);
  }
}

runMain(main);
