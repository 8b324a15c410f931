/**
 * Memory over long runs, the process's resident memory (RSS) sampled as it goes, with its peak:
 *
 *   --run contexts   `--count` GpuContext cycles (create → 10 frames through threshold → features → destroy), beside
 *                    the same cycles on raw WebGPU (adapter, device, 8 compute pipelines, destroy) with no flowmark
 *                    code: what grows in both is the driver's, what grows in the first only is flowmark's.
 *   --run markers    `--count` frames of one size (640×480) through fromPixels → markers → readResults.
 *   --run tracking   `--count` frames of one size (320×240, a seeded street scene looped) through blobTracking().
 *   --run label      `flowmark label` over `--count` PNGs of distinct sizes (320×240 up to about 1280×720) written to a
 *                    temporary folder; the CLI's RSS is read from /proc while it runs.
 *
 * `--gc` runs the garbage collector after each context cycle: Dawn's objects hold native memory that V8 does not
 * count, so without it they are collected late, and RSS shows when V8 collects as much as what is held.
 * On a software GPU (lavapipe) buffers live in host memory, so RSS shows what a real GPU would hold in VRAM.
 *
 *   node dist/bench/chains/soak.js --run contexts|markers|tracking|label [--count N] [--every N] [--gc] [--dawn backend=vulkan]
 */
import { spawn } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { lastValueFrom, tap } from 'rxjs';
import { GpuContext, blobTracking, defaultBlobSettings, features, fromPixels, markers, markerDictionary, readResults, threshold, type PixelImage } from '../../index.js';
import { defaultDawnFlags } from '../../extend.js';
import { markerScene, surveillanceScene } from '../../reference.js';
import { runMain } from '../support/timing.js';
import { benchArgs } from '../support/args.js';

const { values, refuse } = benchArgs(
  import.meta.url,
  {
    run: { type: 'string', default: 'contexts' },
    count: { type: 'string' },
    every: { type: 'string' },
    gc: { type: 'boolean', default: false },
    dawn: { type: 'string', multiple: true, default: [] },
  },
  ['count', 'every'],
);

const runs = { contexts: 200, markers: 10_000, tracking: 10_000, label: 450 } as const;
const run = values.run as keyof typeof runs;
if (!(run in runs)) refuse(`--run must be one of ${Object.keys(runs).join(', ')}, got ${values.run}`);
const count = values.count === undefined ? runs[run] : Number(values.count);
const every = values.every === undefined ? Math.max(1, Math.round(count / 10)) : Number(values.every);
const dawnFlags = [...defaultDawnFlags, ...(values.dawn as string[])];
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
/** The garbage collector, called after each context cycle with --gc. */
const collect = values.gc ? (setFlagsFromString('--expose-gc'), runInNewContext('gc') as () => void) : () => undefined;

/** Prints the RSS table's rows as `sample(n)` is called, and the peak and the growth after the first tenth at the end. */
function rssTable(what: string) {
  const rows: [number, number][] = [];
  let peak = 0;
  console.log(`| ${what} | RSS MiB |\n|---|---|`);
  return {
    sample(n: number, rss = process.memoryUsage().rss) {
      peak = Math.max(peak, rss);
      if (n % every !== 0 && n !== count) return;
      rows.push([n, rss]);
      console.log(`| ${n} | ${mib(rss)} |`);
    },
    end() {
      const settled = rows.find(([n]) => n >= count / 10) ?? rows[0];
      const last = rows[rows.length - 1];
      const per = last[0] > settled[0] ? (last[1] - settled[1]) / (last[0] - settled[0]) : 0;
      console.log(`\npeak RSS ${mib(peak)} MiB; from ${settled[0]} to ${last[0]} ${what}: ${mib(last[1] - settled[1])} MiB (${(per / 1024).toFixed(1)} KiB per one)`);
    },
  };
}

async function contexts(): Promise<void> {
  const frame: PixelImage = { width: 320, height: 240, format: 'gray', data: new Uint8Array(320 * 240).map((_, p) => ((p >> 4) % 3 ? 200 : 10)) };
  console.log(`flowmark contexts (create, 10 frames, destroy${values.gc ? ', collect' : ''}):\n`);
  const ours = rssTable('cycles');
  for (let n = 1; n <= count; n++) {
    const ctx = await GpuContext.create({ label: 'soak', dawnFlags });
    await lastValueFrom(fromPixels(ctx, Array(10).fill(frame)).pipe(threshold({ level: 128 }), features(), readResults()));
    ctx.destroy();
    collect();
    ours.sample(n);
  }
  ours.end();
  // The same cycles on raw WebGPU: Dawn's own instance, as GpuContext makes it.
  console.log(`\nraw WebGPU devices (a Dawn instance, adapter, device, 8 compute pipelines, destroy${values.gc ? ', collect' : ''}):\n`);
  const { create, globals } = (await import('webgpu')) as unknown as { create: (flags: string[]) => GPU; globals: Record<string, unknown> };
  Object.assign(globalThis, globals);
  const raw = rssTable('cycles');
  for (let n = 1; n <= count; n++) {
    const gpu = create(dawnFlags);
    const adapter = (await gpu.requestAdapter())!;
    const device = await adapter.requestDevice();
    for (let k = 0; k < 8; k++) {
      const module = device.createShaderModule({ label: `soak ${k}`, code: `@group(0) @binding(0) var<storage, read_write> b: array<u32>; @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) { b[g.x] = b[g.x] * ${k + 2}u; }` });
      device.createComputePipeline({ label: `soak ${k}`, layout: 'auto', compute: { module, entryPoint: 'main' } });
    }
    await device.queue.onSubmittedWorkDone();
    device.destroy();
    collect();
    raw.sample(n);
  }
  raw.end();
}

/** `count` frames from `images` (looped) through `chain`, RSS sampled. */
async function frames(what: string, images: PixelImage[], chain: (ctx: GpuContext) => Parameters<ReturnType<typeof fromPixels>['pipe']>[0]): Promise<void> {
  const ctx = await GpuContext.create({ label: 'soak', dawnFlags });
  console.log(`${what} on ${ctx.adapterName}, ${images[0].width}×${images[0].height}, ${count} frames:\n`);
  const table = rssTable('frames');
  let n = 0;
  function* looped(): Generator<PixelImage> {
    for (let i = 0; i < count; i++) yield { ...images[i % images.length], timeUs: Math.round((i * 1e6) / 30) };
  }
  await lastValueFrom(fromPixels(ctx, looped()).pipe(chain(ctx), tap(() => table.sample(++n))));
  table.end();
  ctx.destroy();
}

async function label(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'flowmark-soak-'));
  try {
    // Distinct sizes from 320×240 to about 1280×720, a large one after a small one; a few bright squares on dark.
    const files: string[] = [];
    for (let i = 0; i < count; i++) {
      const k = (i * 7) % count;
      const f = count > 1 ? k / (count - 1) : 0;
      const width = 320 + 2 * Math.round(480 * f) + (k % 2);
      const height = 240 + Math.round(480 * f) + (k % 3);
      const png = new PNG({ width, height, colorType: 0, inputColorType: 0, inputHasAlpha: false } as ConstructorParameters<typeof PNG>[0]);
      const gray = Buffer.alloc(width * height);
      for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) gray[y * width + x] = (x >> 4) % 3 === 0 && (y >> 4) % 2 === 0 ? 220 : 20;
      png.data = gray;
      const path = join(dir, `size-${String(i).padStart(4, '0')}.png`);
      writeFileSync(path, PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false }));
      files.push(path);
    }
    const cli = fileURLToPath(new URL('../../cli/main.js', import.meta.url));
    console.log(`flowmark label over ${count} PNGs of distinct sizes (320×240 to ${1280}×${720} or so):\n`);
    const table = rssTable('images labelled');
    // In one process (no stderr filter in front of it), so that the pid measured is the one doing the work.
    const child = spawn(process.execPath, [cli, 'label', ...files, '--out-dir', join(dir, 'out')], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FLOWMARK_CLI_STDERR: 'direct' } });
    let done = 0;
    let rss = 0;
    const now = () => {
      try {
        return 1024 * Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
      } catch {
        return 0; // exited
      }
    };
    const poll = setInterval(() => (rss = Math.max(rss, now())), 50);
    child.stdout.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n')) {
        if (!/components, converged/.test(line)) continue;
        // Read now too: two images may finish between two polls.
        table.sample(++done, Math.max(rss, now()));
        rss = 0;
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearInterval(poll);
    if (code !== 0) throw new Error(`flowmark label exited ${code}`);
    table.end();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (run === 'contexts') return contexts();
  if (run === 'label') return label();
  if (run === 'markers') {
    const dict = markerDictionary('DICT_4X4_50');
    const scenes = [1, 2, 3, 4].map((seed) => markerScene(seed, { width: 640, height: 480, markerSize: 4, bits: (id) => dict.bits(id), ids: [3, 14, 27, 40], side: [30, 120], maxTilt: 40, blur: 0.6, noise: 3, clutter: 10 }));
    return frames('markers (DICT_4X4_50)', scenes.map((s) => ({ width: s.width, height: s.height, format: 'gray', data: s.gray })), () => (f) => f.pipe(markers({ dictionary: 'DICT_4X4_50' }), readResults()));
  }
  const scene = surveillanceScene(5, { width: 320, height: 240, frames: 300 });
  return frames('blobTracking (a street scene looped)', scene.frames.map((data) => ({ width: scene.width, height: scene.height, format: 'gray', data })), () => blobTracking({ ...defaultBlobSettings, maxUnseen: 2 }));
}

runMain(main);
