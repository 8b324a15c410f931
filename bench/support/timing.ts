// Shared by the benchmarks: a gray image in a GPU buffer, timing one compute pass with timestamp queries, frames one
// at a time, the garbage collections seen, and running a program's main.
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { lastValueFrom, tap, toArray, type Observable } from 'rxjs';
import { readResults, type FrameResult, type GpuContext, type GpuFrame } from '../../index.js';

/** A storage buffer holding an 8-bit gray image (four pixels a word, padded), for frames read in place (fromGpuBuffers). */
export function grayBuffer(ctx: GpuContext, data: Uint8Array, label: string): GPUBuffer {
  const bytes = Math.ceil(data.length / 4) * 4;
  const buffer = ctx.device.createBuffer({ label, size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const padded = new Uint8Array(bytes);
  padded.set(data);
  ctx.device.queue.writeBuffer(buffer, 0, padded);
  return buffer;
}

/** Median GPU time in microseconds of one pass recorded by `record`, over `reps` submissions after `warmup`. */
export async function timePass(device: GPUDevice, label: string, record: (pass: GPUComputePassEncoder) => void, reps: number, warmup = 5): Promise<number> {
  const qs = device.createQuerySet({ label: `${label}:queries`, type: 'timestamp', count: 2 });
  const resolve = device.createBuffer({ label: `${label}:resolve`, size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ label: `${label}:read`, size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const samples: number[] = [];
  for (let r = 0; r < reps + warmup; r++) {
    const enc = device.createCommandEncoder({ label });
    const pass = enc.beginComputePass({ label, timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } });
    record(pass);
    pass.end();
    enc.resolveQuerySet(qs, 0, 2, resolve, 0);
    enc.copyBufferToBuffer(resolve, 0, read, 0, 16);
    device.queue.submit([enc.finish()]);
    await read.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(read.getMappedRange().slice(0));
    read.unmap();
    if (r >= warmup) samples.push(Number(t[1] - t[0]) / 1000);
  }
  qs.destroy();
  resolve.destroy();
  read.destroy();
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1];
}

/**
 * Starts recording garbage collections: each as [start, end, kind] in performance.now() time (perf_hooks' kinds: 1
 * scavenge, 4 mark-compact, 8 incremental marking), to tell host pauses apart; and whether one overlapped [a, b].
 */
export function watchGcs(): { gcs: [number, number, number][]; duringGc: (a: number, b: number) => boolean } {
  const gcs: [number, number, number][] = [];
  new PerformanceObserver((list) =>
    list.getEntries().forEach((e: PerformanceEntry) => gcs.push([e.startTime, e.startTime + e.duration, (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0])),
  ).observe({ entryTypes: ['gc'] });
  return { gcs, duringGc: (a, b) => gcs.some(([s, e]) => s < b && e > a) };
}

/** The `q` quantile of `xs` (the sample at floor(q·n), clamped; NaN when there is none). */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

/** A result's GPU time in ms: every pass, or those of one node or stage (`name`, and `name:…` below it). */
export function gpuMs(r: FrameResult, name?: string): number {
  let ms = 0;
  for (const t of r.timings) if (name === undefined || t.name === name || t.name.startsWith(`${name}:`)) ms += t.ms;
  return ms;
}

/** Runs a benchmark's main and exits with its code: a live Dawn instance would keep Node running. */
export function runMain(main: () => Promise<number | void>): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}

/**
 * A camera's case: frames (from a source with `maxInFlight: 1`) each submitted alone and read back before the next;
 * the results after `warmup` frames and the wall time between consecutive results.
 */
export async function oneAtATime(frames: Observable<GpuFrame>, warmup: number): Promise<{ results: FrameResult[]; wall: number[] }> {
  const results: FrameResult[] = [];
  const wall: number[] = [];
  let last = 0;
  await lastValueFrom(
    frames.pipe(
      readResults({ framesPerSubmit: 1 }),
      tap((r) => {
        const now = performance.now();
        if (r.seq >= warmup) {
          wall.push(now - last);
          results.push(r);
        }
        last = now;
      }),
      toArray(),
    ),
  );
  return { results, wall };
}
