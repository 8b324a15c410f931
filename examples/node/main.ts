/**
 * The main job: threshold → label → features over the sample frames shipped in examples/data/frames (or PNG
 * paths given on the command line), printing one line per frame and a summary. Run with `npm run main`.
 *
 * Adaptive threshold, inverted: the frames are dark objects (blobs, markers) under uneven light. Features keep
 * objects of at least 20 pixels that do not touch the border; the largest one's centroid is printed.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { GpuContext, features, label, readResults, threshold, type FrameResult } from '../../src/index.js';
import { fromPng } from '../../src/node/index.js';

async function main(): Promise<void> {
  const dataDir = fileURLToPath(new URL('../../../examples/data/frames/', import.meta.url));
  const files = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(dataDir).filter((f) => f.endsWith('.png')).sort().map((f) => join(dataDir, f));
  const ctx = await GpuContext.create({ label: 'flowmark-main' });
  console.log(`flowmark main job: ${files.length} frames on ${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback adapter)' : ''}`);
  console.log('frame  size      components  objects  largest (area @ centroid)  GPU ms (threshold / label / canonical / features)  wall ms');
  const results: FrameResult[] = [];
  const walls: number[] = [];
  const start = performance.now();
  let last = start;
  await new Promise<void>((resolve, reject) => {
    fromPng(ctx, files)
      .pipe(
        threshold({ method: 'adaptive', window: 31, offset: 12, invert: true }),
        label({ algorithm: 'auto', connectivity: 8 }),
        features({ minArea: 20, dropBorder: true }),
        readResults(),
      )
      .subscribe({
        next(r) {
          const now = performance.now();
          walls.push(now - last);
          last = now;
          results.push(r);
          const t = (prefix: string) => r.timings.filter((x) => x.name.startsWith(prefix)).reduce((s, x) => s + x.ms, 0);
          const gpu = ctx.features.timestamps
            ? `${t('threshold').toFixed(3)} / ${t('label:c2fl').toFixed(3)} / ${t('label:canonical').toFixed(3)} / ${t('features').toFixed(3)}`
            : 'n/a';
          const f = r.features!;
          let big = -1;
          f.area.forEach((a, i) => (big < 0 || a > f.area[big] ? (big = i) : undefined));
          const largest = big < 0 ? '-' : `${f.area[big]} @ (${f.cx[big].toFixed(1)}, ${f.cy[big].toFixed(1)})`;
          console.log(
            `${String(r.seq).padStart(5)}  ${`${r.width}x${r.height}`.padEnd(9)} ${String(r.labeling!.count).padStart(10)}  ${String(f.passed).padStart(7)}  ${largest.padEnd(25)}  ${gpu.padEnd(49)} ${walls.at(-1)!.toFixed(2).padStart(8)}`,
          );
        },
        error: reject,
        complete: resolve,
      });
  });
  const total = performance.now() - start;
  const counts = results.map((r) => r.labeling!.count);
  const gpuPerFrame = results.reduce((s, r) => s + r.timings.reduce((a, t) => a + t.ms, 0), 0) / Math.max(1, results.length);
  console.log('');
  console.log(`frames: ${results.length}`);
  console.log(`components per frame: min ${Math.min(...counts)}, mean ${(counts.reduce((a, b) => a + b, 0) / counts.length).toFixed(1)}, max ${Math.max(...counts)}`);
  const objects = results.map((r) => r.features!.passed);
  console.log(`objects (≥ 20 px, off the border) per frame: min ${Math.min(...objects)}, max ${Math.max(...objects)}`);
  console.log(`time per frame: wall ${(total / results.length).toFixed(2)} ms (incl. PNG decode), GPU ${ctx.features.timestamps ? gpuPerFrame.toFixed(3) + ' ms' : 'n/a'}`);
  console.log(`device: ${ctx.adapterName}; buffers in use after the run: ${ctx.pool.stats().inUse}`);
  ctx.destroy();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`main job failed: ${(e as Error)?.stack ?? e}`);
    process.exit(1);
  },
);
