/**
 * Sources tag the streams they return with their GpuContext, and GPU operators pass the tag on, so an operator
 * knows its device when it is subscribed and compiles its pipelines then, before the first frame arrives.
 * A stream without the tag (built by hand) still works: the operator then prepares on its first frame.
 */
import type { Observable } from 'rxjs';
import type { GpuContext } from './GpuContext.js';

const key = Symbol.for('flowmark.gpuContext');

export function tagContext<T extends Observable<unknown>>(stream: T, ctx: GpuContext | null | undefined): T {
  if (ctx) Object.defineProperty(stream, key, { value: ctx, enumerable: false });
  return stream;
}

export function contextOf(stream: Observable<unknown>): GpuContext | null {
  return ((stream as unknown as Record<symbol, GpuContext | undefined>)[key] as GpuContext | undefined) ?? null;
}
