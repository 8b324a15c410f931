/**
 * Fixed-pass labeling in the manner of Shibata & Yamamoto (JIP 22(1), 2014) as a labeling algorithm: a fixed
 * number of propagation passes recorded back to back with no host round trip, and a flag when they were not
 * enough. The preparation labels every 32×32 tile in workgroup memory (C2FL's first stage); each pass joins the
 * tiles' parts across their borders with bounded work (shaders/components/label/shibata.wgsl). The last workgroup of each
 * pass marks the labeling converged once a pass changed nothing, and the passes left return at once, so converged
 * frames stop early on the GPU and `info` says whether the last pass changed anything. `passes:
 * 'until-converged'` records a batch, checks once, and goes on with doubling batches only while needed (one host
 * round trip per batch, not per pass).
 *
 * Every dispatch is direct, over the labeling bind group: Dawn validates each indirect dispatch with a dispatch of its
 * own, which would cost more than the passes.
 */
import { dispatch } from '../../../src/core/kernels.js';
import { wgslConstant } from '../../../src/core/uniforms.js';
import type { Kernel, KernelSpec } from '../../../src/core/PipelineCache.js';
import type { PassRecorder } from '../../../src/core/PassRecorder.js';
import { labelingBindings as bindings, type LabelingAlgorithm, type LabelRun, type LabelSettings } from './LabelingAlgorithm.js';

/** Where `until-converged` checks read `info` (Shibata's only buffer of its own). */
type ShibataBuffers = GPUBuffer | null;

/**
 * Workgroups of a propagation pass: each strides over the frame's tiles, one at a time. A grid bounded this way
 * makes a pass after convergence, which returns at once, cheap. (The pass's control counts workgroups in 16 bits:
 * at most 65535.)
 */
const passGroups = 1024;
/** The tiles' side (shaders/common/c2flTile.wgsl): the preparation labels each, the passes join them. */
const TILE = wgslConstant('components/label/shibata', 'TS');

export const shibata: LabelingAlgorithm<ShibataBuffers> = {
  kernels: (s: LabelSettings) => {
    const constants = { CONN8: s.connectivity === 8 ? 1 : 0 };
    const kernel = (entryPoint: string): KernelSpec => ({ shader: 'components/label/shibata', entryPoint, bindings, constants });
    return { prepare: kernel('prepare'), prepareQuad: kernel('prepareQuad'), propagate: kernel('propagate') };
  },
  buffers: (alloc, _size, s) => (s.passes === 'until-converged' ? alloc.buffer('check', 32, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST) : null),
  recorder: (k: Readonly<Record<string, Kernel>>, s: LabelSettings) => {
    let lastPasses = 0;
    /** `count` propagation passes (each counts itself and checks convergence in its last workgroup). */
    const propagate = (rec: PassRecorder, run: LabelRun<ShibataBuffers>, count: number) =>
      rec.stage('propagate', (pass) => {
        const tiles = Math.ceil(run.width / TILE) * Math.ceil(run.height / TILE);
        for (let i = 0; i < count; i++) dispatch(pass, k.propagate, run.group, Math.min(tiles, passGroups));
      });
    const converge = async (run: LabelRun<ShibataBuffers>, batch: number): Promise<void> => {
      for (;;) {
        const checked = await run.checkpoint(run.own!);
        if (!checked) return;
        if (checked.info.converged) {
          lastPasses = checked.info.passes;
          return;
        }
        batch *= 2;
        propagate(checked.rec, run, batch);
      }
    };
    return (run) => {
      // A frame starts at the passes the last one needed, plus two, and at least the first batch.
      const batch = s.passes === 'until-converged' ? Math.max(s.firstBatch, lastPasses + 2) : s.passes;
      run.rec.grid('prepare', run.width % 4 === 0 ? k.prepareQuad : k.prepare, run.group, Math.ceil(run.width / TILE), Math.ceil(run.height / TILE));
      propagate(run.rec, run, batch);
      return s.passes === 'until-converged' ? converge(run, batch) : undefined;
    };
  },
};
