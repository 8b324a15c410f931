/**
 * Dots benchmark: `threshold → label → features → dots` on frames of `--size` with about `--dots` bright blobs
 * (src/eval/dotScene.ts: discs, ellipses, squares), GPU time per part (timestamp queries, median per frame),
 * wall time per frame one at a time (uploaded, submitted alone, read back before the next), and the centres' error
 * against the exact ones.
 *
 *   node dist/bench/timing/dots.js [--size 1280x720] [--dots 200] [--frames 200] [--warmup 20] [--dawn backend=vulkan]
 */
import { GpuContext, dots, features, fromPixels, label, threshold } from '../../index.js';
import { defaultDawnFlags } from '../../extend.js';
import { dotScene } from '../../reference.js';
import { oneAtATime, runMain } from '../support/timing.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(import.meta.url, {
  size: { type: 'string', default: '1280x720' },
  dots: { type: 'string', default: '200' },
  frames: { type: 'string', default: '200' },
  warmup: { type: 'string', default: '20' },
  dawn: { type: 'string', multiple: true, default: [] },
}, ['dots', 'frames', 'warmup']);
const [width, height] = (values.size as string).split('x').map(Number);
const frames = Number(values.frames);
const warmup = Number(values.warmup);
const cols = Math.round(Math.sqrt((Number(values.dots) * width) / height));
const rows = Math.round(Number(values.dots) / cols);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const f3 = (x: number) => x.toFixed(3);

async function main(): Promise<void> {
  const scenes = [0, 1, 2, 3].map((i) => dotScene(600 + i, width, height, cols, rows));
  const ctx = await GpuContext.create({ label: 'bench-dots', profile: true, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  const images = (n: number) => Array.from({ length: n }, (_, i) => ({ width, height, format: 'gray' as const, data: scenes[i % scenes.length].data }));
  const chain = [threshold({ level: 90 }), label({ algorithm: 'c2fl' }), features({ minArea: 12, dropBorder: true, maxResults: 1024 }), dots()] as const;
  const { results, wall } = await oneAtATime(chain.reduce((st, op) => st.pipe(op), fromPixels(ctx, images(warmup + frames), { maxInFlight: 1 })), warmup);
  const errs: number[] = [];
  let round = 0;
  results.forEach((r) => {
    const s = scenes[r.seq % scenes.length];
    for (const b of s.blobs.filter((x) => x.round)) {
      round++;
      const d = r.dots!.find((x) => Math.hypot(x.x - b.cx, x.y - b.cy) < b.a);
      if (d) errs.push(Math.hypot(d.x - b.cx, d.y - b.cy));
    }
  });
  const gpu = (prefix: string) => (ctx.features.timestamps ? f3(median(results.map((r) => r.timings.filter((t) => t.name.startsWith(prefix)).reduce((a, t) => a + t.ms, 0)))) : 'n/a');
  console.log(`dots benchmark — ${new Date().toISOString()}, ${ctx.adapterName}, ${width}×${height}, ${cols * rows} blobs (${round / results.length} round), ${frames} frames one at a time after ${warmup}`);
  console.log('| threshold | label | features | dots | GPU chain | wall p50 | round blobs found | centre RMSE px |');
  console.log('|---|---|---|---|---|---|---|---|');
  console.log(`| ${gpu('threshold')} | ${gpu('label')} | ${gpu('features')} | ${gpu('dots')} | ${gpu('')} | ${f3(median(wall))} | ${errs.length}/${round} | ${Math.sqrt(errs.reduce((a, e) => a + e * e, 0) / errs.length).toFixed(4)} |`);
  ctx.destroy();
}

runMain(main);
