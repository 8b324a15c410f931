/**
 * Features from a frame's canonical labels (`label()` before `features()`): one invocation per 32-pixel word of a
 * row flushes one set of atomics per run piece (or, `method: 'per-pixel'`, the naive pass with every atomic for
 * every pixel, kept for the benchmark), then the compact kernel filters and writes the results.
 */
import type { GpuContext } from '../GpuContext.js';
import type { GpuFrame } from '../GpuFrame.js';
import type { Kernel, KernelSpec } from '../PipelineCache.js';
import { bindGroup, dispatch1d } from '../kernels.js';
import { packUniform, uniformLayout } from '../uniforms.js';
import { InvalidFrameError } from '../errors.js';
import { PassRecorder } from '../PassRecorder.js';
import { record } from './record.js';
import { featureResults, filterParams, type FeaturesPath, type FeaturesSettings } from './FeaturesPath.js';

const WG = 256;

export async function labelledFeatures(ctx: GpuContext, s: FeaturesSettings): Promise<FeaturesPath> {
  const { device, pool } = ctx;
  const group = ['uniform', 'read-only-storage', 'read-only-storage', 'read-only-storage', 'storage', 'read-only-storage', 'storage'] as const;
  const specs: Record<string, KernelSpec> = {
    clear: { shader: 'features', entryPoint: 'clear', bindings: group },
    accumulate: { shader: 'features', entryPoint: s.method === 'fused' ? 'accumulate' : 'accumulatePixels', bindings: group },
    compact: { shader: 'features', entryPoint: 'compact', bindings: group },
  };
  const k: Record<string, Kernel> = await ctx.pipelines.acquireAll(specs);
  const layout = uniformLayout('features', 'Params');
  const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
  const params = pool.acquire('features:params', layout.size, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
  const out = featureResults(ctx, s, 'features');
  const results = out.buffer;
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
      capacity = Math.min(s.maxComponents !== undefined ? s.maxComponents + 1 : Math.min(most, (1 << 20) + 1), bytesCap);
      pool.release(acc);
      acc = pool.acquire('features:acc', capacity * record.REC * 4, GPUBufferUsage.STORAGE);
      fresh = true;
      device.queue.writeBuffer(params, 0, packUniform(layout, { width: f.width, height: f.height, pixels: f.width * f.height, capacity, ...filterParams(s) }));
      inputs = [];
    }
    const now = [f.labels!, f.mask!, f.gray!, f.labeling!.info];
    if (now.some((b, i) => b !== inputs[i])) {
      inputs = now;
      bind = bindGroup(device, 'features:group', k.clear, [params, f.labels!, f.mask!, f.gray!, acc!, f.labeling!.info, results]);
    }
  };

  return {
    record(f) {
      if (!f.labeling!.canonical) throw new InvalidFrameError('features: needs canonical labels (label({ canonical: true })), or no label() at all');
      resize(f);
      const rec = new PassRecorder(f.encoder, f.profile, `features:${s.method}`, s.profileKernels);
      const words = Math.ceil(f.width / 32) * f.height;
      if (fresh) {
        fresh = false;
        rec.stage('clear', (pass) => dispatch1d(pass, k.clear, bind!, capacity * record.REC, WG, maxDim));
      }
      for (let r = 0; r < s.repeat; r++) {
        rec.stage('accumulate', (pass) => dispatch1d(pass, k.accumulate, bind!, s.method === 'fused' ? words : f.width * f.height, WG, maxDim));
        rec.stage('compact', (pass) => dispatch1d(pass, k.compact, bind!, capacity - 1, WG, maxDim));
      }
      rec.end();
      return out.read(f);
    },
    dispose() {
      ctx.pipelines.releaseAll(k);
      for (const b of [params, results, acc]) pool.release(b);
    },
  };
}
