/**
 * Marker candidates from the labels of the stacked threshold masks (markerThreshold.ts; shaders/markers/candidates.wgsl;
 * the labeling forest's roots, `label({ canonical: false })`): each component's boundary pixels counted and boxed,
 * components that could be a marker's border given a slot in the frame's candidate list (the largest first, where
 * there are more than it holds, so that the same frame gives the same candidates every run), and their boundary
 * pixels gathered for the quad fit, in the frame's coordinates. It takes the stack-sized frame and gives back one of the
 * frame's own size, carrying the list (owned by this node's frame set) and no mask or labels (they were the stack's).
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../../src/core/gpuNode.js';
import { makeFrame, type GpuFrame } from '../../src/core/GpuFrame.js';
import type { KernelSpec } from '../../src/core/PipelineCache.js';
import { uniformLayout, wgslConstant } from '../../src/core/uniforms.js';
import { PassRecorder } from '../../src/core/PassRecorder.js';
import { InvalidFrameError } from '../../src/core/errors.js';
import { maxBoundaryPerBox } from '../../src/markers/params.js';
import { compWords, maskRows } from './stack.js';

export interface CandidateSettings {
  /** Threshold windows stacked in the mask. */
  readonly windows: number;
  readonly maxCandidates: number;
  readonly pointCapacity: number;
  readonly minSide: number;
}

/** Pixels per invocation of boundaryStats (RUN in candidates.wgsl). */
const statsRun = wgslConstant('markers/candidates', 'RUN');
export const listHead = wgslConstant('markers/candidates', 'HEAD');
const candWords = wgslConstant('markers/candidates', 'CAND');
/** Words of the table of candidates by side, with the cutoff after it (candidates.wgsl). */
const sideWords = wgslConstant('markers/candidates', 'CUTOFF_AT') + 1;

const bindings = ['uniform', 'read-only-storage', 'storage', 'storage', 'storage', 'storage'] as const;
const kernel = (entryPoint: string): KernelSpec => ({ shader: 'markers/candidates', entryPoint, bindings });

export function markerCandidates(s: CandidateSettings): OperatorFunction<GpuFrame, GpuFrame> {
  return gpuNode('markers:candidates', async (node) => {
    const k = await node.kernels({
      stats: kernel('boundaryStats'),
      count: kernel('countCandidates'),
      cutoff: kernel('sizeCutoff'),
      select: kernel('selectCandidates'),
      gather: kernel('gatherPoints'),
    });
    const layout = uniformLayout('markers/candidates', 'Params');
    // The frame's size is the stack's (markerThreshold.ts): `size.height` rows of `windows` masks.
    const sets = node.perFrame((size, alloc) => {
      const pixels = size.width * size.height;
      const rows = maskRows(size.height, s.windows);
      const S = GPUBufferUsage.STORAGE;
      const values = { ...size, pixels, rows, maxCandidates: s.maxCandidates, pointCapacity: s.pointCapacity, minSide: s.minSide, maxBoundary: maxBoundaryPerBox };
      return {
        pixels,
        params: alloc.uniform('params', layout, values),
        // Indexed by root pixel; zeros when made, then kept so by selectCandidates (candidates.wgsl).
        comp: alloc.buffer('components', pixels * compWords * 4, S | GPUBufferUsage.COPY_DST, new Uint32Array(pixels * compWords)),
        list: alloc.buffer('list', (listHead + s.maxCandidates * candWords) * 4, S | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST),
        points: alloc.buffer('points', s.pointCapacity * 4, S),
        // Zeros when made, then kept so by sizeCutoff.
        sides: alloc.buffer('sides', sideWords * 4, S | GPUBufferUsage.COPY_DST, new Uint32Array(sideWords)),
      };
    });

    return (f) => {
      if (!f.gray || !f.labels || !f.labeling || f.labeling.canonical) throw new InvalidFrameError('markers: the frame needs gray pixels and the labeling forest (label({ canonical: false }))');
      const rows = maskRows(f.height, s.windows);
      if (!Number.isInteger(rows)) throw new InvalidFrameError(`markers: a stack of ${s.windows} masks cannot be ${f.height} rows high`);
      const set = sets.take(f);
      f.encoder.clearBuffer(set.list, 0, listHead * 4);
      const group = set.bind('candidates', k.stats, [set.params, f.labels, set.comp, set.list, set.points, set.sides]);
      const rec = PassRecorder.of(f, 'markers:candidates');
      rec.items('stats', k.stats, group, Math.ceil(set.pixels / statsRun));
      rec.items('count', k.count, group, set.pixels);
      rec.grid('cutoff', k.cutoff, group, 1);
      rec.items('select', k.select, group, set.pixels);
      rec.items('gather', k.gather, group, set.pixels);
      rec.end();
      const markerCandidates = { list: set.list, points: set.points };
      return makeFrame({ ...f, height: rows, mask: null, labels: null, labeling: null, markerCandidates });
    };
  });
}
