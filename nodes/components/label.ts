/**
 * Connected-component labeling on the GPU. Reads `frame.mask` (nonzero = foreground), writes `frame.labels`:
 * canonical by default (0 background, components 1..N in raster order of their first pixel), with N and the
 * convergence flag read back as `labeling`.
 *
 * Six algorithms (nodes/label/), each leaving a forest whose roots are the components' first pixels, then one
 * shared compression and canonical renumbering. `shibata` (the default) runs a fixed number of propagation passes
 * with no host round trip between them, passes after convergence skipped on the GPU, and `converged` says whether
 * the last one changed nothing; `passes: 'until-converged'` gives exact labels for any image with one host check
 * per batch of passes. The others finish in a fixed number of dispatches; `'auto'` picks the fastest measured.
 *
 * @example
 * fromPixels(ctx, images).pipe(threshold(), label({ algorithm: 'auto', connectivity: 8 }), readResults())
 *   .subscribe((r) => console.log(r.labeling)); // { count, converged, passes }
 *
 * Throws `InvalidOptionError` for bad options; `InvalidFrameError` on the stream for a frame without a mask.
 * Each frame's buffers belong to it until its results are read; unsubscribing gives every buffer and pipeline
 * reference back.
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../../src/core/gpuNode.js';
import { withFrame, type GpuFrame, type ReadRequest } from '../../src/core/GpuFrame.js';
import type { KernelSpec } from '../../src/core/PipelineCache.js';
import { uniformLayout, wgslConstant } from '../../src/core/uniforms.js';
import { dispatchSize, WG } from '../../src/core/dispatch.js';
import { InvalidFrameError, InvalidOptionError } from '../../src/core/errors.js';
import { checkBoolean, checkOptions } from '../../src/core/checkOptions.js';
import { mapBuffer } from '../../src/core/mapBuffer.js';
import type { LabelInfo } from '../../src/core/results.js';
import { PassRecorder, production, type Analysis } from '../../src/core/PassRecorder.js';
import { algorithms, autoAlgorithm, labelAlgorithms, type LabelAlgorithm } from './label/algorithms.js';
import { labelingBindings, type LabelRun, type LabelSettings } from './label/LabelingAlgorithm.js';

export { autoAlgorithm, labelAlgorithms, type LabelAlgorithm };

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
   * HA4 only: where segments come from: `'bits'` (default: one invocation packs 32 pixels per word from byte
   * reads) or `'ballot'` (subgroup ballots; needs the `subgroups` feature). The byte path measured faster on the
   * GPUs tried, so it is the default everywhere.
   */
  ha4Segments?: 'ballot' | 'bits';
}

/** Enough for typical camera frames (blobs and markers converge in 2–4 passes); maze-like images need more. */
export const defaultPasses = 4;
/** Pixels per invocation of the canonical kernels (PPT in shaders/components/label/canonical.wgsl). */
const canonicalPixelsPerThread = wgslConstant('components/label/canonical', 'PPT');

/** The `info` words every algorithm leaves (shaders/common/labeling.wgsl): all zero means converged, no passes. */
export function decodeLabelInfo(bytes: ArrayBuffer): LabelInfo {
  const v = new Uint32Array(bytes);
  return { count: v[6], converged: v[2] === 0, passes: v[1] };
}

interface LabelChoices extends LabelSettings {
  readonly algorithm: LabelAlgorithm;
  readonly canonical: boolean;
  readonly readLabels: boolean;
}

function validate(options: LabelOptions, analysis: Analysis): LabelChoices {
  checkOptions('label', options, ['algorithm', 'connectivity', 'passes', 'canonical', 'readLabels', 'ha4Segments']);
  checkBoolean('label', 'canonical', options.canonical);
  checkBoolean('label', 'readLabels', options.readLabels);
  // Only Shibata's kernel runs a chosen number of passes; the others finish exact in their own fixed number
  // ('until-converged' is what they do).
  if (typeof options.passes === 'number' && (options.algorithm ?? 'shibata') !== 'shibata') {
    throw new InvalidOptionError(`label: passes applies to algorithm 'shibata' only, not '${String(options.algorithm)}'`);
  }
  const o = {
    algorithm: options.algorithm === 'auto' ? autoAlgorithm() : (options.algorithm ?? 'shibata'),
    connectivity: options.connectivity ?? 8,
    passes: options.passes ?? defaultPasses,
    canonical: options.canonical ?? true,
    readLabels: options.readLabels ?? false,
    ha4Segments: options.ha4Segments ?? 'bits',
    firstBatch: analysis.firstBatch ?? 8,
  };
  if (o.ha4Segments !== 'ballot' && o.ha4Segments !== 'bits') {
    throw new InvalidOptionError(`label: ha4Segments must be 'ballot' or 'bits', got ${String(o.ha4Segments)}`);
  }
  if (!labelAlgorithms.includes(o.algorithm)) {
    throw new InvalidOptionError(`label: algorithm must be one of ${labelAlgorithms.join(', ')} or auto, got ${String(o.algorithm)}`);
  }
  if (o.connectivity !== 4 && o.connectivity !== 8) throw new InvalidOptionError(`label: connectivity must be 4 or 8, got ${o.connectivity}`);
  if (o.passes !== 'until-converged' && (!Number.isInteger(o.passes) || o.passes < 1 || o.passes > 4096)) {
    throw new InvalidOptionError(`label: passes must be an integer 1..4096 or 'until-converged', got ${String(o.passes)}`);
  }
  if (!Number.isInteger(analysis.repeat) || analysis.repeat < 1 || analysis.repeat > 100) {
    throw new InvalidOptionError(`label: repeat must be an integer 1..100, got ${analysis.repeat}`);
  }
  if (analysis.repeat > 1 && o.passes === 'until-converged' && o.algorithm === 'shibata') {
    throw new InvalidOptionError(`label: repeat needs a fixed pass count with shibata`);
  }
  return o;
}

/** The shared compression and canonical kernels (shaders/components/label/canonical.wgsl). */
function canonicalKernels(): Record<'compress' | 'scan' | 'rank' | 'relabel', KernelSpec> {
  const kernel = (entryPoint: string): KernelSpec => ({ shader: 'components/label/canonical', entryPoint, bindings: labelingBindings });
  return { compress: kernel('compress'), scan: kernel('scanBlocks'), rank: kernel('rankRoots'), relabel: kernel('relabel') };
}

export function label(options: LabelOptions = {}): OperatorFunction<GpuFrame, GpuFrame> {
  return labelWith(options, production);
}

/** @internal `label()` as benchmarks run it (kernel repetitions, split passes); not part of the public API. */
export function labelWith(options: LabelOptions, analysis: Analysis): OperatorFunction<GpuFrame, GpuFrame> {
  const o = validate(options, analysis);
  const algorithm = algorithms[o.algorithm];
  const name = `label:${o.algorithm}`;

  return gpuNode(
    'label',
    async (node) => {
      const { ctx } = node;
      if (o.ha4Segments === 'ballot' && o.algorithm === 'ha4' && !ctx.features.subgroups) {
        throw new InvalidOptionError(`label: ha4Segments 'ballot' needs the subgroups feature, which ${ctx.adapterName} lacks`);
      }
      const k = await node.kernels({ ...canonicalKernels(), ...algorithm.kernels(o) });
      const layout = uniformLayout('components/label/canonical', 'Params');
      const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
      const record = algorithm.recorder(k, o);

      const sets = node.perFrame((size, alloc) => {
        const pixels = size.width * size.height;
        // The canonical kernels give each invocation several pixels: one block of counts per workgroup.
        const canonicalThreads = Math.ceil(pixels / canonicalPixelsPerThread);
        const [cx, cy] = dispatchSize(canonicalThreads, WG, maxDim);
        const values = { width: size.width, height: size.height, pixels, blocks: cx * cy, level: 0 };
        const S = GPUBufferUsage.STORAGE;
        return {
          pixels,
          canonicalThreads,
          params: alloc.uniform('params', layout, values),
          // Zero is "converged, no passes, no components": what direct algorithms, which never write it, report.
          info: alloc.buffer('info', 32, S | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST, new Uint32Array(8)),
          L: alloc.buffer('L', pixels * 4, S | GPUBufferUsage.COPY_SRC),
          labels: alloc.buffer('labels', pixels * 4, S | GPUBufferUsage.COPY_SRC),
          blocks: alloc.buffer('blocks', cx * cy * 4, S),
          own: algorithm.buffers?.(alloc, { ...size, layout, values }, o),
        };
      });

      return (f) => {
        if (!f.mask) throw new InvalidFrameError('label: the frame has no mask; put threshold() before label()');
        const set = sets.take(f);
        const resources = [set.params, f.mask, set.L, set.info, set.blocks, set.labels];
        const group = set.bind('labeling', k.compress, resources);
        let encoder = f.encoder;
        let rec = PassRecorder.of(f, name, analysis);
        const run: LabelRun<unknown> = {
          width: f.width,
          height: f.height,
          pixels: set.pixels,
          get rec() {
            return rec;
          },
          group,
          resources,
          bind: set.bind,
          own: set.own,
          async checkpoint(readback) {
            rec.end();
            encoder.copyBufferToBuffer(set.info, 0, readback, 0, 32);
            ctx.submit([encoder.finish()]);
            await mapBuffer(readback, GPUMapMode.READ);
            const info = decodeLabelInfo(readback.getMappedRange().slice(0));
            readback.unmap();
            if (node.closed) return null;
            encoder = ctx.device.createCommandEncoder({ label: `frame:${f.seq}:label` });
            rec = new PassRecorder(encoder, f.profile, name, maxDim, analysis.split);
            return { info, rec };
          },
        };

        const finish = (): GpuFrame => {
          rec.items('compress', k.compress, group, set.canonicalThreads);
          rec.end();
          if (o.canonical) {
            const can = new PassRecorder(encoder, f.profile, 'label:canonical', maxDim, analysis.split);
            // The scan rewrites the block counts in place, so it runs once even when repeating.
            can.grid('scan', k.scan, group, 1);
            for (let r = 0; r < analysis.repeat; r++) {
              can.items('rank', k.rank, group, set.canonicalThreads);
              can.items('relabel', k.relabel, group, set.canonicalThreads);
            }
            can.end();
          }
          const labels = o.canonical ? set.labels : set.L;
          const reads: ReadRequest[] = [{ key: 'labeling', buffer: set.info, offset: 0, size: 32, decode: decodeLabelInfo }];
          if (o.readLabels) reads.push({ key: 'labels', buffer: labels, offset: 0, size: set.pixels * 4, decode: (b) => new Uint32Array(b) });
          return withFrame(f, {
            encoder,
            labels,
            labeling: { connectivity: o.connectivity, algorithm: o.algorithm, canonical: o.canonical, info: set.info },
            reads: [...f.reads, ...reads],
          });
        };

        // With `repeat`, all but the last compression are part of the repeated work; finish() records the last.
        for (let r = 1; r < analysis.repeat; r++) {
          void record(run);
          rec.items('compress', k.compress, group, set.canonicalThreads);
        }
        const waiting = record(run);
        return waiting ? waiting.then(() => (node.closed ? f : finish())) : finish();
      };
    },
    (input) => ({ ...input, labels: true }),
  );
}
