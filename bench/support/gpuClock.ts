/**
 * The GPU's SM clock while a benchmark runs, read from `nvidia-smi` where there is one (read only: no setting is
 * changed). NVIDIA's data-centre drivers set the clock by load: on the H100, 345 MHz idle, 1980 MHz for the first
 * seconds of work, then 720–1335 MHz at the 10–40 % utilisation of one frame at a time. A GPU time means little without the
 * clock it ran at, so the benchmarks print it beside their figures. Without nvidia-smi (lavapipe, other GPUs) the
 * figures read "—".
 */
import { spawn, type ChildProcess } from 'node:child_process';

export class GpuClock {
  readonly #samples: { at: number; mhz: number }[] = [];
  readonly #child: ChildProcess | null;
  #ended = false;

  private constructor(child: ChildProcess | null) {
    this.#child = child;
    // No nvidia-smi (spawn error), or it stopped: nothing more will come.
    child?.on('error', () => (this.#ended = true)).on('exit', () => (this.#ended = true));
    let rest = '';
    child?.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        // "2026/11/24 00:06:49.568, 1980": the sampling time, not the arrival (the pipe may hold lines back).
        const [stamp, mhz] = line.split(',').map((s) => s.trim());
        const at = Date.parse(stamp.replace(/\//g, '-').replace(' ', 'T')) - performance.timeOrigin;
        if (Number.isFinite(at) && Number.isFinite(Number(mhz))) this.#samples.push({ at, mhz: Number(mhz) });
      }
    });
  }

  /** Starts sampling every `intervalMs` (nvidia-smi's own loop); a sampler that reads nothing when there is none. */
  static start(intervalMs = 50): GpuClock {
    try {
      const child = spawn('nvidia-smi', ['--query-gpu=timestamp,clocks.sm', '--format=csv,noheader,nounits', `-lms`, String(intervalMs)], { stdio: ['ignore', 'pipe', 'ignore'] });
      child.unref();
      return new GpuClock(child);
    } catch {
      return new GpuClock(null);
    }
  }

  /** Median SM clock (MHz) sampled between two `performance.now()` times, or NaN without samples there. */
  during(from: number, to: number): number {
    const xs = this.#samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.mhz).sort((a, b) => a - b);
    return xs.length ? xs[xs.length >> 1] : NaN;
  }

  /** The clock as a table cell: "1980" or "—". */
  cell(from: number, to: number): string {
    const mhz = this.during(from, to);
    return Number.isFinite(mhz) ? mhz.toFixed(0) : '—';
  }

  /** Waits until a sample taken at or after `to` has arrived (the pipe is read asynchronously), at most `waitMs`. */
  async settle(to: number, waitMs = 300): Promise<void> {
    if (!this.#child || this.#ended) return;
    const end = performance.now() + waitMs;
    while (performance.now() < end && (this.#samples.at(-1)?.at ?? -Infinity) < to) await new Promise((r) => setTimeout(r, 20));
  }

  stop(): void {
    this.#ended = true;
    this.#child?.kill();
  }
}
