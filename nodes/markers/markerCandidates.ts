/**
 * Marker candidates from one threshold window's labels (shaders/markers/candidates.wgsl; the labeling forest's
 * roots, `label({ canonical: false })`): each component's boundary pixels counted and boxed, components that could
 * be a marker's border given a slot in the frame's candidate list, and their boundary pixels gathered for the quad
 * fit. The first window's node owns the
 * list (in its frame set) and clears its header; the nodes of later windows append to the list the frame carries.
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../../src/gpuNode.js';
import { withFrame, type GpuFrame, type MarkerCandidateList } from '../../src/GpuFrame.js';
import type { KernelSpec } from '../../src/PipelineCache.js';
import { uniformLayout, wgslConstant } from '../../src/uniforms.js';
import { PassRecorder } from '../../src/PassRecorder.js';
import { InvalidFrameError } from '../../src/errors.js';
import { maxBoundaryPerBox } from '../../src/reference/detectMarkersCpu.js';

export interface CandidateSettings {
  /** Index of the threshold window (kept with each candidate; the first window owns the list). */
  readonly window: number;
  readonly maxCandidates: number;
  readonly pointCapacity: number;
  readonly minSide: number;
  /** Boxes this close to an earlier window's candidate are not candidates again (-1: off). */
  readonly sameBox: number;
}

const compWords = wgslConstant('markers/candidates', 'COMP');
/** Pixels per invocation of boundaryStats (RUN in candidates.wgsl). */
const statsRun = wgslConstant('markers/candidates', 'RUN');
export const listHead = wgslConstant('markers/candidates', 'HEAD');
const candWords = wgslConstant('markers/candidates', 'CAND');

const bindings = ['uniform', 'read-only-storage', 'storage', 'storage', 'storage'] as const;
const kernel = (entryPoint: string): KernelSpec => ({ shader: 'markers/candidates', entryPoint, bindings });

export function markerCandidates(s: CandidateSettings): OperatorFunction<GpuFrame, GpuFrame> {
  return gpuNode('markers:candidates', async (node) => {
    const k = await node.kernels({ stats: kernel('boundaryStats'), select: kernel('selectCandidates'), gather: kernel('gatherPoints') });
    const layout = uniformLayout('markers/candidates', 'Params');
    const maxBinding = node.ctx.limits.maxStorageBufferBindingSize;
    const sets = node.perFrame((size, alloc) => {
      const pixels = size.width * size.height;
      const S = GPUBufferUsage.STORAGE;
      const list: MarkerCandidateList | null =
        s.window === 0
          ? {
              list: alloc.buffer('list', (listHead + s.maxCandidates * candWords) * 4, S | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST),
              points: alloc.buffer('points', s.pointCapacity * 4, S),
            }
          : null;
      const values = { ...size, pixels, maxCandidates: s.maxCandidates, pointCapacity: s.pointCapacity, window: s.window, minSide: s.minSide, maxBoundary: maxBoundaryPerBox, sameBox: s.sameBox };
      return {
        pixels,
        params: alloc.uniform('params', layout, values),
        // Indexed by root pixel; zeros when made, then kept so by selectCandidates (candidates.wgsl).
        comp: alloc.buffer('components', pixels * compWords * 4, S | GPUBufferUsage.COPY_DST, new Uint32Array(pixels * compWords)),
        list,
      };
    });

    return (f) => {
      if (!f.gray || !f.labels || !f.labeling || f.labeling.canonical) throw new InvalidFrameError('markers: the frame needs gray pixels and the labeling forest (label({ canonical: false }))');
      if (f.width * f.height * compWords * 4 > maxBinding) {
        throw new InvalidFrameError(`markers: a ${f.width}×${f.height} frame needs a component table over this device's storage binding limit (${maxBinding} bytes)`);
      }
      // The quad fit's areas are exact in i32 up to this size (fit.wgsl).
      if (f.width > 16384 || f.height > 16384) throw new InvalidFrameError(`markers: frames up to 16384 pixels a side, got ${f.width}×${f.height}`);
      const set = sets.take(f);
      const cand = set.list ?? f.markerCandidates;
      if (!cand) throw new InvalidFrameError('markers: no candidate list from the first threshold window');
      if (set.list) f.encoder.clearBuffer(cand.list, 0, listHead * 4);
      const group = set.bind('candidates', k.stats, [set.params, f.labels, set.comp, cand.list, cand.points]);
      const rec = PassRecorder.of(f, 'markers:candidates');
      rec.items('stats', k.stats, group, Math.ceil(set.pixels / statsRun));
      rec.items('select', k.select, group, set.pixels);
      rec.items('gather', k.gather, group, set.pixels);
      rec.end();
      return withFrame(f, { markerCandidates: cand });
    };
  });
}
