/**
 * One GPU device with what every stream on it shares: a pipeline cache, a buffer pool and a profiler. Works in
 * browsers (`navigator.gpu`) and in Node (Dawn). Device loss and uncaptured errors become typed errors delivered
 * to the streams that use the context.
 */
import { acquireGpu, releaseGpu, defaultDawnFlags } from './gpu.js';
import { BufferPool, defaultPoolFreeBytes } from './BufferPool.js';
import { mappingsSettled } from './mapBuffer.js';
import { PipelineCache } from './PipelineCache.js';
import { Profiler } from './Profiler.js';
import { DisposedError, GpuDeviceLostError, GpuUnavailableError, GpuValidationError, InvalidOptionError, type FlowmarkError } from './errors.js';
import { checkBoolean, checkOptions, optionKeys } from './checkOptions.js';

export interface GpuContextOptions {
  /** Use this GPU instead of `navigator.gpu` / Dawn. */
  gpu?: GPU;
  /** Use this device (the context will not destroy it). */
  device?: GPUDevice;
  powerPreference?: GPUPowerPreference;
  /** Dawn flags in Node, e.g. `backend=vulkan`. Default: timestamp quantization off. */
  dawnFlags?: readonly string[];
  /**
   * Time every pass with timestamp queries written by the passes themselves (`FrameResult.timings`), when the device
   * has `timestamp-query` (default false). Writing, resolving and reading the timestamps costs the host a tenth of a
   * millisecond or so a frame, so a camera's chain runs untimed unless asked.
   */
  profile?: boolean;
  label?: string;
  /**
   * Bytes of released buffers the buffer pool keeps for reuse (default 64 MiB). Frames of a new size take new
   * buffers and give the old size's back; past this bound the least recently used sizes are destroyed first.
   */
  poolFreeBytes?: number;
}

export interface GpuFeatures {
  /** Passes are timed: `profile: true` was asked and the device has `timestamp-query`. */
  timestamps: boolean;
  subgroups: boolean;
}

export interface GpuLimits {
  maxStorageBufferBindingSize: number;
  maxBufferSize: number;
  maxComputeWorkgroupsPerDimension: number;
  maxComputeInvocationsPerWorkgroup: number;
  maxComputeWorkgroupSizeX: number;
  maxComputeWorkgroupStorageSize: number;
}

type ErrorListener = (error: FlowmarkError) => void;

export class GpuContext {
  readonly device: GPUDevice;
  readonly label: string;
  readonly features: GpuFeatures;
  readonly limits: GpuLimits;
  readonly adapterName: string;
  readonly isFallbackAdapter: boolean;
  readonly pipelines: PipelineCache;
  readonly pool: BufferPool;
  readonly profiler: Profiler;
  readonly #ownsDevice: boolean;
  readonly #node: boolean;
  readonly #listeners = new Set<ErrorListener>();
  #destroyed = false;
  #lostError: GpuDeviceLostError | null = null;
  readonly #onUncapturedError = (event: Event) => {
    const e = (event as GPUUncapturedErrorEvent).error;
    this.#emit(new GpuValidationError(`GPU error on "${this.label}": ${e.message}`));
  };
  #held: GPUCommandBuffer[] = [];
  #onFlushed: (() => void)[] = [];

  private constructor(device: GPUDevice, info: { label: string; adapterName: string; fallback: boolean; owns: boolean; node: boolean; profile: boolean; poolFreeBytes: number }) {
    this.device = device;
    this.label = info.label;
    this.adapterName = info.adapterName;
    this.isFallbackAdapter = info.fallback;
    this.#ownsDevice = info.owns;
    this.#node = info.node;
    this.features = { timestamps: info.profile && device.features.has('timestamp-query'), subgroups: device.features.has('subgroups') };
    const l = device.limits;
    this.limits = {
      maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
      maxBufferSize: l.maxBufferSize,
      maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
      maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
      maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
    };
    this.pipelines = new PipelineCache(device);
    this.pool = new BufferPool(device, info.poolFreeBytes);
    this.profiler = new Profiler(device, this.features.timestamps);
    // Weakly: a device given by the caller outlives the contexts made on it, and its pending `lost` would hold each.
    const self = new WeakRef(this);
    device.lost.then((info) => {
      const ctx = self.deref();
      if (ctx) ctx.#deviceLost(info);
    });
    device.addEventListener('uncapturederror', this.#onUncapturedError);
  }

  /** Opens an adapter and device; accepts fallback (software) adapters when no hardware one exists. */
  static async create(options: GpuContextOptions = {}): Promise<GpuContext> {
    checkOptions('GpuContext.create', options, optionKeys<GpuContextOptions>({ gpu: true, device: true, powerPreference: true, dawnFlags: true, profile: true, label: true, poolFreeBytes: true }));
    checkBoolean('GpuContext.create', 'profile', options.profile);
    const label = options.label ?? 'flowmark';
    const poolFreeBytes = options.poolFreeBytes ?? defaultPoolFreeBytes;
    if (typeof poolFreeBytes !== 'number' || !(poolFreeBytes >= 0) || !Number.isFinite(poolFreeBytes)) {
      throw new InvalidOptionError(`GpuContext.create: poolFreeBytes must be a number of bytes, 0 or more, got ${String(options.poolFreeBytes)}`);
    }
    if (options.device) {
      return new GpuContext(options.device, { label, adapterName: 'external', fallback: false, owns: false, node: false, profile: options.profile === true, poolFreeBytes });
    }
    const { gpu, node } = options.gpu
      ? { gpu: options.gpu, node: false }
      : await acquireGpu(options.dawnFlags ?? defaultDawnFlags);
    try {
      // Chromium answers a fresh browser's first request with null while its GPU process is still opening the
      // hardware adapter, and the same request a moment later with that adapter: ask twice before the fallback.
      const request = { powerPreference: options.powerPreference ?? 'high-performance' } as const;
      let adapter = (await gpu.requestAdapter(request)) ?? (await gpu.requestAdapter(request));
      adapter ??= await gpu.requestAdapter({ forceFallbackAdapter: true });
      if (!adapter) {
        throw new GpuUnavailableError(
          'No WebGPU adapter found. In Node on Linux without a GPU, install Mesa\'s lavapipe Vulkan driver (Debian and Ubuntu: apt-get install mesa-vulkan-drivers); in a browser, one with WebGPU enabled.',
        );
      }
      const wanted: GPUFeatureName[] = [];
      if (options.profile === true && adapter.features.has('timestamp-query')) wanted.push('timestamp-query');
      if (adapter.features.has('subgroups')) wanted.push('subgroups' as GPUFeatureName);
      const a = adapter.limits;
      const device = await adapter.requestDevice({
        label,
        requiredFeatures: wanted,
        requiredLimits: {
          maxStorageBufferBindingSize: a.maxStorageBufferBindingSize,
          maxBufferSize: a.maxBufferSize,
          maxComputeWorkgroupStorageSize: a.maxComputeWorkgroupStorageSize,
          maxComputeInvocationsPerWorkgroup: a.maxComputeInvocationsPerWorkgroup,
          maxComputeWorkgroupSizeX: a.maxComputeWorkgroupSizeX,
          maxStorageBuffersPerShaderStage: a.maxStorageBuffersPerShaderStage,
        },
      });
      const info = adapter.info;
      const adapterName = [info?.vendor, info?.architecture, info?.device, info?.description].filter(Boolean).join(' ') || 'unknown';
      const fallback = !!(info as { isFallbackAdapter?: boolean } | undefined)?.isFallbackAdapter;
      return new GpuContext(device, { label, adapterName, fallback, owns: true, node, profile: options.profile === true, poolFreeBytes });
    } catch (e) {
      releaseGpu(node);
      throw e;
    }
  }

  /**
   * The largest frame, in pixels, this device takes: each buffer of one u32 per pixel (labels, masks) must fit one
   * storage binding. Sources refuse larger frames; `readPng(path, { maxPixels })` refuses them before decoding.
   */
  get maxFramePixels(): number {
    return Math.floor(Math.min(this.limits.maxStorageBufferBindingSize, this.limits.maxBufferSize) / 4);
  }

  get destroyed(): boolean {
    return this.#destroyed;
  }

  /** The device-lost error, once the device is lost. */
  get lostError(): GpuDeviceLostError | null {
    return this.#lostError;
  }

  /**
   * Listens for device loss, uncaptured GPU errors and `destroy()` (a `DisposedError`); returns the function that
   * stops listening. A listener added after the loss or the destruction hears of it at once (in a microtask).
   */
  onError(listener: ErrorListener): () => void {
    if (this.#destroyed) {
      queueMicrotask(() => listener(this.#disposedError('a stream started')));
      return () => undefined;
    }
    this.#listeners.add(listener);
    if (this.#lostError) queueMicrotask(() => this.#listeners.has(listener) && listener(this.#lostError!));
    return () => this.#listeners.delete(listener);
  }

  /** Throws a `DisposedError` once the context is destroyed; sources call it before they make a frame. */
  checkAlive(what: string): void {
    if (this.#destroyed) throw this.#disposedError(what);
  }

  #deviceLost(info: GPUDeviceLostInfo): void {
    if (this.#destroyed) return;
    this.#lostError = new GpuDeviceLostError(`GPU device "${this.label}" was lost (${info.reason}): ${info.message}. Create a new GpuContext.`, info.reason);
    this.#emit(this.#lostError);
  }

  #disposedError(what: string): DisposedError {
    return new DisposedError(`${what} after GpuContext "${this.label}" was destroyed; create a new context, and destroy it only once its streams have ended`);
  }

  #emit(error: FlowmarkError): void {
    for (const l of [...this.#listeners]) l(error);
  }

  /**
   * Submits command buffers after any that a sink is holding back, so work reaches the queue in frame order.
   * Every submission of a flowmark operator goes through here.
   */
  submit(buffers: GPUCommandBuffer[]): void {
    this.flush();
    this.device.queue.submit(buffers);
  }

  /** Holds a command buffer to be submitted with later ones (see `readResults({ framesPerSubmit })`). */
  hold(buffer: GPUCommandBuffer, onSubmitted: () => void): number {
    this.#held.push(buffer);
    this.#onFlushed.push(onSubmitted);
    return this.#held.length;
  }

  /** Submits held command buffers in one call (the GPU then runs them back to back). */
  flush(): void {
    if (this.#held.length === 0) return;
    const held = this.#held;
    const callbacks = this.#onFlushed;
    this.#held = [];
    this.#onFlushed = [];
    this.device.queue.submit(held);
    callbacks.forEach((f) => f());
  }

  /**
   * Destroys the buffers, profiler and (if created here) the device. Idempotent. Streams still running on the
   * context end first, each with one `DisposedError`. Buffers being mapped, and the device where any are, go once
   * those mappings have settled (a second at most; src/core/mapBuffer.ts).
   */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    const running = new DisposedError(`GpuContext "${this.label}" was destroyed while a stream was running on it; destroy it once the streams have completed (or unsubscribe them first)`);
    this.#emit(running);
    this.#listeners.clear();
    // Dawn's Node binding holds a device with an event listener, and through it this context and everything it made
    // (pipelines, buffers: megabytes a context), for as long as the listener stays.
    this.device.removeEventListener('uncapturederror', this.#onUncapturedError);
    this.pool.destroy();
    this.profiler.destroy();
    if (!this.#ownsDevice) return releaseGpu(this.#node);
    const device = this.device;
    const node = this.#node;
    const destroyDevice = () => {
      device.destroy();
      // Dawn still has events to process for this device (its loss, pending maps): its instance must outlive them. A
      // collected instance under a pending ProcessEvents aborts the Node process (seen as a SIGABRT in
      // dawn::native::InstanceBase::ProcessEvents), so the reference is dropped only after the loss is delivered.
      void device.lost.then(() => setTimeout(() => releaseGpu(node), 20));
    };
    // Destroying the device rejects the mappings still pending (frames in flight), which crashed Dawn's Node bindings
    // now and then (src/core/mapBuffer.ts): where some are, the device goes once they have settled, a second at most.
    const settled = mappingsSettled(1000);
    if (settled) void settled.then(destroyDevice);
    else destroyDevice();
  }
}
