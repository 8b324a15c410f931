/**
 * Correctness on the machine at hand (run it on the H100 before trusting its timings): the shared labeling corpus
 * through threshold → label, both connectivities, compared exactly with the CPU reference; plus large frames
 * (2048×2048 and 4096×4096) compared by count and labels.
 *
 *   node dist/bench/verify.js [--dawn backend=vulkan]
 */
import { parseArgs } from 'node:util';
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, fromPixels, label, labelAlgorithms, readResults, threshold, type PixelImage } from '../src/index.js';
import { defaultDawnFlags } from '../src/gpu.js';
import { runMain } from './timing.js';
import { labelCpu } from '../src/reference/labelCpu.js';
import { labelCorpus } from '../src/reference/corpus.js';
import { randomBlocks, zigzagSpiral } from '../src/reference/images.js';

const { values } = parseArgs({ options: { dawn: { type: 'string', multiple: true, default: [] } } });

async function main(): Promise<number> {
  const ctx = await GpuContext.create({ label: 'verify', dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
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
  ctx.destroy();
  return bad ? 1 : 0;
}

runMain(main);
