/**
 * Correctness on the machine at hand (run it on a GPU machine before trusting its timings): the shared labeling corpus
 * through threshold → label, both connectivities, compared exactly with the CPU reference; plus large frames
 * (2048×2048 and 4096×4096) compared by count and labels; then features, both ways in (labelling the mask in
 * `features()` itself, and after `label()`), compared field by field with the CPU reference; and again with
 * `histogram: true` and `'spatial'`, the histograms (and their bins' places) compared too (images whose components
 * pass what the results then hold skipped).
 *
 *   node dist/bench/timing/verify.js [--dawn backend=vulkan]
 */
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, features, fromPixels, label, labelAlgorithms, readResults, threshold, type ComponentFeatures, type PixelImage } from '../../index.js';
import { featuresCpu, labelCpu, labelCorpus, randomBlocks, zigzagSpiral } from '../../reference.js';
import { defaultDawnFlags } from '../../extend.js';
import { runMain } from '../support/timing.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(import.meta.url, { dawn: { type: 'string', multiple: true, default: [] } });

async function main(): Promise<number> {
  const ctx = await GpuContext.create({ label: 'verify', profile: true, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  console.log(`device: ${ctx.adapterName}; subgroups ${ctx.features.subgroups}; timestamps ${ctx.features.timestamps}`);
  const corpus = [
    ...labelCorpus(),
    { name: 'random 2048x2048 d=0.5 g=1', width: 2048, height: 2048, data: randomBlocks(2048, 2048, 0.5, 1, 9) },
    { name: 'random 2048x2048 d=0.6 g=4', width: 2048, height: 2048, data: randomBlocks(2048, 2048, 0.6, 4, 10) },
    { name: 'random 4096x4096 d=0.45 g=1', width: 4096, height: 4096, data: randomBlocks(4096, 4096, 0.45, 1, 11) },
    { name: 'zigzag spiral 2001', width: 2001, height: 2001, data: zigzagSpiral(2001) },
  ];
  let bad = 0;
  for (const algorithm of labelAlgorithms) for (const connectivity of [8, 4] as const) {
    const images: PixelImage[] = corpus.map((c) => ({ width: c.width, height: c.height, format: 'gray', data: c.data }));
    const results = await lastValueFrom(
      fromPixels(ctx, images).pipe(threshold(), label({ algorithm, connectivity, passes: 'until-converged', readLabels: true }), readResults(), toArray()),
    );
    let maxPasses = 0;
    corpus.forEach((c, i) => {
      const ref = labelCpu(c.data, c.width, c.height, connectivity);
      const got = results[i].labels!;
      maxPasses = Math.max(maxPasses, results[i].labeling!.passes);
      let diff = -1;
      for (let p = 0; p < got.length && diff < 0; p++) if (got[p] !== ref.labels[p]) diff = p;
      if (diff >= 0 || results[i].labeling!.count !== ref.count) {
        bad++;
        console.log(`MISMATCH ${algorithm} ${c.name} (${connectivity}-conn): count ${results[i].labeling!.count} vs ${ref.count}, first differing pixel ${diff}`);
      }
    });
    console.log(`${algorithm}, ${connectivity}-connectivity: ${corpus.length} images checked${algorithm === 'shibata' ? `, most passes ${maxPasses}` : ''}`);
  }
  console.log(bad ? `${bad} mismatches` : 'all labels equal the CPU reference');
  // Features: gray values that vary inside components (foreground > 95), so sums of gray are checked too.
  const grays = corpus.map((c, i) => Uint8Array.from(c.data, (m, p) => (m ? 96 + ((p * 7 + i) % 160) : (p * 13 + i) % 96)));
  for (const connectivity of [8, 4] as const) {
    const want = corpus.map((c, i) => featuresCpu(labelCpu(c.data, c.width, c.height, connectivity).labels, grays[i], c.width, c.height, { histogram: 'spatial' }));
    const kinds = [false, true, 'spatial'] as const;
    for (const [way, histogram] of kinds.flatMap((h) => [['one labeling', h] as const, ['after label()', h] as const])) {
      const images: PixelImage[] = corpus.map((c, i) => ({ width: c.width, height: c.height, format: 'gray', data: grays[i] }));
      // With histograms, results of 2^20 components would pass a storage binding's 128 MiB (spatial ones: 2^17).
      const options = { histogram, maxResults: histogram === 'spatial' ? 1 << 17 : histogram ? 1 << 19 : 1 << 20 };
      const ops = way === 'one labeling' ? [features({ connectivity, ...options })] : [label({ algorithm: 'c2fl', connectivity }), features(options)];
      const results = await lastValueFrom(ops.reduce((s, op) => s.pipe(op), fromPixels(ctx, images).pipe(threshold({ level: 95 }))).pipe(readResults(), toArray()));
      let overflowed = 0;
      corpus.forEach((c, i) => {
        const got = results[i].features!;
        if (got.overflow || got.truncated) return void overflowed++;
        const why = featuresDiffer(got, want[i], histogram);
        if (why) {
          bad++;
          console.log(`MISMATCH features ${way} ${c.name} (${connectivity}-conn): ${why}`);
        }
      });
      console.log(`features ${way}${histogram === 'spatial' ? ' with spatial histograms' : histogram ? ' with histograms' : ''}, ${connectivity}-connectivity: ${corpus.length - overflowed} images checked${overflowed ? `, ${overflowed} over maxComponents or maxResults (skipped)` : ''}`);
    }
  }
  console.log(bad ? `${bad} mismatches` : 'all labels and features equal the CPU reference');
  ctx.destroy();
  return bad ? 1 : 0;
}

/** The first field that differs (integers exactly, derived floats within 1e-9 relative), or ''. */
function featuresDiffer(got: ComponentFeatures, want: ComponentFeatures, histogram: boolean | 'spatial'): string {
  if (got.count !== want.count || got.passed !== want.passed) return `count ${got.count} vs ${want.count}, passed ${got.passed} vs ${want.passed}`;
  for (const k of ['label', 'area', 'x0', 'y0', 'x1', 'y1', 'perimeter', 'minGray', 'maxGray', 'touchesBorder'] as const) {
    const i = got[k].findIndex((v, j) => v !== want[k][j]);
    if (i >= 0) return `${k}[${i}] ${got[k][i]} vs ${want[k][i]}`;
  }
  for (const k of ['cx', 'cy', 'mu20', 'mu02', 'mu11', 'meanGray'] as const) {
    const i = got[k].findIndex((v, j) => Math.abs(v - want[k][j]) > 1e-9 * Math.max(1, Math.abs(want[k][j])));
    if (i >= 0) return `${k}[${i}] ${got[k][i]} vs ${want[k][i]}`;
  }
  if (histogram) {
    const i = want.histogram!.findIndex((v, j) => v !== got.histogram![j]);
    if (i >= 0 || got.histogram!.length !== want.histogram!.length) return `histogram[${i}] ${got.histogram![i]} vs ${want.histogram![i]} (lengths ${got.histogram!.length}, ${want.histogram!.length})`;
    for (const k of ['histogramX', 'histogramY'] as const) {
      if (histogram !== 'spatial') {
        if (got[k]) return `${k} without histogram: 'spatial'`;
        continue;
      }
      // Means of exact sums: equal, NaN where a bin is empty.
      const j = want[k]!.findIndex((v, b) => !Object.is(v, got[k]![b]));
      if (j >= 0) return `${k}[${j}] ${got[k]![j]} vs ${want[k]![j]}`;
    }
  } else if (got.histogram) {
    return 'a histogram without histogram: true';
  }
  return '';
}

runMain(main);
