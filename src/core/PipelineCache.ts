/**
 * Compute pipelines compiled once per device and shared by every stream on it. Keyed by shader id, entry point
 * and sorted override constants; reference-counted so `stats()` shows what live subscriptions hold. Pipelines are
 * built with `createComputePipelineAsync` when a stream subscribes, never while a frame is being recorded.
 * A shader that declares `override WG` gets the runtime's 1-D workgroup size (dispatch.ts) without asking.
 */
import { InvalidOptionError, ShaderCompileError } from './errors.js';
import { shaderCode, shaderId, type ShaderSource } from './shaderSource.js';
import { WG } from './dispatch.js';

/**
 * Buffer bindings by their type, plus `texture`: a sampled 2D float texture (camera and video frames), and
 * `rgba8-out`: a write-only rgba8unorm storage texture (a frame written for a renderer to sample).
 */
export type BindingKind = 'uniform' | 'storage' | 'read-only-storage' | 'texture' | 'rgba8-out';

export interface KernelSpec {
  /** One of flowmark's shaders by id, or a `WgslModule` of your own. */
  shader: ShaderSource;
  entryPoint: string;
  /** Binding kinds for @group(0) @binding(0..n-1), in order. */
  bindings: readonly BindingKind[];
  /** WGSL `override` values. */
  constants?: Readonly<Record<string, number>>;
}

export interface Kernel {
  readonly key: string;
  readonly pipeline: GPUComputePipeline;
  readonly layout: GPUBindGroupLayout;
}

export interface PipelineCacheStats {
  /** Distinct pipelines compiled on this device. */
  pipelines: number;
  /** Live references held by subscriptions. */
  refs: number;
  /** Shader modules compiled. */
  modules: number;
}

const declaresWG = /^\s*override\s+WG\b/m;

interface Entry {
  kernel: Promise<Kernel>;
  refs: number;
}

export function kernelKey(spec: KernelSpec): string {
  const constants = Object.entries(spec.constants ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return `${shaderId(spec.shader)}:${spec.entryPoint}[${spec.bindings.join(',')}]{${constants}}`;
}

export class PipelineCache {
  readonly #device: GPUDevice;
  readonly #modules = new Map<string, { code: string; module: Promise<GPUShaderModule> }>();
  readonly #layouts = new Map<string, GPUBindGroupLayout>();
  readonly #entries = new Map<string, Entry>();

  constructor(device: GPUDevice) {
    this.#device = device;
  }

  /** Compiles (once) and returns the kernel; pair each call with `release(kernel)`. */
  acquire(spec: KernelSpec): Promise<Kernel> {
    const id = shaderId(spec.shader);
    const taken = this.#modules.get(id);
    if (taken && taken.code !== shaderCode(spec.shader)) {
      return Promise.reject(new InvalidOptionError(`shader id "${id}" is already taken by another WGSL module on this device`));
    }
    const key = kernelKey(spec);
    let entry = this.#entries.get(key);
    if (!entry) {
      const kernel = this.#build(key, spec);
      entry = { kernel, refs: 0 };
      this.#entries.set(key, entry);
      // A failed build must not poison the cache: the next subscription tries again.
      kernel.catch(() => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      });
    }
    entry.refs++;
    return entry.kernel;
  }

  /** Acquires several kernels; if one fails, the others are released before the error propagates. */
  async acquireAll<K extends string>(specs: Readonly<Record<K, KernelSpec>>): Promise<Record<K, Kernel>> {
    const names = Object.keys(specs) as K[];
    const results = await Promise.allSettled(names.map((n) => this.acquire(specs[n])));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      results.forEach((r) => r.status === 'fulfilled' && this.release(r.value));
      // Failed acquisitions still counted a reference on an entry that has since been dropped.
      throw failed.reason;
    }
    const out = {} as Record<K, Kernel>;
    names.forEach((n, i) => (out[n] = (results[i] as PromiseFulfilledResult<Kernel>).value));
    return out;
  }

  release(kernel: Kernel | null | undefined): void {
    if (!kernel) return;
    const entry = this.#entries.get(kernel.key);
    if (entry && entry.refs > 0) entry.refs--;
  }

  releaseAll(kernels: Readonly<Record<string, Kernel>> | null | undefined): void {
    if (kernels) for (const k of Object.values(kernels)) this.release(k);
  }

  stats(): PipelineCacheStats {
    let refs = 0;
    for (const e of this.#entries.values()) refs += e.refs;
    return { pipelines: this.#entries.size, refs, modules: this.#modules.size };
  }

  #layout(bindings: readonly BindingKind[]): GPUBindGroupLayout {
    const key = bindings.join(',');
    let layout = this.#layouts.get(key);
    if (!layout) {
      layout = this.#device.createBindGroupLayout({
        label: `layout:${key}`,
        entries: bindings.map((type, binding) =>
          type === 'texture'
            ? { binding, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'float' as const } }
            : type === 'rgba8-out'
              ? { binding, visibility: GPUShaderStage.COMPUTE, storageTexture: { access: 'write-only' as const, format: 'rgba8unorm' as const } }
              : { binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } },
        ),
      });
      this.#layouts.set(key, layout);
    }
    return layout;
  }

  #module(source: ShaderSource): Promise<GPUShaderModule> {
    const id = shaderId(source);
    const code = shaderCode(source);
    let mod = this.#modules.get(id);
    if (!mod) {
      const module = (async () => {
        const module = this.#device.createShaderModule({ label: `shader:${id}`, code });
        const info = await module.getCompilationInfo();
        const errors = info.messages.filter((m) => m.type === 'error');
        if (errors.length) {
          throw new ShaderCompileError(
            `WGSL ${id} failed to compile:\n` + errors.map((m) => `  ${m.lineNum}:${m.linePos} ${m.message}`).join('\n'),
          );
        }
        return module;
      })();
      mod = { code, module };
      const entry = mod;
      module.catch(() => this.#modules.get(id) === entry && this.#modules.delete(id));
      this.#modules.set(id, mod);
    }
    return mod.module;
  }

  async #build(key: string, spec: KernelSpec): Promise<Kernel> {
    const module = await this.#module(spec.shader);
    const layout = this.#layout(spec.bindings);
    const constants = { ...(declaresWG.test(shaderCode(spec.shader)) ? { WG } : {}), ...spec.constants };
    try {
      const pipeline = await this.#device.createComputePipelineAsync({
        label: `pipeline:${key}`,
        layout: this.#device.createPipelineLayout({ label: `pipeline-layout:${key}`, bindGroupLayouts: [layout] }),
        compute: { module, entryPoint: spec.entryPoint, constants },
      });
      return { key, pipeline, layout };
    } catch (cause) {
      throw new ShaderCompileError(`pipeline ${key} could not be built: ${(cause as Error)?.message ?? cause}`, {
        cause,
      });
    }
  }
}
