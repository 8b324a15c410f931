/**
 * The main job: threshold → label over the sample frames shipped in examples/data/frames (or PNG paths given on
 * the command line), printing one line per frame and a summary. Run with `npm run main`.
 *
 * Adaptive threshold, inverted: the frames are dark objects (blobs, markers) under uneven light.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { GpuContext, label, readResults, threshold, type FrameResult } from '../../src/index.js';
import { fromPng } from '../../src/node/index.js';

async function main(): Promise<void> {
  const dataDir = fileURLToPath(new URL('../../../examples/data/frames/', import.meta.url));
  const files = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(dataDir).filter((f) => f.endsWith('.png')).sort().map((f) => join(dataDir, f));
  const ctx = await GpuContext.create({ label: 'flowmark-main' });
  console.log(`flowmark main job: ${files.length} frames on ${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback adapter)' : ''}`);
  console.log('frame  size      components  converged  passes  GPU ms (threshold / label / canonical)  wall ms');
  const results: FrameResult[] = [];
  const walls: number[] = [];
  const start = performance.now();
  let last = start;
  await new Promise<void>((resolve, reject) => {
    fromPng(ctx, files)
      .pipe(threshold({ method: 'adaptive', window: 31, offset: 12, invert: true }), label({ connectivity: 8, passes: 'until-converged' }), readResults())
      .subscribe({
        next(r) {
          const now = performance.now();
          walls.push(now - last);
          last = now;
          results.push(r);
          const t = (name: string) => r.timings.filter((x) => x.name === name).reduce((s, x) => s + x.ms, 0);
          const gpu = ctx.features.timestamps ? `${t('threshold').toFixed(3)} / ${t('label:shibata').toFixed(3)} / ${t('label:canonical').toFixed(3)}` : 'n/a';
          console.log(
            `${String(r.seq).padStart(5)}  ${`${r.width}x${r.height}`.padEnd(9)} ${String(r.labeling!.count).padStart(10)}  ${(r.labeling!.converged ? 'yes' : 'no').padStart(9)}  ${String(r.labeling!.passes).padStart(6)}  ${gpu.padEnd(38)} ${walls.at(-1)!.toFixed(2).padStart(8)}`,
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
  console.log(`converged: ${results.every((r) => r.labeling!.converged) ? 'all frames' : `${results.filter((r) => !r.labeling!.converged).length} frames did not`}`);
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
