/**
 * The main job: threshold → features over the short clip shipped in examples/data/sample.mp4 (or the video or image
 * files given on the command line), printing a summary per second of video and for the whole run. `features()`
 * straight after `threshold()` labels the mask itself and measures components while labelling (no label image is
 * needed here). Run with `npm run main`.
 *
 * Adaptive threshold, inverted: the scene is dark objects (blobs, markers) under uneven light. Objects are
 * components of at least 20 pixels that do not touch the border.
 */
import { fileURLToPath } from 'node:url';
import { GpuContext, features, readResults, threshold, type FrameResult, type GpuFrame } from 'flowmark';
import { fromImages, fromVideoFile } from 'flowmark/node';
import type { Observable } from 'rxjs';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const files = args.length ? args : [fileURLToPath(new URL('../../../examples/data/sample.mp4', import.meta.url))];
  const ctx = await GpuContext.create({ label: 'flowmark-main', profile: true });
  console.log(`flowmark main job on ${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback adapter: software)' : ''}`);
  for (const file of files) {
    const source: Observable<GpuFrame> = /\.(png|jpe?g|webp)$/i.test(file) ? fromImages(ctx, [file]) : fromVideoFile(ctx, file, { onInfo: (i) => console.log(`${file}: ${i.width}x${i.height} ${i.codec}, ${i.frames} frames, ${i.fps.toFixed(1)} frames/s`) });
    const results: FrameResult[] = [];
    const start = performance.now();
    await new Promise<void>((resolve, reject) =>
      source
        .pipe(
          threshold({ method: 'adaptive', window: 31, offset: 12, invert: true }),
          features({ connectivity: 8, minArea: 20, dropBorder: true }),
          readResults(),
        )
        .subscribe({ next: (r) => results.push(r), error: reject, complete: resolve }),
    );
    const wall = (performance.now() - start) / 1000;
    const gpu = (r: FrameResult) => r.timings.reduce((s, t) => s + t.ms, 0);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    console.log('second  frames  components (mean)  objects (min–max)  largest object (px)  GPU ms/frame');
    const seconds = new Map<number, FrameResult[]>();
    for (const r of results) {
      const s = Math.floor(r.timeUs / 1e6);
      seconds.set(s, [...(seconds.get(s) ?? []), r]);
    }
    for (const [s, rs] of seconds) {
      const objects = rs.map((r) => r.features!.passed);
      const largest = Math.max(0, ...rs.flatMap((r) => Array.from(r.features!.area)));
      console.log(
        `${String(s).padStart(6)}  ${String(rs.length).padStart(6)}  ${mean(rs.map((r) => r.features!.count)).toFixed(1).padStart(17)}  ${`${Math.min(...objects)}–${Math.max(...objects)}`.padStart(17)}  ${String(largest).padStart(19)}  ${ctx.features.timestamps ? mean(rs.map(gpu)).toFixed(3).padStart(12) : 'n/a'}`,
      );
    }
    console.log(`${file}: ${results.length} frames in ${wall.toFixed(2)} s (${(results.length / wall).toFixed(1)} frames/s with decoding), buffers in use after: ${ctx.pool.stats().inUse}`);
  }
  ctx.destroy();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`main job failed: ${(e as Error)?.stack ?? e}`);
    process.exit(1);
  },
);
