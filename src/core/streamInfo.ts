/**
 * What a stream of frames carries, told before any frame arrives. Sources tag the streams they return with their
 * GpuContext, and each GPU operator passes the tag on with what it adds (`label()` adds labels), so an operator
 * knows its device and its input when it is subscribed and compiles its pipelines then, before the first frame.
 * A stream without the tag (built by hand, or through a plain RxJS operator such as `map`) still works: the
 * operator then learns both from its first frame.
 */
import type { Observable } from 'rxjs';
import type { GpuContext } from './GpuContext.js';
import type { GpuFrame } from './GpuFrame.js';

/** What the frames of a stream carry, as far as an operator must know before it compiles its kernels. */
export interface FrameShape {
  /** Frames carry a label image (`labels` and `labeling`). */
  readonly labels: boolean;
}

export interface StreamInfo {
  readonly ctx: GpuContext;
  readonly shape: FrameShape;
}

/** The shape of frames straight from a source. */
const sourceShape: FrameShape = { labels: false };

/** The shape a frame has. */
export function shapeOf(frame: GpuFrame): FrameShape {
  return { labels: frame.labels !== null && frame.labeling !== null };
}

const key = Symbol.for('flowmark.stream');

export function tagStream<T extends Observable<unknown>>(stream: T, info: StreamInfo | null): T {
  if (info) Object.defineProperty(stream, key, { value: info, enumerable: false });
  return stream;
}

/** The tag of a source's stream: its context, frames with no labels yet. */
export function tagSource<T extends Observable<unknown>>(stream: T, ctx: GpuContext): T {
  return tagStream(stream, { ctx, shape: sourceShape });
}

export function streamInfo(stream: Observable<unknown>): StreamInfo | null {
  return ((stream as unknown as Record<symbol, StreamInfo | undefined>)[key] as StreamInfo | undefined) ?? null;
}
