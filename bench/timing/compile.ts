/**
 * Kernel compile time: how long each chain's first frame takes on a fresh device (its pipelines created and compiled
 * there) against its second (the same pipelines, reused). On a software GPU the difference is what a new machine pays
 * once: lavapipe took 4 minutes to compile the marker fit at one workgroup size before its functions with barriers
 * were called once each (BENCHMARKS.md, sixty-fourth session). Mesa keeps compiled shaders in its cache
 * (~/.cache/mesa_shader_cache): run with MESA_SHADER_CACHE_DISABLE=true for the cold figures, without it for what a
 * second run pays. Each chain gets its own GpuContext, so no pipeline of another chain is reused.
 *
 *   node dist/bench/timing/compile.js [--chains markers-256,markers-512,track,label] [--size 320x240] [--dawn backend=vulkan]
 *
 * Chains: `markers-256` / `markers-512` (markers() with the fit at 256 or 512 invocations a candidate; the fit is the
 * kernel that takes long), `track` (background → morphology → features with histograms, as `flowmark track`),
 * `label` (threshold → label() with each of the six algorithms, 8-connectivity, then features()).
 */
import { lastValueFrom, toArray, type OperatorFunction } from 'rxjs';
import { GpuContext, background, features, fromPixels, label, morphology, readResults, threshold, type FrameResult, type GpuFrame, labelAlgorithms, markerDictionary } from '../../index.js';
import { markersWith, defaultDawnFlags } from '../../extend.js';
import { markerScene } from '../../reference.js';
import { benchArgs } from '../support/args.js';
import { runMain } from '../support/timing.js';

const { values, refuse } = benchArgs(import.meta.url, {
  chains: { type: 'string', default: 'markers-256,markers-512,track,label' },
  size: { type: 'string', default: '320x240' },
  dawn: { type: 'string', multiple: true, default: [] },
});
const size = /^(\d+)x(\d+)$/.exec(values.size as string);
if (!size || +size[1] < 16 || +size[2] < 16) refuse(`--size takes WxH, each at least 16, got "${values.size}"`);
const [width, height] = [Number(size![1]), Number(size![2])];

const dict = markerDictionary('DICT_4X4_50');
type Chain = OperatorFunction<GpuFrame, GpuFrame>;
/** Each chain's rows: a name and the operators it runs (made afresh for each run). */
const chains: Record<string, [string, () => Chain][]> = {
  'markers-256': [['markers, fit at 256', () => markersWith({ dictionary: 'DICT_4X4_50' }, { fitInvocations: 256 })]],
  'markers-512': [['markers, fit at 512', () => markersWith({ dictionary: 'DICT_4X4_50' }, { fitInvocations: 512 })]],
  track: [['background → morphology → features', () => (frames) => frames.pipe(background({ history: 500 }), morphology({ open: 3, close: 5 }), features({ minArea: 20, histogram: true }))]],
  label: labelAlgorithms.map((algorithm): [string, () => Chain] => [`threshold → label (${algorithm}) → features`, () => (frames) => frames.pipe(threshold({ method: 'otsu' }), label({ algorithm, connectivity: 8 }), features({}))]),
};
const chosen = (values.chains as string).split(',').map((c) => c.trim());
for (const c of chosen) if (!(c in chains)) refuse(`--chains takes a comma list of ${Object.keys(chains).join(', ')}, got "${c}"`);

async function main(): Promise<void> {
  // A scene with markers, so that the fit has candidates to run on (and every kernel its work).
  const side = Math.min(width, height);
  const scene = markerScene(7, { width, height, markerSize: dict.markerSize, bits: (id) => dict.bits(id), ids: [1, 2], side: [side / 6, side / 4], maxTilt: 30, blur: 0.5, noise: 2, clutter: 2 });
  const frame = { width, height, format: 'gray' as const, data: scene.gray };
  console.log(`kernel compile time — ${new Date().toISOString()}, ${width}×${height}, Mesa's shader cache ${process.env.MESA_SHADER_CACHE_DISABLE ? 'off' : 'on'}`);
  let header = false;
  for (const name of chosen) {
    for (const [row, chain] of chains[name]) {
      const ctx = await GpuContext.create({ label: `bench-compile-${name}`, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
      if (!header) {
        console.log(`device: ${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback adapter: CPU emulation)' : ''}`);
        console.log('\n| chain | first frame, ms | second frame, ms | first − second, ms |');
        console.log('|---|---|---|---|');
        header = true;
      }
      try {
        // One frame on the fresh device (its pipelines created), then one more (the device's pipelines reused), each
        // read back before the next is sent.
        const times: number[] = [];
        for (let i = 0; i < 2; i++) {
          const start = performance.now();
          await lastValueFrom(fromPixels(ctx, [frame]).pipe(chain(), readResults({ framesPerSubmit: 1 }), toArray<FrameResult>()));
          times.push(performance.now() - start);
        }
        console.log(`| ${row} | ${times[0].toFixed(1)} | ${times[1].toFixed(1)} | ${(times[0] - times[1]).toFixed(1)} |`);
      } finally {
        ctx.destroy();
      }
    }
  }
}

runMain(main);
