/**
 * Markers run to run: the same seeded frames through markers() `--runs` times each, at three levels of noise and
 * clutter (the last with more candidates than `maxCandidates` on most frames), and how many frames gave markers that
 * differ between runs in any byte (IDs, corners, order), how many overflowed, and how many markers the first run
 * found of those drawn. A frame must give the same markers every run: a marker that flickers in and out is what an
 * AR user sees.
 *
 *   node dist/bench/evaluation/markersRuns.js [--frames 20] [--runs 5] [--size 1280x720] [--dawn backend=vulkan]
 */
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, fromPixels, markerDictionary, markers, readResults } from '../../index.js';
import { defaultDawnFlags } from '../../extend.js';
import { markerScene } from '../../reference.js';
import { runMain } from '../support/timing.js';
import { benchArgs } from '../support/args.js';

const { values, refuse } = benchArgs(
  import.meta.url,
  {
    frames: { type: 'string', default: '20' },
    runs: { type: 'string', default: '5' },
    size: { type: 'string', default: '1280x720' },
    dawn: { type: 'string', multiple: true, default: [] },
  },
  ['frames', 'runs'],
);

async function main(): Promise<void> {
  const [width, height] = (values.size as string).split('x').map(Number);
  if (!(width >= 64 && height >= 64)) refuse(`--size takes WxH of at least 64x64, got "${values.size}"`);
  const frames = Number(values.frames);
  const runs = Number(values.runs);
  const ctx = await GpuContext.create({ label: 'markers runs', dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  const dict = markerDictionary('DICT_4X4_50');
  console.log(`markers run to run — ${new Date().toISOString()}, ${ctx.adapterName}, ${frames} frames of ${width}×${height}, 8 DICT_4X4_50 markers of 14–200 px each, ${runs} runs a frame\n`);
  console.log('| noise σ | clutter | frames differing between runs | frames over maxCandidates | markers found (first run) |');
  console.log('|---|---|---|---|---|');
  for (const [noise, clutter] of [[4, 10], [8, 30], [12, 60]]) {
    let differ = 0;
    let over = 0;
    let found = 0;
    for (let seed = 1; seed <= frames; seed++) {
      const s = markerScene(seed, { width, height, markerSize: 4, bits: (id) => dict.bits(id), ids: [1, 2, 3, 4, 5, 6, 7, 8], side: [14, 200], maxTilt: 50, blur: 0.8, noise, clutter });
      const image = { width, height, format: 'gray' as const, data: s.gray };
      const seen = new Set<string>();
      for (let k = 0; k < runs; k++) {
        // A stream of its own each run, as a program that opens a frame at a time does.
        const [r] = await lastValueFrom(fromPixels(ctx, [image]).pipe(markers({ dictionary: 'DICT_4X4_50' }), readResults(), toArray()));
        seen.add(JSON.stringify(r.markers!.found));
        if (k === 0) {
          over += r.markers!.overflow ? 1 : 0;
          found += r.markers!.found.length;
        }
      }
      if (seen.size > 1) differ++;
    }
    console.log(`| ${noise} | ${clutter} | ${differ} of ${frames} | ${over} | ${found} of ${8 * frames} |`);
  }
  ctx.destroy();
}

runMain(main);
