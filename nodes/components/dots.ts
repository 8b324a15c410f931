/**
 * Dots: round blobs (retro-reflective dots, circular markers) among the components `features()` kept, each with a
 * gray-weighted subpixel centre and the ellipse of its second moments. After `threshold()` → `label()` →
 * `features()`: one workgroup per kept component measures it again over its box on the GPU (shaders/components/dots.wgsl),
 * with the gray image and the labels; the host keeps those whose boundary follows their ellipse (`isRoundDot`).
 *
 * @example
 * fromCamera(ctx).pipe(threshold({ level: 200 }), label(), features({ minArea: 12 }), dots(), readResults())
 *   .subscribe((r) => console.log(r.dots)); // [{ label, x, y, majorAxis, minorAxis, orientation, … }]
 *
 * Throws `InvalidOptionError` for bad options; `InvalidFrameError` on the stream for a frame without canonical
 * labels or features. The CPU reference is `dotsCpu` (src/reference/).
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../../src/core/gpuNode.js';
import { withRead, type GpuFrame } from '../../src/core/GpuFrame.js';
import { uniformLayout, wgslConstant } from '../../src/core/uniforms.js';
import { PassRecorder } from '../../src/core/PassRecorder.js';
import { InvalidFrameError, InvalidOptionError } from '../../src/core/errors.js';
import type { DetectedDot } from '../../src/core/results.js';
import { dotOf, isRoundDot, type DotRule } from '../../src/components/dotRule.js';
import { record } from './features/results.js';
import { checkOptions } from '../../src/core/checkOptions.js';

export interface DotsOptions extends DotRule {
  /** Components whose box has a longer side are not measured (default 256). */
  maxSide?: number;
}

const outWords = wgslConstant('components/dots', 'OUT');

function decodeDots(bytes: ArrayBuffer, maxResults: number, rule: DotRule): DetectedDot[] {
  const u = new Uint32Array(bytes);
  const f = new Float32Array(bytes);
  const found: DetectedDot[] = [];
  for (let e = 0; e < Math.min(u[0], maxResults); e++) {
    const o = 1 + e * outWords;
    if (u[o + 1] === 0) continue; // not measured (box over maxSide)
    const d = dotOf(u[o], u[o + 1], f[o + 2], f[o + 3], f[o + 4], f[o + 5], f[o + 6], f[o + 7]);
    if (isRoundDot(d, rule)) found.push(d);
  }
  return found.sort((a, b) => a.label - b.label);
}

export function dots(options: DotsOptions = {}): OperatorFunction<GpuFrame, GpuFrame> {
  checkOptions('dots', options, ['maxSide', 'maxSpread', 'maxEccentricity']);
  const maxSide = options.maxSide ?? 256;
  if (!Number.isInteger(maxSide) || maxSide < 1 || maxSide > 4096) throw new InvalidOptionError(`dots: maxSide must be an integer 1..4096, got ${maxSide}`);
  for (const [name, v, max] of [['maxSpread', options.maxSpread, 10], ['maxEccentricity', options.maxEccentricity, 1]] as const) {
    if (v !== undefined && (typeof v !== 'number' || !(v >= 0 && v <= max))) throw new InvalidOptionError(`dots: ${name} must be a number 0..${max}, got ${String(v)}`);
  }
  const rule: DotRule = { maxSpread: options.maxSpread, maxEccentricity: options.maxEccentricity };
  return gpuNode('dots', async (node) => {
    const bindings = ['uniform', 'read-only-storage', 'read-only-storage', 'read-only-storage', 'storage'] as const;
    const k = await node.kernels({ measure: { shader: 'components/dots', entryPoint: 'measureDots', bindings } });
    const layout = uniformLayout('components/dots', 'Params');
    const maxDim = node.ctx.limits.maxComputeWorkgroupsPerDimension;
    const stride = record.REC + 1;
    // Sized by the features' results (their maxResults) on the first frame of each size.
    let maxResults = 0;
    const sets = node.perFrame((size, alloc) => ({
      params: alloc.uniform('params', layout, {
        ...size,
        maxResults,
        head: record.HEAD,
        stride,
        fx0: record.X0,
        fy0: record.Y0,
        fx1: record.X1,
        fy1: record.Y1,
        fgmin: record.GMIN,
        maxSide,
      }),
      out: alloc.buffer('out', (1 + maxResults * outWords) * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST),
    }));
    return (f) => {
      const features = f.reads.find((r) => r.key === 'features');
      if (!f.gray || !f.labels || !f.labeling?.canonical || !features) {
        throw new InvalidFrameError('dots: the frame needs gray pixels, canonical labels and features: threshold() → label() → features() → dots()');
      }
      maxResults = (features.size / 4 - record.HEAD) / stride;
      const n = maxResults;
      const set = sets.take(f);
      // The features' count of kept components, ahead of the measurements.
      f.encoder.copyBufferToBuffer(features.buffer, 0, set.out, 0, 4);
      const rec = PassRecorder.of(f, 'dots');
      const x = Math.max(1, Math.min(maxResults, maxDim));
      rec.grid('measure', k.measure, set.bind('measure', k.measure, [set.params, f.gray, f.labels, features.buffer, set.out]), x, Math.ceil(maxResults / x));
      rec.end();
      return withRead(f, { key: 'dots', buffer: set.out, offset: 0, size: (1 + maxResults * outWords) * 4, decode: (b) => decodeDots(b, n, rule), inPlace: true });
    };
  });
}
