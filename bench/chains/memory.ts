/**
 * Memory over a long run: frames of `--sizes` distinct sizes (from 320×240 up to about 1920×1080, each once, in
 * an order that mixes small and large) through fromPixels → threshold → features, one at a time, with the process's
 * resident memory (RSS) and the buffer pool's free and in-use bytes every `--every` frames, and the peak. On a
 * software GPU (lavapipe) buffers live in host memory, so RSS shows what a real GPU would hold in VRAM.
 * `--pool-free-bytes` sets the context's bound (GpuContextOptions.poolFreeBytes; default the library's).
 *
 *   node dist/bench/chains/memory.js [--sizes 300] [--every 50] [--pool-free-bytes N] [--dawn backend=vulkan]
 */
import { from, lastValueFrom, tap, concatMap } from 'rxjs';
import { GpuContext, features, fromPixels, readResults, threshold, type PixelImage } from '../../index.js';
import { defaultDawnFlags } from '../../extend.js';
import { runMain } from '../support/timing.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(
  import.meta.url,
  {
    sizes: { type: 'string', default: '300' },
    every: { type: 'string', default: '50' },
    'pool-free-bytes': { type: 'string' },
    dawn: { type: 'string', multiple: true, default: [] },
  },
  ['sizes', 'every', 'pool-free-bytes'],
);

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

async function main(): Promise<void> {
  const sizes = Number(values.sizes);
  const every = Math.max(1, Number(values.every));
  const poolFreeBytes = values['pool-free-bytes'] === undefined ? undefined : Number(values['pool-free-bytes']);
  const ctx = await GpuContext.create({ label: 'memory', poolFreeBytes, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  // Size i: widths and heights spread over 320×240 .. 1920×1080, a large one after a small one (stride 7 of `sizes`).
  const size = (i: number) => {
    const k = (i * 7) % sizes;
    const f = sizes > 1 ? k / (sizes - 1) : 0;
    return { width: 320 + 4 * Math.round((400 * f) + (k % 3)), height: 240 + 2 * Math.round(420 * f) + (k % 5) };
  };
  const image = (i: number): PixelImage => {
    const { width, height } = size(i);
    const data = new Uint8Array(width * height);
    // A few bright squares on a dark ground.
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = (x >> 5) % 3 === 0 && (y >> 5) % 2 === 0 ? 220 : 20;
    return { width, height, format: 'gray', data };
  };
  console.log(`device: ${ctx.adapterName}; pool bound ${mb(ctx.pool.stats().maxFreeBytes)} MiB\n`);
  console.log('| frames | last size | RSS MiB | pool free MiB | pool in use MiB | buffers made |');
  console.log('|---|---|---|---|---|---|');
  let peak = process.memoryUsage().rss;
  let n = 0;
  await lastValueFrom(
    from(Array.from({ length: sizes }, (_, i) => i)).pipe(
      concatMap((i) => lastValueFrom(fromPixels(ctx, [image(i)]).pipe(threshold({ level: 128 }), features(), readResults()))),
      tap((r) => {
        n++;
        const rss = process.memoryUsage().rss;
        peak = Math.max(peak, rss);
        if (n % every === 0 || n === sizes) {
          const s = ctx.pool.stats();
          console.log(`| ${n} | ${r.width}×${r.height} | ${mb(rss)} | ${mb(s.bytesFree)} | ${mb(s.bytesInUse)} | ${s.created} |`);
        }
      }),
    ),
  );
  console.log(`\npeak RSS ${mb(peak)} MiB over ${sizes} frame sizes`);
  ctx.destroy();
}

runMain(main);
