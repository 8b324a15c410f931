/**
 * Buffers pooled by size and usage. Operators take persistent buffers when they see the first frame of a size and
 * give them back on resize or unsubscribe; `stats()` shows what is in use, so leaks are visible in tests.
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
}

/** Free buffers kept per (size, usage) bucket; more are destroyed on release. */
const maxFreePerBucket = 4;

export class BufferPool {
  readonly #device: GPUDevice;
  readonly #free = new Map<string, GPUBuffer[]>();
  readonly #inUse = new Set<GPUBuffer>();
  #created = 0;
  #destroyed = false;

  constructor(device: GPUDevice) {
    this.#device = device;
  }

  /** A buffer of at least `size` bytes (rounded up to 16) with exactly `usage`, labelled `label`. */
  acquire(label: string, size: number, usage: GPUBufferUsageFlags): GPUBuffer {
    const bytes = Math.max(16, Math.ceil(size / 16) * 16);
    const key = `${bytes}|${usage}`;
    let buffer = this.#free.get(key)?.pop();
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
    if (list.length >= maxFreePerBucket || buffer.mapState !== 'unmapped') {
      destroyBuffer(buffer);
      return;
    }
    buffer.label = `pool:free`;
    list.push(buffer);
    this.#free.set(key, list);
  }

  /** Destroys every free buffer (in-use ones stay valid). */
  trim(): void {
    for (const list of this.#free.values()) for (const b of list) b.destroy();
    this.#free.clear();
  }

  stats(): BufferPoolStats {
    let free = 0;
    let bytesFree = 0;
    for (const list of this.#free.values()) {
      free += list.length;
      for (const b of list) bytesFree += b.size;
    }
    let bytesInUse = 0;
    for (const b of this.#inUse) bytesInUse += b.size;
    return { inUse: this.#inUse.size, free, created: this.#created, bytesInUse, bytesFree };
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.trim();
    for (const b of this.#inUse) destroyBuffer(b);
    this.#inUse.clear();
  }
}
