/**
 * Features from a frame's canonical labels (`label()` before `features()`): one invocation per PPI pixels of a row
 * flushes one set of atomics per run piece (or, `method: 'per-pixel'`, the naive pass with every atomic for
 * every pixel), then the compact kernel filters and writes the results (shaders/components/features.wgsl).
 */
import type { NodeScope, ProcessFrame } from '../../../src/core/gpuNode.js';
import { uniformLayout, wgslConstant } from '../../../src/core/uniforms.js';
import { InvalidFrameError } from '../../../src/core/errors.js';
import { PassRecorder, type Analysis } from '../../../src/core/PassRecorder.js';
import { binWords, featureResults, histogramConstants, histogramCounts, record } from './results.js';
import { filterParams, type FeaturesSettings } from './settings.js';

/** Pixels per invocation of the run-piece kernel (PPI in shaders/components/features.wgsl). */
const PPI = wgslConstant('components/features', 'PPI');
const bindings = ['uniform', 'read-only-storage', 'read-only-storage', 'read-only-storage', 'storage', 'read-only-storage', 'storage', 'storage'] as const;

export async function featuresFromLabels(node: NodeScope, s: FeaturesSettings, analysis: Analysis): Promise<ProcessFrame> {
  const { ctx } = node;
  const constants = histogramConstants(s.histogram);
  const k = await node.kernels({
    clear: { shader: 'components/features', entryPoint: 'clear', bindings, constants },
    accumulate: { shader: 'components/features', entryPoint: s.method === 'runs' ? 'accumulate' : 'accumulatePixels', bindings, constants },
    compact: { shader: 'components/features', entryPoint: 'compact', bindings, constants },
  });
  const layout = uniformLayout('components/features', 'Params');
  const sets = node.perFrame((size, alloc) => {
    const pixels = size.width * size.height;
    const most = Math.ceil(pixels / 2) + 1;
    // Records, and histograms (a spatial one is the larger), each one storage binding.
    const bytesCap = Math.floor(ctx.limits.maxStorageBufferBindingSize / (Math.max(record.REC, record.HIST_BINS * binWords(s.histogram)) * 4));
    // Record 0 is the background's, never used: labels 1..capacity-1 are measured.
    const capacity = Math.min(s.maxComponents !== undefined ? s.maxComponents + 1 : Math.min(most, (1 << 20) + 1), bytesCap);
    return {
      capacity,
      params: alloc.uniform('params', layout, { width: size.width, height: size.height, pixels, capacity, ...filterParams(s) }),
      records: alloc.buffer('records', capacity * record.REC * 4, GPUBufferUsage.STORAGE),
      hist: histogramCounts(alloc, capacity, s.histogram),
      results: featureResults(alloc, s.maxResults, s.histogram),
      // New records are cleared once; afterwards the compact kernel leaves them cleared.
      fresh: true,
    };
  });
  const name = `features:${s.method}`;

  return (f) => {
    if (!f.labeling!.canonical) throw new InvalidFrameError('features: needs canonical labels (label({ canonical: true })), or no label() at all');
    const set = sets.take(f);
    const group = set.bind('features', k.clear, [set.params, f.labels!, f.mask!, f.gray!, set.records, f.labeling!.info, set.results.buffer, set.hist]);
    const rec = PassRecorder.of(f, name, analysis);
    if (set.fresh) {
      set.fresh = false;
      // Records and histograms alike: as many invocations as the larger of the two needs.
      rec.items('clear', k.clear, group, set.capacity * Math.max(record.REC, record.HIST_BINS * binWords(s.histogram)));
    }
    const items = s.method === 'runs' ? Math.ceil(f.width / PPI) * f.height : f.width * f.height;
    for (let r = 0; r < analysis.repeat; r++) {
      rec.items('accumulate', k.accumulate, group, items);
      rec.items('compact', k.compact, group, set.capacity - 1);
    }
    rec.end();
    return set.results.read(f);
  };
}
