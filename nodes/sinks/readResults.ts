/**
 * The sink: submits each frame's command encoder once and reads back only the compact results the nodes asked for
 * (plus the frame's pass timings), through a ring of staging buffers. The stream never waits on a readback: the
 * next frame is recorded and submitted while earlier ones map; results are emitted in frame order. Once a frame's
 * results are mapped, its last submission has completed: the sink releases the frame's lease, which gives back
 * everything the frame held (FrameLease.ts).
 *
 * @example
 * fromPixels(ctx, images).pipe(threshold({ method: 'otsu' }), label(), readResults())
 *   .subscribe((r) => console.log(r.seq, r.labeling?.count));
 */
import { Observable, type OperatorFunction } from 'rxjs';
import { expectGpuFrame, type GpuFrame } from '../../src/core/GpuFrame.js';
import type { FrameResult, ResultValues } from '../../src/core/results.js';
import type { GpuContext } from '../../src/core/GpuContext.js';
import { GpuDeviceLostError, InvalidOptionError } from '../../src/core/errors.js';
import { mapBuffer } from '../../src/core/mapBuffer.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';

export interface ReadResultsOptions {
  /**
   * Frames whose command buffers are submitted together (default 1). Larger values let the GPU run several frames
   * back to back, for throughput on files; they add latency, so keep 1 for live sources. A batch is also submitted
   * when no further frame arrives in the same turn of the event loop, so it never waits on the source.
   */
  framesPerSubmit?: number;
}

export function readResults(options: ReadResultsOptions = {}): OperatorFunction<GpuFrame, FrameResult> {
  checkOptions('readResults', options, optionKeys<ReadResultsOptions>({ framesPerSubmit: true }));
  const framesPerSubmit = options.framesPerSubmit ?? 1;
  if (!Number.isInteger(framesPerSubmit) || framesPerSubmit < 1 || framesPerSubmit > 64) {
    throw new InvalidOptionError(`readResults: framesPerSubmit must be an integer 1..64, got ${framesPerSubmit}`);
  }
  return (source) =>
    new Observable<FrameResult>((subscriber) => {
      let closed = false;
      let ctx: GpuContext | null = null;
      let stopListening: (() => void) | null = null;
      const free: GPUBuffer[] = [];
      const all = new Set<GPUBuffer>();
      let chain: Promise<void> = Promise.resolve();
      let pending = 0;
      let upstreamDone = false;

      const fail = (e: unknown) => {
        if (!closed) subscriber.error(e);
      };
      // Gives the staging buffers back (those still mapping are destroyed by the pool, once the mapping has settled,
      // rather than reused). Idempotent.
      const releaseStaging = () => {
        // Held command buffers use these staging buffers: submit them before the buffers go back.
        ctx?.flush();
        for (const b of all) ctx?.pool.release(b);
        all.clear();
        free.length = 0;
      };
      const maybeComplete = () => {
        if (closed || !upstreamDone || pending !== 0) return;
        // Released before `complete`, so that a leak check there (`ctx.pool.stats().inUse`) sees nothing held.
        stopListening?.();
        releaseStaging();
        subscriber.complete();
      };

      const staging = (size: number): GPUBuffer => {
        const i = free.findIndex((b) => b.size >= size);
        if (i >= 0) return free.splice(i, 1)[0];
        const b = ctx!.pool.acquire('readResults:staging', size, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
        all.add(b);
        return b;
      };

      const handle = (frame: GpuFrame) => {
        if (!ctx) {
          ctx = frame.ctx;
          stopListening = ctx.onError(fail);
        }
        const { encoder } = frame;
        const timing = frame.profile?.resolve(encoder) ?? null;
        // Lay every read out in one staging buffer, 8-byte aligned.
        const layout: { key: string; at: number; size: number; inPlace: boolean; decode(b: ArrayBuffer): unknown }[] = [];
        let size = 0;
        for (const r of frame.reads) {
          layout.push({ key: r.key, at: size, size: r.size, inPlace: !!r.inPlace, decode: r.decode });
          size += Math.ceil(r.size / 8) * 8;
        }
        const timingAt = size;
        if (timing) size += timing.size;
        let buffer: GPUBuffer | null = null;
        if (size > 0) {
          buffer = staging(size);
          for (const [i, r] of frame.reads.entries()) {
            if (r.size > 0) encoder.copyBufferToBuffer(r.buffer, r.offset, buffer, layout[i].at, r.size);
          }
          if (timing) encoder.copyBufferToBuffer(timing.buffer, timing.offset, buffer, timingAt, timing.size);
        }
        const fctx = frame.ctx;
        const map = () => (buffer ? mapBuffer(buffer, GPUMapMode.READ, 0, size) : fctx.device.queue.onSubmittedWorkDone());
        let mapped: Promise<void>;
        if (framesPerSubmit === 1) {
          fctx.submit([encoder.finish()]);
          mapped = map();
        } else {
          // Mapping must wait for the submission that writes the staging buffer.
          mapped = new Promise<void>((resolve, reject) => {
            const held = fctx.hold(encoder.finish(), () => map().then(resolve, reject));
            if (held >= framesPerSubmit) fctx.flush();
            else if (held === 1) setTimeout(() => fctx.flush(), 0);
          });
        }
        pending++;
        chain = chain.then(async () => {
          try {
            await mapped;
          } catch (cause) {
            frame.lease.release();
            if (buffer) all.has(buffer) && free.push(buffer);
            ctx?.checkAlive('readResults: a frame was being read back');
            throw ctx?.lostError ?? new GpuDeviceLostError(`readback failed: ${(cause as Error)?.message ?? cause}`);
          }
          if (closed) {
            frame.lease.release();
            return;
          }
          const values: ResultValues & Record<string, unknown> = {};
          let timings: FrameResult['timings'] = [];
          // One mapped range per read (they do not overlap): copied for decoders that keep their bytes, read in
          // place by those that copy what they keep (no per-frame copy of large results, less for the collector).
          const range = (at: number, n: number) => (buffer && n > 0 ? buffer.getMappedRange(at, Math.ceil(n / 4) * 4) : new ArrayBuffer(0));
          try {
            for (const l of layout) {
              const bytes = range(l.at, l.size);
              values[l.key] = l.decode(l.inPlace ? bytes : bytes.slice(0, l.size));
            }
            if (timing && frame.profile) timings = frame.profile.decode(range(timingAt, timing.size));
          } finally {
            // A decoder that throws ends the stream; the staging buffer is still unmapped and reusable.
            if (buffer) {
              buffer.unmap();
              free.push(buffer);
            }
            frame.lease.release();
          }
          pending--;
          subscriber.next({ seq: frame.seq, timeUs: frame.timeUs, width: frame.width, height: frame.height, ...values, timings });
          maybeComplete();
        }).catch(fail);
      };

      const upstream = source.subscribe({
        next(frame) {
          try {
            expectGpuFrame(frame, 'readResults');
          } catch (e) {
            return fail(e);
          }
          try {
            handle(frame);
          } catch (e) {
            frame.lease.release();
            fail(e);
          }
        },
        error: fail,
        complete() {
          upstreamDone = true;
          ctx?.flush();
          maybeComplete();
        },
      });

      return () => {
        if (closed) return;
        closed = true;
        upstream.unsubscribe();
        stopListening?.();
        releaseStaging();
      };
    });
}
