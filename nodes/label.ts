/**
 * Connected-component labeling on the GPU. Reads `frame.mask` (nonzero = foreground), writes `frame.labels`:
 * canonical by default (0 background, components 1..N in raster order of their first pixel), with N and the
 * convergence flag read back as `labeling`.
 *
 * Algorithm `shibata`: a preparation kernel and `passes` propagation passes recorded into the frame's encoder
 * with no host round trip between them; passes after convergence are skipped on the GPU, and `converged` says
 * whether the last pass changed nothing. `passes: 'until-converged'` gives exact labels for any image: it records
 * a batch of passes, checks the flag once (one host round trip per batch, batches doubling), and continues only
 * if needed.
 *
 * @example
 * fromPixels(ctx, images).pipe(threshold(), label({ connectivity: 8, passes: 'until-converged' }), readResults())
 *   .subscribe((r) => console.log(r.labeling)); // { count, converged, passes }
 *
 * Throws `InvalidOptionError` for bad options; `InvalidFrameError` on the stream for a frame without a mask.
 * Unsubscribing gives every buffer and pipeline reference back.
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../src/gpuNode.js';
import { withFrame, type GpuFrame, type ReadRequest } from '../src/GpuFrame.js';
import type { Kernel, KernelSpec } from '../src/PipelineCache.js';
import { bindGroup, dispatch1d } from '../src/kernels.js';
import { packUniform, uniformLayout } from '../src/uniforms.js';
import { dispatchSize } from '../src/dispatch.js';
import { InvalidFrameError, InvalidOptionError } from '../src/errors.js';
import type { LabelInfo } from '../src/results.js';
import { directAlgorithms, type AlgorithmChoices } from '../src/labeling/directAlgorithms.js';
import { PassRecorder } from '../src/PassRecorder.js';

export const labelAlgorithms = ['shibata', 'union-find', 'buf', 'ha4', 'c2fl', 'tiles'] as const;
export type LabelAlgorithm = (typeof labelAlgorithms)[number];

/**
 * What `algorithm: 'auto'` picks. The benchmark (BENCHMARKS.md) measured c2fl fastest on the H100 at every
 * density and granularity at 2048×2048 and at 1280×720, and it is exact for any image with a fixed number of
 * dispatches, so it is the choice on every device and frame size until a measurement says otherwise.
 */
export function autoAlgorithm(): LabelAlgorithm {
  return 'c2fl';
}

export interface LabelOptions {
  /** Default `shibata`; `auto` picks the fastest measured (see `autoAlgorithm`). */
  algorithm?: LabelAlgorithm | 'auto';
  /** 8 (default) or 4. */
  connectivity?: 4 | 8;
  /** Shibata's propagation passes: a fixed count (default 4) or `'until-converged'`. */
  passes?: number | 'until-converged';
  /** Renumber labels canonically and count components (default true). */
  canonical?: boolean;
  /** Also read the whole label image back as `labels` (default false: only compact results leave the GPU). */
  readLabels?: boolean;
  /**
   * Analysis only: time every kernel in a pass of its own (`label:<algorithm>:<kernel>`), which adds pass
   * boundaries. Default false: one timed pass per stage, as in production.
   */
  profileKernels?: boolean;
  /**
   * Analysis only: record the labeling kernels this many times per frame, back to back in the same passes, so a
   * benchmark can divide the passes' GPU time by it and see steady-state kernel time (as CUDA event loops do).
   * The result is unchanged: every repetition relabels from the mask. Not with `'until-converged'`.
   */
  repeat?: number;
  /**
   * HA4 only: where segments come from: `'bits'` (default: one invocation packs 32 pixels per word from byte
   * reads) or `'ballot'` (subgroup ballots; needs the `subgroups` feature). On the H100 the byte path measured
   * 0.02 ms faster at 2048×2048 (BENCHMARKS.md), so it is the default everywhere.
   */
  ha4Segments?: 'ballot' | 'bits';
}

/** Enough for typical camera frames (blobs and markers converge in 2–4 passes); maze-like images need more. */
export const defaultPasses = 4;
const WG = 256;
const firstBatch = 8;
/** PPT in shaders/label/canonical.wgsl. */
const canonicalPixelsPerThread = 8;

export function decodeLabelInfo(bytes: ArrayBuffer): LabelInfo {
  const v = new Uint32Array(bytes);
  return { count: v[6], converged: v[2] === 1, passes: v[1] };
}

/** Direct algorithms always finish and run no propagation passes; only the count is on the GPU. */
function decodeDirectInfo(bytes: ArrayBuffer): LabelInfo {
  return { count: new Uint32Array(bytes)[6], converged: true, passes: 0 };
}

function decodeDirectRawInfo(): LabelInfo {
  return { count: 0, converged: true, passes: 0 };
}

export function validateLabelOptions(options: LabelOptions): Required<Omit<LabelOptions, "ha4Segments">> & { algorithm: LabelAlgorithm; ha4Segments?: "ballot" | "bits" } {
  const o = {
    algorithm: options.algorithm === 'auto' ? autoAlgorithm() : (options.algorithm ?? 'shibata'),
    connectivity: options.connectivity ?? 8,
    passes: options.passes ?? defaultPasses,
    canonical: options.canonical ?? true,
    readLabels: options.readLabels ?? false,
    profileKernels: options.profileKernels ?? false,
    repeat: options.repeat ?? 1,
    ha4Segments: options.ha4Segments,
  };
  if (o.ha4Segments !== undefined && o.ha4Segments !== 'ballot' && o.ha4Segments !== 'bits') {
    throw new InvalidOptionError(`label: ha4Segments must be 'ballot' or 'bits', got ${String(o.ha4Segments)}`);
  }
  if (!Number.isInteger(o.repeat) || o.repeat < 1 || o.repeat > 100) throw new InvalidOptionError(`label: repeat must be an integer 1..100, got ${o.repeat}`);
  if (o.repeat > 1 && o.algorithm === 'shibata' && o.passes === 'until-converged') {
    throw new InvalidOptionError(`label: repeat needs a fixed pass count with shibata`);
  }
  if (!labelAlgorithms.includes(o.algorithm)) {
    throw new InvalidOptionError(`label: algorithm must be one of ${labelAlgorithms.join(', ')} or auto, got ${String(o.algorithm)}`);
  }
  if (o.connectivity !== 4 && o.connectivity !== 8) throw new InvalidOptionError(`label: connectivity must be 4 or 8, got ${o.connectivity}`);
  if (o.passes !== 'until-converged' && (!Number.isInteger(o.passes) || o.passes < 1 || o.passes > 4096)) {
    throw new InvalidOptionError(`label: passes must be an integer 1..4096 or 'until-converged', got ${String(o.passes)}`);
  }
  return o;
}

function specs(algorithm: LabelAlgorithm, choices: AlgorithmChoices): Record<string, KernelSpec> {
  const connectivity = choices.connectivity;
  const pixel = ['uniform', 'read-only-storage', 'storage', 'storage', 'storage', 'storage'] as const;
  const control = ['uniform', 'storage', 'storage'] as const;
  const c = { WG };
  const shibata = { WG, CONN8: connectivity === 8 ? 1 : 0 };
  const shared = {
    compress: { shader: 'label/canonical', entryPoint: 'compress', bindings: pixel, constants: c },
    scan: { shader: 'label/canonical', entryPoint: 'scanBlocks', bindings: pixel, constants: c },
    rank: { shader: 'label/canonical', entryPoint: 'rankRoots', bindings: pixel, constants: c },
    relabel: { shader: 'label/canonical', entryPoint: 'relabel', bindings: pixel, constants: c },
  } satisfies Record<string, KernelSpec>;
  if (algorithm !== 'shibata') return { ...shared, ...directAlgorithms[algorithm].specs(choices) };
  return {
    ...shared,
    reset: { shader: 'label/shibata', entryPoint: 'reset', bindings: control, constants: shibata },
    prepare: { shader: 'label/shibata', entryPoint: 'prepare', bindings: pixel, constants: shibata },
    propagate: { shader: 'label/shibata', entryPoint: 'propagate', bindings: pixel, constants: shibata },
    control: { shader: 'label/shibata', entryPoint: 'control', bindings: control, constants: shibata },
    resume: { shader: 'label/shibata', entryPoint: 'resume', bindings: control, constants: shibata },
  };
}

export function label(options: LabelOptions = {}): OperatorFunction<GpuFrame, GpuFrame> {
  const o = validateLabelOptions(options);
  const direct = o.algorithm === 'shibata' ? null : directAlgorithms[o.algorithm];
  const untilConverged = !direct && o.passes === 'until-converged';

  return gpuNode(async (ctx, scope) => {
    const { device, pool } = ctx;
    if (o.algorithm === 'ha4' && o.ha4Segments === 'ballot' && !ctx.features.subgroups) {
      throw new InvalidOptionError(`label: ha4Segments 'ballot' needs the subgroups feature, which ${ctx.adapterName} lacks`);
    }
    const k: Record<string, Kernel> = await ctx.pipelines.acquireAll(
      specs(o.algorithm, { connectivity: o.connectivity, ha4Segments: o.ha4Segments ?? 'bits' }),
    );
    const layout = uniformLayout('label/shibata', 'Params');
    const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
    const params = pool.acquire('label:params', layout.size, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
    const info = pool.acquire('label:info', 32, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
    // Shibata's indirect dispatch arguments and control bind group; the direct algorithms need neither.
    const args = direct ? null : pool.acquire('label:args', 16, GPUBufferUsage.STORAGE | GPUBufferUsage.INDIRECT);
    const check = untilConverged ? pool.acquire('label:check', 32, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST) : null;
    const groupsControl = direct ? null : bindGroup(device, 'label:control', k.reset, [params, info, args!]);

    let size = '';
    let L: GPUBuffer | null = null;
    let out: GPUBuffer | null = null;
    let blocks: GPUBuffer | null = null;
    let maskIn: GPUBuffer | null = null;
    let pixelGroup: GPUBindGroup | null = null;
    let pixels = 0;
    let canonicalThreads = 0;
    let paramValues: Record<string, number> = {};
    // Multi-level algorithms (tiles) get one uniform buffer and bind group per level, made when first needed.
    const levels = new Map<number, { buffer: GPUBuffer; group: GPUBindGroup }>();
    const dropLevels = () => {
      for (const l of levels.values()) pool.release(l.buffer);
      levels.clear();
    };
    const groupForLevel = (level: number): GPUBindGroup => {
      let l = levels.get(level);
      if (!l) {
        const buffer = pool.acquire(`label:params${level}`, layout.size, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
        device.queue.writeBuffer(buffer, 0, packUniform(layout, { ...paramValues, level }));
        l = { buffer, group: bindGroup(device, `label:level${level}`, k.compress, [buffer, maskIn!, L!, info, blocks!, out!]) };
        levels.set(level, l);
      }
      return l.group;
    };
    let lastPasses = 0;

    const resize = (f: GpuFrame) => {
      const key = `${f.width}x${f.height}`;
      if (key !== size) {
        size = key;
        pixels = f.width * f.height;
        const [gx, gy] = dispatchSize(pixels, WG, maxDim);
        // Canonical kernels give each invocation `canonicalPixelsPerThread` pixels: one block per workgroup.
        const [cx, cy] = dispatchSize(Math.ceil(pixels / canonicalPixelsPerThread), WG, maxDim);
        canonicalThreads = Math.ceil(pixels / canonicalPixelsPerThread);
        for (const b of [L, out, blocks]) pool.release(b);
        L = pool.acquire('label:L', pixels * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
        out = pool.acquire('label:labels', pixels * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
        blocks = pool.acquire('label:blocks', cx * cy * 4, GPUBufferUsage.STORAGE);
        paramValues = { width: f.width, height: f.height, pixels, groupsX: gx, groupsY: gy, blocks: cx * cy, level: 0 };
        device.queue.writeBuffer(params, 0, packUniform(layout, paramValues));
        maskIn = null;
        lastPasses = 0;
      }
      if (f.mask !== maskIn) {
        maskIn = f.mask;
        dropLevels();
        pixelGroup = bindGroup(device, 'label:pixels', k.compress, [params, f.mask!, L!, info, blocks!, out!]);
      }
    };

    const propagate = (pass: GPUComputePassEncoder, count: number) => {
      for (let i = 0; i < count; i++) {
        pass.setPipeline(k.propagate.pipeline);
        pass.setBindGroup(0, pixelGroup!);
        pass.dispatchWorkgroupsIndirect(args!, 0);
        pass.setPipeline(k.control.pipeline);
        pass.setBindGroup(0, groupsControl!);
        pass.dispatchWorkgroups(1);
      }
    };

    const single = (pass: GPUComputePassEncoder, kernel: Kernel, group: GPUBindGroup) => {
      pass.setPipeline(kernel.pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(1);
    };

    const finish = (f: GpuFrame, encoder: GPUCommandEncoder, rec = new PassRecorder(encoder, f.profile, `label:${o.algorithm}`, o.profileKernels)): GpuFrame => {
      rec.stage('compress', (pass) => dispatch1d(pass, k.compress, pixelGroup!, canonicalThreads, WG, maxDim));
      rec.end();
      if (o.canonical) {
        const can = new PassRecorder(encoder, f.profile, 'label:canonical', o.profileKernels);
        // The scan rewrites the block counts in place, so it runs once even when repeating.
        can.stage('scan', (pass) => single(pass, k.scan, pixelGroup!));
        for (let r = 0; r < o.repeat; r++) {
          can.stage('rank', (pass) => dispatch1d(pass, k.rank, pixelGroup!, canonicalThreads, WG, maxDim));
          can.stage('relabel', (pass) => dispatch1d(pass, k.relabel, pixelGroup!, canonicalThreads, WG, maxDim));
        }
        can.end();
      }
      const labels = o.canonical ? out! : L!;
      const reads: ReadRequest[] = [...f.reads, { key: 'labeling', buffer: info, offset: 0, size: 32, decode: !direct ? decodeLabelInfo : o.canonical ? decodeDirectInfo : decodeDirectRawInfo }];
      if (o.readLabels) {
        reads.push({ key: 'labels', buffer: labels, offset: 0, size: pixels * 4, decode: (b) => new Uint32Array(b) });
      }
      return withFrame(f, {
        encoder,
        labels,
        labeling: { connectivity: o.connectivity, algorithm: o.algorithm, canonical: o.canonical, info },
        reads,
      });
    };

    const converge = async (f: GpuFrame, encoder: GPUCommandEncoder): Promise<GpuFrame> => {
      let batch = Math.max(firstBatch, lastPasses + 2);
      for (;;) {
        encoder.copyBufferToBuffer(info, 0, check!, 0, 32);
        ctx.submit([encoder.finish()]);
        await check!.mapAsync(GPUMapMode.READ);
        const state = decodeLabelInfo(check!.getMappedRange().slice(0));
        check!.unmap();
        if (scope.closed) return f;
        encoder = device.createCommandEncoder({ label: `frame:${f.seq}:label` });
        if (state.converged) {
          lastPasses = state.passes;
          return finish(f, encoder);
        }
        batch *= 2;
        const pass = encoder.beginComputePass({ label: 'label:shibata', timestampWrites: f.profile?.pass('label:shibata') });
        single(pass, k.resume, groupsControl!);
        propagate(pass, batch);
        pass.end();
      }
    };

    return {
      process(f) {
        if (!f.mask) throw new InvalidFrameError('label: the frame has no mask; put threshold() before label()');
        resize(f);
        if (direct) {
          // No reset: a direct algorithm's only output in `info` is the count, which the scan kernel writes.
          const rec = new PassRecorder(f.encoder, f.profile, `label:${o.algorithm}`, o.profileKernels);
          for (let r = 0; r < o.repeat; r++) {
            direct.record(rec, k, pixelGroup!, { width: f.width, height: f.height, pixels, maxPerDim: maxDim, groupForLevel });
            // All but the last compression are part of the repeated work; finish() records the last.
            if (r + 1 < o.repeat) rec.stage('compress', (pass) => dispatch1d(pass, k.compress, pixelGroup!, canonicalThreads, WG, maxDim));
          }
          return finish(f, f.encoder, rec);
        }
        const pass = f.encoder.beginComputePass({ label: 'label:shibata', timestampWrites: f.profile?.pass('label:shibata') });
        for (let r = 0; r < o.repeat; r++) {
          single(pass, k.reset, groupsControl!);
          dispatch1d(pass, k.prepare, pixelGroup!, pixels, WG, maxDim);
          propagate(pass, untilConverged ? Math.max(firstBatch, lastPasses + 2) : (o.passes as number));
        }
        pass.end();
        return untilConverged ? converge(f, f.encoder) : finish(f, f.encoder);
      },
      dispose() {
        ctx.pipelines.releaseAll(k);
        dropLevels();
        for (const b of [params, info, args, check, L, out, blocks]) pool.release(b);
      },
    };
  });
}
