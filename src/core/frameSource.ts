/**
 * The loop shared by file-like sources: take items one at a time from an (async) iterable, wait for a free
 * in-flight place, turn the item into frame inputs, emit the frame, and complete once every frame is read back.
 */
import { Observable } from 'rxjs';
import type { GpuContext } from './GpuContext.js';
import { makeFrame, type GpuFrame } from './GpuFrame.js';
import { InFlight, type InFlightPlace } from './InFlight.js';
import { FrameLease } from './FrameLease.js';
import { InvalidOptionError } from './errors.js';
import { tagSource } from './streamInfo.js';
import type { ProfileScope } from './Profiler.js';

export interface FrameInputs {
  width: number;
  height: number;
  timeUs: number;
  rgba: GPUBuffer | null;
  gray: GPUBuffer | null;
  /** Passes to record first in the frame's encoder (e.g. packing a texture into `rgba`). */
  record?: (encoder: GPUCommandEncoder, profile: ProfileScope | null) => void;
  /** Runs when the frame is released (its last submission has completed), before its in-flight place is freed. */
  onRelease?: () => void;
}

/**
 * A new frame from its inputs, holding an in-flight place of its source: its own command encoder (with
 * `inputs.record` recorded first), its profiler scope, and the lease that gives back both, and every buffer set
 * the operators take for it, when the sink releases it. Every source builds its frames here.
 */
export function leasedFrame(ctx: GpuContext, place: InFlightPlace, seq: number, { record, onRelease, ...inputs }: FrameInputs): GpuFrame {
  const profile = ctx.profiler.beginFrame();
  const lease = new FrameLease(place.slot, () => place.release());
  if (onRelease) lease.hold(onRelease);
  if (profile) lease.hold(() => profile.release());
  const encoder = ctx.device.createCommandEncoder({ label: `frame:${seq}` });
  record?.(encoder, profile);
  return makeFrame({ seq, ...inputs, ctx, encoder, profile, lease });
}

export function validateInFlight(source: string, maxInFlight: number): void {
  if (!Number.isInteger(maxInFlight) || maxInFlight < 1 || maxInFlight > 8) {
    throw new InvalidOptionError(`${source}: maxInFlight must be an integer in 1..8, got ${maxInFlight}`);
  }
}

export function frameSource<T>(
  ctx: GpuContext,
  source: string,
  items: Iterable<T> | AsyncIterable<T>,
  maxInFlight: number,
  /** Prepares one item for in-flight slot `slot`; throws InvalidFrameError for a bad item. */
  prepare: (item: T, slot: number, seq: number) => FrameInputs,
  /** Releases what `prepare` took, when the subscription ends. */
  dispose: () => void = () => undefined,
  /** Gives back an item taken from `items` but never prepared (the subscription ended meanwhile). */
  discard: (item: T) => void = () => undefined,
  /**
   * Take the next item only once an in-flight place is free: a live source's newest frame. Otherwise one item is
   * taken ahead while the GPU is busy: a file's next frame, decoded meanwhile.
   */
  placeFirst = false,
): Observable<GpuFrame> {
  validateInFlight(source, maxInFlight);
  return tagSource(
    new Observable<GpuFrame>((subscriber) => {
      const inFlight = new InFlight(maxInFlight);
      let closed = false;
      let disposed = false;
      const release = () => {
        if (disposed) return;
        disposed = true;
        dispose();
      };
      (async () => {
        let seq = 0;
        for await (const [item, place] of placeFirst ? placeThenItem(items, inFlight) : itemThenPlace(items, inFlight)) {
          if (closed || !place) {
            place?.release();
            discard(item);
            return;
          }
          let frame: GpuFrame;
          try {
            ctx.checkAlive(`${source}: a frame was read`);
            frame = leasedFrame(ctx, place, seq, prepare(item, place.slot, seq));
          } catch (e) {
            place.release();
            throw e;
          }
          seq++;
          subscriber.next(frame);
        }
        // Complete only once every frame is read back, and give the per-slot resources back first: a sink's
        // `complete` then sees nothing of the stream held (`ctx.pool.stats()` as a leak check).
        await inFlight.idle();
        if (closed) return;
        release();
        subscriber.complete();
      })().catch(async (e) => {
        // The frames already emitted still complete (a truncated video keeps what was decoded); then the error.
        await inFlight.idle();
        if (!closed) subscriber.error(e);
      });
      return () => {
        closed = true;
        inFlight.close();
        release();
      };
    }),
    ctx,
  );
}

type Placed<T> = [T, InFlightPlace | null];

async function* itemThenPlace<T>(items: Iterable<T> | AsyncIterable<T>, inFlight: InFlight): AsyncGenerator<Placed<T>> {
  for await (const item of items as AsyncIterable<T>) yield [item, await inFlight.acquire()];
}

async function* placeThenItem<T>(items: Iterable<T> | AsyncIterable<T>, inFlight: InFlight): AsyncGenerator<Placed<T>> {
  const it = Symbol.asyncIterator in items ? (items as AsyncIterable<T>)[Symbol.asyncIterator]() : (items as Iterable<T>)[Symbol.iterator]();
  try {
    for (;;) {
      const place = await inFlight.acquire();
      if (!place) return;
      let next: IteratorResult<T>;
      try {
        next = await it.next();
      } catch (e) {
        place.release();
        throw e;
      }
      if (next.done) {
        place.release();
        return;
      }
      yield [next.value, place];
    }
  } finally {
    await it.return?.();
  }
}
