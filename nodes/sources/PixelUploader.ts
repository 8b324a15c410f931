/**
 * Pixels from the CPU into a source's per-slot GPU buffers, through staging buffers of our own that stay mapped
 * between frames. `queue.writeBuffer` copies into staging memory Dawn allocates for each call, which made the wall
 * time per frame larger and uneven one frame at a time.
 * Here each slot keeps a few MAP_WRITE buffers: a frame writes its pixels into a mapped one, its encoder copies
 * them into the slot's storage buffer, and when the frame is released (its last submission has completed) the
 * staging buffer is mapped again for a later frame. A frame that finds none mapped gets a new one, mapped at
 * creation, so a frame never waits; at most `maxStaging` per slot are kept.
 */
import type { GpuContext } from '../../src/core/GpuContext.js';
import type { ProfileScope } from '../../src/core/Profiler.js';
import { destroyBuffer, mapBuffer } from '../../src/core/mapBuffer.js';

/** Staging buffers kept per slot: one being written, one in flight, one mapping back. */
const maxStaging = 3;

interface Slot {
  bytes: number;
  gpu: GPUBuffer;
  /** Mapped and ready to write. */
  ready: GPUBuffer[];
  /** Every staging buffer of the slot, ready or not. */
  all: Set<GPUBuffer>;
}

export interface Upload {
  buffer: GPUBuffer;
  /** Records the copy into the frame's encoder (first, before any pass reads `buffer`). */
  record(encoder: GPUCommandEncoder, profile: ProfileScope | null): void;
  /** Call when the frame is released: the staging buffer goes back to being mapped. */
  release(): void;
}

export class PixelUploader {
  readonly #ctx: GpuContext;
  readonly #label: string;
  readonly #slots: (Slot | undefined)[] = [];
  #disposed = false;

  constructor(ctx: GpuContext, label: string) {
    this.#ctx = ctx;
    this.#label = label;
  }

  /** Puts `data` (padded with zeros to `bytes`, a multiple of 4) into slot `i`'s storage buffer. */
  upload(i: number, data: Uint8Array | Uint8ClampedArray, bytes: number): Upload {
    const slot = this.#slot(i, bytes);
    const staging = slot.ready.pop() ?? this.#staging(slot, i);
    const range = new Uint8Array(staging.getMappedRange(0, bytes));
    range.set(data);
    if (data.length < bytes) range.fill(0, data.length);
    staging.unmap();
    let released = false;
    return {
      buffer: slot.gpu,
      record: (encoder) => encoder.copyBufferToBuffer(staging, 0, slot.gpu, 0, bytes),
      release: () => {
        if (released) return;
        released = true;
        this.#remap(slot, staging);
      },
    };
  }

  #slot(i: number, bytes: number): Slot {
    let s = this.#slots[i];
    // Reuse the slot's buffers for any frame that fits and is not much smaller (frames of one size, mostly).
    if (s && (s.bytes < bytes || s.bytes > Math.max(256, bytes * 2))) {
      this.#free(s);
      s = undefined;
    }
    if (!s) {
      const gpu = this.#ctx.pool.acquire(`${this.#label}:upload${i}`, bytes, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
      s = this.#slots[i] = { bytes: gpu.size, gpu, ready: [], all: new Set() };
    }
    return s;
  }

  #staging(slot: Slot, i: number): GPUBuffer {
    const b = this.#ctx.device.createBuffer({
      label: `${this.#label}:staging${i}`,
      size: slot.bytes,
      usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC,
      mappedAtCreation: true,
    });
    slot.all.add(b);
    return b;
  }

  #remap(slot: Slot, staging: GPUBuffer): void {
    if (this.#disposed || !slot.all.has(staging)) return;
    if (slot.ready.length + 1 >= maxStaging) {
      // Enough kept for this slot: let this one go.
      slot.all.delete(staging);
      staging.destroy();
      return;
    }
    // A slot freed meanwhile has already left this one to destroyBuffer, which destroys it once this settles.
    mapBuffer(staging, GPUMapMode.WRITE).then(
      () => void (slot.all.has(staging) && slot.ready.push(staging)),
      () => undefined, // the device was lost or destroyed
    );
  }

  #free(s: Slot): void {
    this.#ctx.pool.release(s.gpu);
    // One still mapping again (#remap) is destroyed once that has settled.
    for (const b of s.all) destroyBuffer(b);
    s.all.clear();
    s.ready.length = 0;
  }

  dispose(): void {
    this.#disposed = true;
    this.#slots.splice(0).forEach((s) => s && this.#free(s));
  }
}
