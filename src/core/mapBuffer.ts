/**
 * Buffer mappings the library makes, remembered until they settle, so that a buffer is never destroyed while its
 * mapAsync is pending. WebGPU allows it (the promise rejects with an AbortError), but Dawn's Node bindings (`webgpu`
 * 0.6) can crash the process rejecting that promise (a segfault in `napi_reject_deferred`). Tests:
 * tests/unit/core/mapBuffer.test.ts, tests/gpu/core/stream.test.ts.
 */

/** The promise of each buffer's pending mapAsync made through mapBuffer. */
const pending = new WeakMap<GPUBuffer, Promise<void>>();
/** The same promises, all of them (mappingsSettled). */
const inFlight = new Set<Promise<void>>();

/** `buffer.mapAsync(mode, offset, size)`, remembered until it settles (for destroyBuffer). */
export function mapBuffer(buffer: GPUBuffer, mode: GPUMapModeFlags, offset?: number, size?: number): Promise<void> {
  const p = buffer.mapAsync(mode, offset, size);
  pending.set(buffer, p);
  inFlight.add(p);
  const settled = () => {
    inFlight.delete(p);
    if (pending.get(buffer) === p) pending.delete(buffer);
  };
  p.then(settled, settled);
  return p;
}

/** Destroys `buffer` now, or once its pending mapAsync (made through mapBuffer) has settled. */
export function destroyBuffer(buffer: GPUBuffer): void {
  const p = pending.get(buffer);
  if (!p) {
    buffer.destroy();
    return;
  }
  const destroy = () => buffer.destroy();
  p.then(destroy, destroy);
}

/**
 * Null when no mapping made through mapBuffer is pending; else a promise that resolves once those pending now have
 * settled, or after `timeoutMs` (a device that never finishes its work must not hold its destruction forever).
 * Destroying a device rejects its pending mappings, as destroying their buffers does (GpuContext.destroy waits).
 */
export function mappingsSettled(timeoutMs: number): Promise<void> | null {
  if (inFlight.size === 0) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  return Promise.race([Promise.allSettled([...inFlight]).then(() => undefined), timeout]).finally(() => clearTimeout(timer));
}
