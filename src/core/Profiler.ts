/**
 * GPU time per pass from timestamp queries written by the production passes themselves (`timestampWrites` on the
 * pass descriptor), so timing never changes how work is scheduled. One query set per context, split into slots;
 * a frame takes a slot when it is created and gives it back once its results are read. Without the
 * `timestamp-query` feature every call is a no-op and frames carry no scope.
 */
export interface PassTiming {
  /** `<operator>:<pass>`, e.g. `label:shibata`. */
  name: string;
  /** GPU time of the pass in milliseconds. */
  ms: number;
}

const slots = 16;
const pairsPerSlot = 32;
const bytesPerSlot = pairsPerSlot * 2 * 8; // 512: a multiple of 256, as resolveQuerySet's offset must be

export class ProfileScope {
  readonly #profiler: Profiler;
  readonly slot: number;
  readonly #names: string[] = [];
  #released = false;

  constructor(profiler: Profiler, slot: number) {
    this.#profiler = profiler;
    this.slot = slot;
  }

  /** Timestamp writes for one compute pass, or undefined when this frame's pairs are used up. */
  pass(name: string): GPUComputePassTimestampWrites | undefined {
    if (this.#names.length >= pairsPerSlot) return undefined;
    const base = this.slot * pairsPerSlot * 2 + this.#names.length * 2;
    this.#names.push(name);
    return { querySet: this.#profiler.querySet!, beginningOfPassWriteIndex: base, endOfPassWriteIndex: base + 1 };
  }

  /** Resolves this frame's queries; returns where the sink should copy them from (null if none were written). */
  resolve(encoder: GPUCommandEncoder): { buffer: GPUBuffer; offset: number; size: number } | null {
    if (this.#names.length === 0) return null;
    const offset = this.slot * bytesPerSlot;
    encoder.resolveQuerySet(
      this.#profiler.querySet!,
      this.slot * pairsPerSlot * 2,
      this.#names.length * 2,
      this.#profiler.resolveBuffer!,
      offset,
    );
    return { buffer: this.#profiler.resolveBuffer!, offset, size: this.#names.length * 16 };
  }

  decode(bytes: ArrayBuffer): PassTiming[] {
    const t = new BigUint64Array(bytes, 0, this.#names.length * 2);
    // Some drivers report end < begin for very short passes; clamp rather than show negative time.
    return this.#names.map((name, i) => ({ name, ms: t[2 * i + 1] > t[2 * i] ? Number(t[2 * i + 1] - t[2 * i]) / 1e6 : 0 }));
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#profiler.freeSlot(this.slot);
  }
}

export class Profiler {
  readonly querySet: GPUQuerySet | null;
  readonly resolveBuffer: GPUBuffer | null;
  readonly #free: number[] = [];

  constructor(device: GPUDevice, enabled: boolean) {
    if (!enabled) {
      this.querySet = null;
      this.resolveBuffer = null;
      return;
    }
    this.querySet = device.createQuerySet({ label: 'profiler:queries', type: 'timestamp', count: slots * pairsPerSlot * 2 });
    this.resolveBuffer = device.createBuffer({
      label: 'profiler:resolve',
      size: slots * bytesPerSlot,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    for (let i = slots - 1; i >= 0; i--) this.#free.push(i);
  }

  get enabled(): boolean {
    return this.querySet !== null;
  }

  /** A scope for one frame, or null when profiling is off or every slot is taken. */
  beginFrame(): ProfileScope | null {
    if (!this.querySet) return null;
    // With every slot taken (more frames in flight than slots), the frame runs untimed.
    const slot = this.#free.pop();
    return slot === undefined ? null : new ProfileScope(this, slot);
  }

  /** @internal */
  freeSlot(slot: number): void {
    this.#free.push(slot);
  }

  destroy(): void {
    this.querySet?.destroy();
    this.resolveBuffer?.destroy();
  }
}
