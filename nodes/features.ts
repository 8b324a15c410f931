/**
 * Component features (CCA) on the GPU, after `label()`: per component area, bounding box, centroid, second-order
 * central moments (orientation, axis lengths, eccentricity), perimeter, mean/min/max gray and a border flag.
 * Accumulated exactly in integers (64-bit sums from two u32 words) with one set of atomics per run piece, filtered
 * on the GPU, and read back as a small struct-of-arrays list sorted by canonical label (`result.features`).
 *
 * @example
 * fromPixels(ctx, images).pipe(threshold({ method: 'otsu' }), label({ algorithm: 'auto' }), features({ minArea: 20 }), readResults())
 *   .subscribe((r) => console.log(r.features?.cx));
 *
 * Needs canonical labels (the default of `label`) and the gray image `threshold` leaves on the frame. Throws
 * `InvalidOptionError` for bad options; `InvalidFrameError` on the stream for a frame without labels.
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../src/gpuNode.js';
import { withRead, type GpuFrame } from '../src/GpuFrame.js';
import type { Kernel, KernelSpec } from '../src/PipelineCache.js';
import { bindGroup, dispatch1d } from '../src/kernels.js';
import { packUniform, uniformLayout } from '../src/uniforms.js';
import { InvalidFrameError, InvalidOptionError } from '../src/errors.js';
import { PassRecorder } from '../src/PassRecorder.js';
import { decodeFeatures, record } from '../src/features/record.js';

export interface FeatureFilter {
  minArea?: number;
  maxArea?: number;
  /** Bounds on the bounding box's shorter and longer sides. */
  minSide?: number;
  maxSide?: number;
  /** Longest allowed ratio of the box's longer to shorter side. */
  maxAspect?: number;
  /** Drop components whose box touches the frame border. */
  dropBorder?: boolean;
}

export interface FeaturesOptions extends FeatureFilter {
  /** Components read back per frame at most (default 4096); more set `truncated`. */
  maxResults?: number;
  /** Components tracked per frame at most (default: every component a frame can hold, up to 2^20). */
  maxComponents?: number;
  /** `fused` (default): one set of atomics per run piece. `per-pixel`: the naive pass, for comparison. */
  method?: 'fused' | 'per-pixel';
  /** Analysis only: time each kernel in a pass of its own. */
  profileKernels?: boolean;
  /** Analysis only: record the kernels this many times per frame, for steady-state timing (see `label`). */
  repeat?: number;
}

const WG = 256;

function checkCount(name: string, v: number | undefined, min: number): void {
  if (v !== undefined && (!Number.isInteger(v) || v < min)) throw new InvalidOptionError(`features: ${name} must be an integer ≥ ${min}, got ${v}`);
}

export function features(options: FeaturesOptions = {}): OperatorFunction<GpuFrame, GpuFrame> {
  const method = options.method ?? 'fused';
  if (method !== 'fused' && method !== 'per-pixel') throw new InvalidOptionError(`features: method must be 'fused' or 'per-pixel', got ${String(method)}`);
  checkCount('minArea', options.minArea, 0);
  checkCount('maxArea', options.maxArea, 0);
  checkCount('minSide', options.minSide, 0);
  checkCount('maxSide', options.maxSide, 0);
  checkCount('maxResults', options.maxResults, 1);
  checkCount('maxComponents', options.maxComponents, 1);
  if (options.maxAspect !== undefined && !(options.maxAspect >= 1)) throw new InvalidOptionError(`features: maxAspect must be ≥ 1, got ${options.maxAspect}`);
  const maxResults = options.maxResults ?? 4096;
  const repeat = options.repeat ?? 1;
  checkCount('repeat', repeat, 1);

  return gpuNode(async (ctx) => {
    const { device, pool } = ctx;
    const group = ['uniform', 'read-only-storage', 'read-only-storage', 'read-only-storage', 'storage', 'read-only-storage', 'storage'] as const;
    const specs: Record<string, KernelSpec> = {
      clear: { shader: 'features', entryPoint: 'clear', bindings: group },
      accumulate: { shader: 'features', entryPoint: method === 'fused' ? 'accumulate' : 'accumulatePixels', bindings: group },
      compact: { shader: 'features', entryPoint: 'compact', bindings: group },
    };
    const k: Record<string, Kernel> = await ctx.pipelines.acquireAll(specs);
    const layout = uniformLayout('features', 'Params');
    const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
    const params = pool.acquire('features:params', layout.size, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
    const resultBytes = 8 + maxResults * (record.REC + 1) * 4;
    const results = pool.acquire('features:results', resultBytes, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
    let size = '';
    let capacity = 0;
    let acc: GPUBuffer | null = null;
    let inputs: GPUBuffer[] = [];
    let bind: GPUBindGroup | null = null;
    // New accumulators are cleared once; afterwards the compact kernel leaves them cleared.
    let fresh = false;

    const resize = (f: GpuFrame) => {
      const key = `${f.width}x${f.height}`;
      if (key !== size) {
        size = key;
        const most = Math.ceil((f.width * f.height) / 2) + 1;
        const bytesCap = Math.floor(ctx.limits.maxStorageBufferBindingSize / (record.REC * 4));
        capacity = Math.min(options.maxComponents !== undefined ? options.maxComponents + 1 : Math.min(most, (1 << 20) + 1), bytesCap);
        pool.release(acc);
        acc = pool.acquire('features:acc', capacity * record.REC * 4, GPUBufferUsage.STORAGE);
        fresh = true;
        device.queue.writeBuffer(
          params,
          0,
          packUniform(layout, {
            width: f.width,
            height: f.height,
            pixels: f.width * f.height,
            capacity,
            maxResults,
            minArea: options.minArea ?? 0,
            maxArea: options.maxArea ?? 0xffffffff,
            minSide: options.minSide ?? 0,
            maxSide: options.maxSide ?? 0xffffffff,
            maxAspect: options.maxAspect ?? 3.4e38,
            dropBorder: options.dropBorder ? 1 : 0,
          }),
        );
        inputs = [];
      }
      const now = [f.labels!, f.mask!, f.gray!, f.labeling!.info];
      if (now.some((b, i) => b !== inputs[i])) {
        inputs = now;
        bind = bindGroup(device, 'features:group', k.clear, [params, f.labels!, f.mask!, f.gray!, acc!, f.labeling!.info, results]);
      }
    };

    return {
      process(f) {
        if (!f.labels || !f.labeling) throw new InvalidFrameError('features: the frame has no labels; put label() before features()');
        if (!f.labeling.canonical) throw new InvalidFrameError('features: needs canonical labels (label({ canonical: true }))');
        if (!f.gray || !f.mask) throw new InvalidFrameError('features: the frame has no gray image or mask; put threshold() first');
        resize(f);
        const rec = new PassRecorder(f.encoder, f.profile, `features:${method}`, options.profileKernels ?? false);
        const words = Math.ceil(f.width / 32) * f.height;
        if (fresh) {
          fresh = false;
          rec.stage('clear', (pass) => dispatch1d(pass, k.clear, bind!, capacity * record.REC, WG, maxDim));
        }
        for (let r = 0; r < repeat; r++) {
          rec.stage('accumulate', (pass) => dispatch1d(pass, k.accumulate, bind!, method === 'fused' ? words : f.width * f.height, WG, maxDim));
          rec.stage('compact', (pass) => dispatch1d(pass, k.compact, bind!, capacity - 1, WG, maxDim));
        }
        rec.end();
        const { width, height } = f;
        return withRead(f, { key: 'features', buffer: results, offset: 0, size: resultBytes, decode: (b) => decodeFeatures(b, width, height, maxResults) });
      },
      dispose() {
        ctx.pipelines.releaseAll(k);
        for (const b of [params, results, acc]) pool.release(b);
      },
    };
  });
}
