/**
 * What one frame at a time can hold to on this machine without flowmark: the spread (p99/p50 of the wall time per
 * "frame", from one frame's end to the next) of work that is the same every frame, measured the way `latency.js`
 * measures a chain (`--cells` cells of `--frames` frames after `--warmup`, each frame starting on a fresh turn of the
 * event loop). Issue 10 asks shibata's p99/p50 ≤ 1.2 at every density; these runs say whether the host itself stays
 * within that:
 *
 * - `host work`: copies of one frame's bytes (`--size`, gray) between two arrays, each with a sum over a quarter of
 *   the words, repeated to about `--host-ms` (calibrated at the start; about a 720p chain's host share on the GPU
 *   machine): the CPU alone, no GPU and no Dawn;
 * - `empty round trip`: one 16-byte copy submitted and its buffer mapped for reading (Dawn polls through
 *   `setImmediate` while the map is pending, as it does for every readback);
 * - `upload + round trip`: the frame's bytes written with `queue.writeBuffer`, then the round trip;
 * - `host work + round trip`: both, in that order.
 *
 * "slow frames (GC)": frames over twice the median, and in parentheses those that overlapped a garbage collection.
 *
 *   node dist/bench/timing/hostFloor.js [--size 1280x720] [--host-ms 0.3] [--cells 11] [--frames 200] [--warmup 20] [--dawn backend=vulkan]
 */
import { GpuContext } from '../../index.js';
import { defaultDawnFlags } from '../../extend.js';
import { quantile, runMain, watchGcs } from '../support/timing.js';
import { benchArgs } from '../support/args.js';

const { values, refuse } = benchArgs(import.meta.url, {
  size: { type: 'string', default: '1280x720' },
  'host-ms': { type: 'string', default: '0.3' },
  cells: { type: 'string', default: '11' },
  frames: { type: 'string', default: '200' },
  warmup: { type: 'string', default: '20' },
  dawn: { type: 'string', multiple: true, default: [] },
}, ['host-ms', 'cells', 'frames', 'warmup']);
const [width, height] = (values.size as string).split('x').map(Number);
const cells = Number(values.cells);
const frames = Number(values.frames);
const warmup = Number(values.warmup);
if (!/^\d+x\d+$/.test(values.size as string) || !(width > 0 && height > 0)) refuse(`--size takes WIDTHxHEIGHT, got "${values.size}"`);
if (![cells, frames].every((v) => Number.isInteger(v) && v > 0) || !Number.isInteger(warmup) || warmup < 0) refuse('--cells and --frames take positive integers, --warmup a non-negative one');

const { duringGc } = watchGcs();

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function main(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'bench-hostFloor', profile: false, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  const { device } = ctx;
  const bytes = Math.ceil((width * height) / 4) * 4;
  const source = new Uint8Array(bytes).map((_, i) => (i * 2654435761) >>> 24);
  const copy = new Uint8Array(bytes);
  const words = new Uint32Array(copy.buffer);
  const image = device.createBuffer({ label: 'bench:hostFloor:image', size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const from = device.createBuffer({ label: 'bench:hostFloor:from', size: 16, usage: GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ label: 'bench:hostFloor:read', size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  let sink = 0;
  const copyOnce = () => {
    copy.set(source);
    let s = 0;
    for (let i = 0; i < words.length; i += 4) s = (s + words[i]) | 0;
    sink ^= s;
  };
  // The repetitions that make about --host-ms, from the median of 100 copies (after 100 to warm up).
  const once: number[] = [];
  for (let k = 0; k < 200; k++) {
    const t0 = performance.now();
    copyOnce();
    if (k >= 100) once.push(performance.now() - t0);
  }
  const repeats = Math.max(1, Math.round(Number(values['host-ms']) / quantile(once, 0.5)));
  const hostWork = () => {
    for (let r = 0; r < repeats; r++) copyOnce();
  };
  const roundTrip = async () => {
    const enc = device.createCommandEncoder({ label: 'bench:hostFloor' });
    enc.copyBufferToBuffer(from, 0, read, 0, 16);
    device.queue.submit([enc.finish()]);
    await read.mapAsync(GPUMapMode.READ);
    sink ^= new Uint32Array(read.getMappedRange())[0];
    read.unmap();
  };
  const runs: [string, () => Promise<void> | void][] = [
    ['host work', hostWork],
    ['empty round trip', roundTrip],
    ['upload + round trip', () => (device.queue.writeBuffer(image, 0, source), roundTrip())],
    ['host work + round trip', () => (hostWork(), roundTrip())],
  ];
  console.log(`host floor of one frame at a time — ${new Date().toISOString()}, node ${process.version}`);
  console.log(`device: ${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback adapter: CPU emulation)' : ''}; ${width}×${height} gray (${bytes} bytes a frame); host work ${repeats} copies (${(repeats * quantile(once, 0.5)).toFixed(3)} ms); ${cells} cells of ${frames} frames after ${warmup}; wall = one frame's end to the next's`);
  console.log('\n| run | cell | wall p50 ms | wall p99 ms | p99/p50 | slow frames (GC) |');
  console.log('|---|---|---|---|---|---|');
  const stats = new Map(runs.map(([name]) => [name, { p50s: [] as number[], ratios: [] as number[] }]));
  // Cells outer, runs inner, as latency.js does with densities: a drift of the machine touches every run alike.
  for (let c = 0; c < cells; c++) {
    for (const [name, frame] of runs) {
      const wall: number[] = [];
      const spans: [number, number][] = [];
      let last = performance.now();
      for (let k = 0; k < warmup + frames; k++) {
        await nextTurn();
        await frame();
        const now = performance.now();
        if (k >= warmup) {
          wall.push(now - last);
          spans.push([last, now]);
        }
        last = now;
      }
      const p50 = quantile(wall, 0.5);
      const p99 = quantile(wall, 0.99);
      const slow = spans.filter((_, k) => wall[k] > 2 * p50);
      stats.get(name)!.p50s.push(p50);
      stats.get(name)!.ratios.push(p99 / p50);
      console.log(`| ${name} | ${c} | ${p50.toFixed(3)} | ${p99.toFixed(3)} | ${(p99 / p50).toFixed(2)} | ${slow.length} (${slow.filter(([a, b]) => duringGc(a, b)).length}) |`);
    }
  }
  console.log('\nMeans over cells:\n');
  console.log('| run | wall p50 ms | p99/p50 median | worst p99/p50 | cells with p99/p50 ≤ 1.2 |');
  console.log('|---|---|---|---|---|');
  for (const [name, st] of stats) {
    const mean = st.p50s.reduce((a, b) => a + b, 0) / st.p50s.length;
    console.log(`| ${name} | ${mean.toFixed(3)} | ${quantile(st.ratios, 0.5).toFixed(2)} | ${Math.max(...st.ratios).toFixed(2)} | ${st.ratios.filter((r) => r <= 1.2).length} of ${st.ratios.length} |`);
  }
  if (sink === 0.5) console.log(sink); // keeps the work from being optimised away
  for (const b of [image, from, read]) b.destroy();
  ctx.destroy();
}

runMain(main);
