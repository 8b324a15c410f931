/**
 * Fiducial markers over a video: `markers()` on every frame of examples/data/markers.mp4 (or the files given),
 * printing per second of video the markers found, their IDs and GPU time. When a `<clip>.json` of true corners
 * lies beside the clip (the shipped sample has one, written by scripts/make-marker-clip.mjs), it also prints how
 * far the corners found are from the true ones. Run with `npm run main` (after the labeling job) or
 * `node dist/examples/node/markers.js [clip.mp4 ...] [--dictionary DICT_4X4_50]`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, markers, readResults, type FrameResult } from 'flowmark';
import { fromVideoFile } from 'flowmark/node';

interface Truth {
  dictionary: string;
  frames: { id: number; corners: [number, number][] }[][];
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { dictionary: { type: 'string' } } });
  const files = positionals.length ? positionals : [fileURLToPath(new URL('../../../examples/data/markers.mp4', import.meta.url))];
  const ctx = await GpuContext.create({ label: 'flowmark-markers', profile: true });
  console.log(`flowmark markers on ${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback adapter: software)' : ''}`);
  for (const file of files) {
    const truthFile = file.replace(/\.[^.]+$/, '.json');
    const truth: Truth | null = existsSync(truthFile) ? JSON.parse(readFileSync(truthFile, 'utf8')) : null;
    const dictionary = values.dictionary ?? truth?.dictionary ?? 'DICT_4X4_50';
    const start = performance.now();
    const results: FrameResult[] = await lastValueFrom(
      fromVideoFile(ctx, file, { onInfo: (i) => console.log(`${file}: ${i.width}x${i.height} ${i.codec}, ${i.frames} frames, ${dictionary}`) }).pipe(markers({ dictionary }), readResults(), toArray()),
    );
    const wall = (performance.now() - start) / 1000;
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    console.log(`second  frames  markers/frame  IDs seen${truth ? '         true found  corner RMSE px' : ''}  GPU ms/frame`);
    const seconds = new Map<number, FrameResult[]>();
    for (const r of results) seconds.set(Math.floor(r.timeUs / 1e6), [...(seconds.get(Math.floor(r.timeUs / 1e6)) ?? []), r]);
    let all: number[] = [];
    for (const [s, rs] of seconds) {
      const ids = [...new Set(rs.flatMap((r) => r.markers!.found.map((m) => m.id)))].sort((a, b) => a - b);
      let accuracy = '';
      if (truth) {
        // A marker found is matched with the true marker of its ID in that frame.
        const errs: number[] = [];
        let want = 0;
        let got = 0;
        for (const r of rs) {
          const t = truth.frames[r.seq] ?? [];
          want += t.length;
          for (const m of r.markers!.found) {
            const tm = t.find((x) => x.id === m.id);
            if (!tm) continue;
            got++;
            m.corners.forEach((c, k) => errs.push(Math.hypot(c[0] - tm.corners[k][0], c[1] - tm.corners[k][1])));
          }
        }
        all = all.concat(errs);
        accuracy = `  ${`${got}/${want}`.padStart(10)}  ${Math.sqrt(mean(errs.map((e) => e * e))).toFixed(3).padStart(14)}`;
      }
      const gpu = mean(rs.map((r) => r.timings.reduce((t, p) => t + p.ms, 0)));
      console.log(`${String(s).padStart(6)}  ${String(rs.length).padStart(6)}  ${mean(rs.map((r) => r.markers!.found.length)).toFixed(2).padStart(13)}  ${ids.join(',').padEnd(16)}${accuracy}  ${ctx.features.timestamps ? gpu.toFixed(3).padStart(12) : 'n/a'.padStart(12)}`);
    }
    const rmse = truth ? `, corner RMSE ${Math.sqrt(mean(all.map((e) => e * e))).toFixed(3)} px against the true corners` : '';
    console.log(`${file}: ${results.length} frames in ${wall.toFixed(2)} s (${(results.length / wall).toFixed(1)} frames/s with decoding)${rmse}, buffers in use after: ${ctx.pool.stats().inUse}`);
  }
  ctx.destroy();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`markers example failed: ${(e as Error)?.stack ?? e}`);
    process.exit(1);
  },
);
