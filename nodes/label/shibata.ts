/**
 * Shibata & Yamamoto's fixed-pass labeling (JIP 22(1), 2014) as a labeling algorithm: a preparation kernel, then
 * propagation passes recorded back to back with no host round trip. The last workgroup of each pass marks the
 * labeling converged once a pass changed nothing, and the passes left return at once, so converged frames stop
 * early on the GPU and `info` says whether the last pass changed anything. `passes: 'until-converged'`
 * records a batch, checks once, and goes on with doubling batches only while needed (one host round trip per
 * batch, not per pass).
 *
 * Every dispatch is direct, over the labeling bind group. (Passes used to be indirect dispatches that the control
 * kernel shrank to nothing: Dawn validates each indirect dispatch with a dispatch of its own, and that made
 * Shibata the slowest algorithm per frame by far; BENCHMARKS.md.)
 */
import { dispatch } from '../../src/kernels.js';
import { wgslConstant } from '../../src/uniforms.js';
import type { Kernel, KernelSpec } from '../../src/PipelineCache.js';
import type { PassRecorder } from '../../src/PassRecorder.js';
import { labelingBindings as bindings, type LabelingAlgorithm, type LabelRun, type LabelSettings } from './LabelingAlgorithm.js';

/** Where `until-converged` checks read `info` (Shibata's only buffer of its own). */
type ShibataBuffers = GPUBuffer | null;

/**
 * Workgroups of a propagation pass: each strides over the frame's tiles. 1024 workgroups of 256 fill a large GPU
 * once (an H100 holds about 1056) and make a pass after convergence, which returns at once, cheap. (The pass's
 * control counts workgroups in 16 bits: at most 65535.)
 */
const passGroups = 1024;
/** A pass's tile (shaders/label/shibata.wgsl), one invocation per pixel. */
const TILE_W = wgslConstant('label/shibata', 'TW');
const TILE_H = wgslConstant('label/shibata', 'TH');

export const shibata: LabelingAlgorithm<ShibataBuffers> = {
  kernels: (s: LabelSettings) => {
    const constants = { CONN8: s.connectivity === 8 ? 1 : 0 };
    const kernel = (entryPoint: string): KernelSpec => ({ shader: 'label/shibata', entryPoint, bindings, constants });
    return { reset: kernel('reset'), prepare: kernel('prepare'), propagate: kernel('propagate') };
  },
  buffers: (alloc, _size, s) => (s.passes === 'until-converged' ? alloc.buffer('check', 32, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST) : null),
  recorder: (k: Readonly<Record<string, Kernel>>, s: LabelSettings) => {
    let lastPasses = 0;
    /** `count` propagation passes (each counts itself and checks convergence in its last workgroup). */
    const propagate = (rec: PassRecorder, run: LabelRun<ShibataBuffers>, count: number) =>
      rec.stage('propagate', (pass) => {
        const tiles = Math.ceil(run.width / TILE_W) * Math.ceil(run.height / TILE_H);
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
      run.rec.grid('reset', k.reset, run.group, 1);
      run.rec.items('prepare', k.prepare, run.group, run.pixels);
      propagate(run.rec, run, batch);
      return s.passes === 'until-converged' ? converge(run, batch) : undefined;
    };
  },
};
