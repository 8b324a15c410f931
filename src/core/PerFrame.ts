/**
 * What an operator writes for a frame, owned by that frame: a set of buffers (and the bind groups over them) built
 * for one frame size, taken when the operator records the frame and given back when the frame's lease is released,
 * after its last submission has completed (FrameLease.ts). A later frame of the same size reuses a set given back;
 * one still held is never touched. So an operator holds as many sets as frames are in flight through it (usually
 * the source's `maxInFlight`), and none of them changes under a frame that still needs it.
 *
 * This is the one place where per-size state is made: an operator describes its set once, in `build`, and asks for
 * `take(frame)` in every `process`. Bind groups that also depend on the frame's inputs (the mask another operator
 * wrote) come from `set.bind(...)`, cached per set by the identity of their resources.
 */
import type { GpuContext } from './GpuContext.js';
import type { GpuFrame } from './GpuFrame.js';
import type { Kernel } from './PipelineCache.js';
import { bindGroup, type BindingResource } from './kernels.js';
import { packUniform, type UniformLayout } from './uniforms.js';

export interface FrameSize {
  readonly width: number;
  readonly height: number;
}

/** What `build` takes its buffers from: the context's pool, labelled `<operator>:<name>`, given back with the set. */
export interface SetAllocator {
  /** A buffer of at least `bytes`; with `contents`, those are written at its start (usage needs COPY_DST). */
  buffer(name: string, bytes: number, usage: GPUBufferUsageFlags, contents?: ArrayBuffer | ArrayBufferView<ArrayBuffer>): GPUBuffer;
  /** A uniform buffer holding `values` packed by `layout` (written now, before the set's first use). */
  uniform(name: string, layout: UniformLayout, values: Readonly<Record<string, number>>): GPUBuffer;
}

export interface FrameSet {
  /** A bind group over `resources` for `kernel`, made once per set and resources. */
  bind(name: string, kernel: Kernel, resources: readonly BindingResource[]): GPUBindGroup;
}

interface Entry<S> {
  readonly size: string;
  readonly set: S & FrameSet;
  readonly buffers: GPUBuffer[];
}

/** Bind groups cached per set: enough for the inputs a set sees in turn, and a bound on what a stream can grow. */
const groupsPerSet = 16;
const ids = new WeakMap<object, number>();
let nextId = 1;
const idOf = (o: object) => ids.get(o) ?? (ids.set(o, nextId), nextId++);

export class PerFrame<S extends object> {
  readonly #ctx: GpuContext;
  readonly #name: string;
  readonly #build: (size: FrameSize, alloc: SetAllocator) => S;
  readonly #free: Entry<S>[] = [];
  readonly #held = new Set<Entry<S>>();
  #disposed = false;

  constructor(ctx: GpuContext, name: string, build: (size: FrameSize, alloc: SetAllocator) => S) {
    this.#ctx = ctx;
    this.#name = name;
    this.#build = build;
  }

  /** The set this frame owns until its lease is released. */
  take(frame: GpuFrame): S & FrameSet {
    const size = `${frame.width}x${frame.height}`;
    const i = this.#free.findIndex((e) => e.size === size);
    let entry: Entry<S>;
    if (i >= 0) {
      entry = this.#free.splice(i, 1)[0];
    } else {
      // The stream changed size: free sets of the old size would wait for frames that may never come.
      for (const stale of this.#free.splice(0)) this.#drop(stale);
      entry = this.#make(size, frame);
    }
    this.#held.add(entry);
    frame.lease.hold(() => this.#giveBack(entry));
    return entry.set;
  }

  /** Gives every buffer back to the pool, held sets included: the work already submitted runs first. Idempotent. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const e of [...this.#free.splice(0), ...this.#held]) this.#drop(e);
    this.#held.clear();
  }

  #giveBack(entry: Entry<S>): void {
    if (!this.#held.delete(entry) || this.#disposed) return;
    this.#free.push(entry);
  }

  #drop(entry: Entry<S>): void {
    for (const b of entry.buffers.splice(0)) this.#ctx.pool.release(b);
  }

  #make(size: string, frame: FrameSize): Entry<S> {
    const { device, pool } = this.#ctx;
    const buffers: GPUBuffer[] = [];
    const name = this.#name;
    const alloc: SetAllocator = {
      buffer(part, bytes, usage, contents) {
        const b = pool.acquire(`${name}:${part}`, bytes, usage);
        buffers.push(b);
        if (contents) device.queue.writeBuffer(b, 0, contents);
        return b;
      },
      uniform(part, layout, values) {
        return alloc.buffer(part, layout.size, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, packUniform(layout, values));
      },
    };
    let built: S;
    try {
      built = this.#build({ width: frame.width, height: frame.height }, alloc);
    } catch (e) {
      for (const b of buffers) pool.release(b);
      throw e;
    }
    const groups = new Map<string, GPUBindGroup>();
    const set = Object.assign(built, {
      bind(part: string, kernel: Kernel, resources: readonly BindingResource[]): GPUBindGroup {
        const key = `${part}|${kernel.key}|${resources.map(idOf).join(',')}`;
        let g = groups.get(key);
        if (!g) {
          if (groups.size >= groupsPerSet) groups.clear();
          g = bindGroup(device, `${name}:${part}`, kernel, resources);
          groups.set(key, g);
        }
        return g;
      },
    });
    return { size, set, buffers };
  }
}
