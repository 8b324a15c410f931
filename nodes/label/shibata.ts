/**
 * Shibata & Yamamoto's fixed-pass labeling (JIP 22(1), 2014) as a labeling algorithm: a preparation kernel, then
 * propagation passes recorded back to back with no host round trip. Each pass is an indirect dispatch whose size a
 * one-invocation control kernel sets to zero once a pass changed nothing, so converged frames stop early on the
 * GPU and `info` says whether the last pass changed anything. `passes: 'until-converged'` records a batch, checks
 * once, and goes on with doubling batches only while needed (one host round trip per batch, not per pass).
 */
import { dispatch } from '../../src/kernels.js';
import type { Kernel, KernelSpec } from '../../src/PipelineCache.js';
import type { PassRecorder } from '../../src/PassRecorder.js';
import { labelingBindings, type LabelingAlgorithm, type LabelRun, type LabelSettings } from './LabelingAlgorithm.js';

/** Shibata's own buffers in a frame's set: the indirect arguments of `propagate`, and where checks read `info`. */
interface ShibataBuffers {
  args: GPUBuffer;
  readback: GPUBuffer | null;
}

/** params, info and the indirect arguments (shibata.wgsl's control group). */
const controlBindings = ['uniform', 'storage', 'storage'] as const;

export const shibata: LabelingAlgorithm<ShibataBuffers> = {
  kernels: (s: LabelSettings) => {
    const constants = { CONN8: s.connectivity === 8 ? 1 : 0 };
    const kernel = (entryPoint: string, bindings: KernelSpec['bindings']): KernelSpec => ({ shader: 'label/shibata', entryPoint, bindings, constants });
    return {
      reset: kernel('reset', controlBindings),
      prepare: kernel('prepare', labelingBindings),
      propagate: kernel('propagate', labelingBindings),
      control: kernel('control', controlBindings),
      resume: kernel('resume', controlBindings),
    };
  },
  buffers: (alloc, _size, s) => ({
    args: alloc.buffer('args', 16, GPUBufferUsage.STORAGE | GPUBufferUsage.INDIRECT),
    readback: s.passes === 'until-converged' ? alloc.buffer('check', 32, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST) : null,
  }),
  recorder: (k: Readonly<Record<string, Kernel>>, s: LabelSettings) => {
    let lastPasses = 0;
    /**
     * `count` propagation passes, each followed by the control kernel that stops the next once nothing changed
     * (after `resume`, when going on after a check).
     */
    const propagate = (rec: PassRecorder, run: LabelRun<ShibataBuffers>, control: GPUBindGroup, count: number, resume = false) =>
      rec.stage('propagate', (pass) => {
        if (resume) dispatch(pass, k.resume, control, 1);
        for (let i = 0; i < count; i++) {
          pass.setPipeline(k.propagate.pipeline);
          pass.setBindGroup(0, run.group);
          pass.dispatchWorkgroupsIndirect(run.own.args, 0);
          dispatch(pass, k.control, control, 1);
        }
      });
    const converge = async (run: LabelRun<ShibataBuffers>, control: GPUBindGroup, batch: number): Promise<void> => {
      for (;;) {
        const checked = await run.checkpoint(run.own.readback!);
        if (!checked) return;
        if (checked.info.converged) {
          lastPasses = checked.info.passes;
          return;
        }
        batch *= 2;
        propagate(checked.rec, run, control, batch, true);
      }
    };
    return (run) => {
      const control = run.bind('control', k.reset, [run.params, run.info, run.own.args]);
      // A frame starts at the passes the last one needed, plus two, and at least the first batch.
      const batch = s.passes === 'until-converged' ? Math.max(s.firstBatch, lastPasses + 2) : s.passes;
      // reset (indirect arguments, info) and prepare, then the passes.
      run.rec.grid('reset', k.reset, control, 1);
      run.rec.items('prepare', k.prepare, run.group, run.pixels);
      propagate(run.rec, run, control, batch);
      return s.passes === 'until-converged' ? converge(run, control, batch) : undefined;
    };
  },
};
