/**
 * Records an operator's dispatches for one frame into one timed compute pass (production), or, for analysis, into
 * one timed pass per stage (`split`), which adds pass boundaries and so changes scheduling a little. Pass names
 * are `<operator>` or `<operator>:<stage>`. Every operator dispatches through a recorder.
 */
import type { GpuFrame } from './GpuFrame.js';
import type { Kernel } from './PipelineCache.js';
import type { ProfileScope } from './Profiler.js';
import { dispatch, dispatchItems } from './kernels.js';

/**
 * What benchmarks ask of an operator, never set in production (operators take it through their internal
 * factories, not their public options): `split` times every stage in a pass of its own; `repeat` records the
 * operator's kernels several times per frame, back to back in the same passes, so GPU time divided by it is
 * steady-state kernel time (as CUDA event loops measure). Results are unchanged.
 */
export interface Analysis {
  readonly split: boolean;
  readonly repeat: number;
  /**
   * Tests: Shibata's first `until-converged` batch (default 8), so that small images need several batches and the
   * resume path runs where no test-sized image needs more than 8 passes.
   */
  readonly firstBatch?: number;
}

export const production: Analysis = { split: false, repeat: 1 };

export class PassRecorder {
  readonly #encoder: GPUCommandEncoder;
  readonly #profile: ProfileScope | null;
  readonly #name: string;
  readonly #maxPerDim: number;
  readonly #split: boolean;
  #pass: GPUComputePassEncoder | null = null;

  constructor(encoder: GPUCommandEncoder, profile: ProfileScope | null, name: string, maxPerDim: number, split = false) {
    this.#encoder = encoder;
    this.#profile = profile;
    this.#name = name;
    this.#maxPerDim = maxPerDim;
    this.#split = split;
  }

  /** The device's workgroups per dispatch dimension, for stages that dispatch 1-D work themselves. */
  get maxPerDim(): number {
    return this.#maxPerDim;
  }

  /** A recorder into the frame's own encoder. */
  static of(frame: GpuFrame, name: string, analysis: Analysis = production): PassRecorder {
    return new PassRecorder(frame.encoder, frame.profile, name, frame.ctx.limits.maxComputeWorkgroupsPerDimension, analysis.split);
  }

  /** Records a stage: any dispatches into the current pass (or, split, into a timed pass of its own). */
  stage(stage: string, record: (pass: GPUComputePassEncoder) => void): void {
    if (this.#split) {
      const name = `${this.#name}:${stage}`;
      const pass = this.#encoder.beginComputePass({ label: name, timestampWrites: this.#profile?.pass(name) });
      record(pass);
      pass.end();
      return;
    }
    this.#pass ??= this.#encoder.beginComputePass({ label: this.#name, timestampWrites: this.#profile?.pass(this.#name) });
    record(this.#pass);
  }

  /** A stage of one dispatch of `x × y × z` workgroups. */
  grid(stage: string, kernel: Kernel, group: GPUBindGroup, x: number, y = 1, z = 1): void {
    this.stage(stage, (pass) => dispatch(pass, kernel, group, x, y, z));
  }

  /** A stage of one 1-D dispatch, one invocation per item. */
  items(stage: string, kernel: Kernel, group: GPUBindGroup, items: number): void {
    this.stage(stage, (pass) => dispatchItems(pass, kernel, group, items, this.#maxPerDim));
  }

  /** Ends the open pass; the next stage opens a new one. */
  end(): void {
    this.#pass?.end();
    this.#pass = null;
  }
}
