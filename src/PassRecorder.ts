/**
 * Records a node's dispatches into one timed compute pass (production), or, for analysis only, into one timed pass
 * per kernel (`split`), which adds pass boundaries and so changes scheduling a little. Pass names are
 * `<node>` or `<node>:<kernel>`.
 */
import type { ProfileScope } from './Profiler.js';

export class PassRecorder {
  #pass: GPUComputePassEncoder | null = null;

  constructor(
    private readonly encoder: GPUCommandEncoder,
    private readonly profile: ProfileScope | null,
    private readonly name: string,
    private readonly split = false,
  ) {}

  stage(kernel: string, record: (pass: GPUComputePassEncoder) => void): void {
    if (this.split) {
      const name = `${this.name}:${kernel}`;
      const pass = this.encoder.beginComputePass({ label: name, timestampWrites: this.profile?.pass(name) });
      record(pass);
      pass.end();
      return;
    }
    this.#pass ??= this.encoder.beginComputePass({ label: this.name, timestampWrites: this.profile?.pass(this.name) });
    record(this.#pass);
  }

  end(): void {
    this.#pass?.end();
    this.#pass = null;
  }
}
