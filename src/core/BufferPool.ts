/**
 * Buffers pooled by size and usage. Operators take persistent buffers when they see the first frame of a size and
 * give them back on resize or unsubscribe; `stats()` shows what is in use, so leaks are visible in tests.
 *
 * The free buffers are bounded in bytes (`maxFreeBytes`): frames of ever new sizes (a folder of photos, a camera that
 * changes resolution) would otherwise leave every size's set behind. Past the bound the least recently used sizes go
 * first, so a stream that switches between a few sizes keeps them all.
 */
import { InvalidFrameError } from './errors.js';
import { destroyBuffer } from './mapBuffer.js';

export interface BufferPoolStats {
  /** Buffers handed out and not yet released. */
  inUse: number;
  /** Released buffers kept for reuse. */
  free: number;
  /** Buffers ever created by this pool. */
  created: number;
  bytesInUse: number;
  bytesFree: number;
  /** The bound on `bytesFree` (GpuContextOptions.poolFreeBytes). */
  maxFreeBytes: number;
}

/** Free buffers kept per (size, usage) bucket; more are destroyed on release. */
const maxFreePerBucket = 4;

/** Bytes of free buffers a pool keeps by default (GpuContextOptions.poolFreeBytes). */
export const defaultPoolFreeBytes = 64 * 1024 * 1024;

export class BufferPool {
  readonly #device: GPUDevice;
  /** Free buffers by bucket, the least recently used bucket first (a Map keeps insertion order). */
  readonly #free = new Map<string, GPUBuffer[]>();
  readonly #inUse = new Set<GPUBuffer>();
  readonly #maxFreeBytes: number;
  #bytesFree = 0;
  #created = 0;
  #destroyed = false;

  /** `maxFreeBytes`: the bytes of released buffers kept for reuse; 0 keeps none. */
  constructor(device: GPUDevice, maxFreeBytes = defaultPoolFreeBytes) {
    this.#device = device;
    this.#maxFreeBytes = maxFreeBytes;
  }

  /** A buffer of at least `size` bytes (rounded up to 16) with exactly `usage`, labelled `label`. */
  acquire(label: string, size: number, usage: GPUBufferUsageFlags): GPUBuffer {
    const bytes = Math.max(16, Math.ceil(size / 16) * 16);
    const key = `${bytes}|${usage}`;
    const list = this.#free.get(key);
    let buffer = list?.pop();
    if (buffer) {
      this.#bytesFree -= buffer.size;
      this.#free.delete(key);
      if (list!.length > 0) this.#free.set(key, list!);
    }
    if (!buffer && bytes > this.#device.limits.maxBufferSize) {
      // Dawn would hand back an invalid buffer of that size (and count it here): refuse before creating it.
      throw new InvalidFrameError(`${label}: ${bytes} bytes exceed this device's limit of ${this.#device.limits.maxBufferSize} bytes per buffer`);
    }
    if (!buffer) {
      buffer = this.#device.createBuffer({ label, size: bytes, usage });
      this.#created++;
    }
    buffer.label = label;
    this.#inUse.add(buffer);
    return buffer;
  }

  /** Gives a buffer back. Safe to call with null; a buffer not from this pool is ignored. */
  release(buffer: GPUBuffer | null | undefined): void {
    if (!buffer || !this.#inUse.delete(buffer)) return;
    if (this.#destroyed) {
      destroyBuffer(buffer);
      return;
    }
    const key = `${buffer.size}|${buffer.usage}`;
    const list = this.#free.get(key) ?? [];
    if (list.length >= maxFreePerBucket || buffer.mapState !== 'unmapped' || buffer.size > this.#maxFreeBytes) {
      destroyBuffer(buffer);
      return;
    }
    buffer.label = `pool:free`;
    list.push(buffer);
    // Most recently used last.
    this.#free.delete(key);
    this.#free.set(key, list);
    this.#bytesFree += buffer.size;
    this.#evict(this.#maxFreeBytes);
  }

  /** Destroys free buffers, the least recently used sizes first, until at most `bytes` of them are left. */
  #evict(bytes: number): void {
    for (const [key, list] of this.#free) {
      if (this.#bytesFree <= bytes) return;
      while (list.length > 0 && this.#bytesFree > bytes) {
        const b = list.shift()!;
        this.#bytesFree -= b.size;
        b.destroy();
      }
      if (list.length === 0) this.#free.delete(key);
    }
  }

  /** Destroys every free buffer (in-use ones stay valid). */
  trim(): void {
    this.#evict(0);
  }

  stats(): BufferPoolStats {
    let free = 0;
    for (const list of this.#free.values()) free += list.length;
    let bytesInUse = 0;
    for (const b of this.#inUse) bytesInUse += b.size;
    return { inUse: this.#inUse.size, free, created: this.#created, bytesInUse, bytesFree: this.#bytesFree, maxFreeBytes: this.#maxFreeBytes };
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.trim();
    for (const b of this.#inUse) destroyBuffer(b);
    this.#inUse.clear();
  }
}
