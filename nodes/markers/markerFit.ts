/**
 * Marker fit and reading (shaders/markers/fit.wgsl): one workgroup per candidate and marker size finds its quad,
 * refines the corners on the gray image and reads the cells; the host then decodes each grid in the dictionaries of
 * its size (a few bits per candidate), puts the corners in printed order and keeps one marker per place where
 * several threshold windows, or several dictionaries, read one.
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../../src/core/gpuNode.js';
import { withRead, type GpuFrame } from '../../src/core/GpuFrame.js';
import { uniformLayout, wgslConstant } from '../../src/core/uniforms.js';
import { PassRecorder } from '../../src/core/PassRecorder.js';
import { InvalidFrameError } from '../../src/core/errors.js';
import type { GpuLimits } from '../../src/core/GpuContext.js';
import type { DetectedMarker, MarkerResults } from '../../src/core/results.js';
import type { MarkerDictionary } from './MarkerDictionary.js';
import { bySize, type AnyDictionary } from '../../src/markers/anyDictionary.js';
import { listHead } from './markerCandidates.js';
import { distinctMarkers } from '../../src/markers/distinctMarkers.js';
import { blurGate, blurRatio, blurSigmaGate, cellMargin, cellSamples, deblurMargin, deblurStep, deblurSteps, defaultDoubt, printedOrder, pushOut, minStepReach, stepDamping, stepIterations, stepSpacing } from '../../src/markers/params.js';

export interface FitSettings {
  /** One or more. */
  readonly dictionaries: readonly MarkerDictionary[];
  readonly maxCandidates: number;
  readonly correctionRate: number;
  readonly minContrast: number;
  /** Invocations per workgroup, 256 or 512 (default: 512 where the device allows it). */
  readonly invocations?: 256 | 512;
}

/** 512 invocations per candidate where the device's limits allow, else WebGPU's guaranteed 256. */
export function fitInvocations(limits: GpuLimits): 256 | 512 {
  return limits.maxComputeInvocationsPerWorkgroup >= 512 && limits.maxComputeWorkgroupSizeX >= 512 ? 512 : 256;
}

const outWords = wgslConstant('markers/fit', 'OUT');
/** The second read's settings (fit.wgsl's overrides), the CPU reference's own. */
const rereadConstants = { DEBLUR_MARGIN: deblurMargin, DEBLUR_STEPS: deblurSteps, DEBLUR_STEP: deblurStep, BLUR_GATE: blurGate, BLUR_SIGMA_GATE: blurSigmaGate, BLUR_RATIO: blurRatio };
/** Candidate status (S_READ in fit.wgsl): the cells were read and the border is black. */
const READ = 1;
/** S_DEBLURRED: read only with the blur undone (doubtful as read): an exact dictionary match is needed. */
const DEBLURRED = 7;

/** The host's part: grids decoded, corners in printed order, one marker per place. */
export function decodeMarkers(bytes: ArrayBuffer, s: FitSettings, sizes: readonly AnyDictionary[]): MarkerResults {
  const u = new Uint32Array(bytes);
  const f = new Float32Array(bytes);
  const candidates = Math.min(u[0], s.maxCandidates);
  const read: { window: number; label: number; size: number; marker: DetectedMarker }[] = [];
  sizes.forEach((dict, size) => {
    const n = dict.markerSize;
    const grid = new Uint8Array(n * n);
    for (let c = 0; c < candidates; c++) {
      const o = listHead + (size * s.maxCandidates + c) * outWords;
      if (u[o] !== READ && u[o] !== DEBLURRED) continue;
      for (let i = 0; i < n * n; i++) grid[i] = (u[o + 3 + (i >> 5)] >>> (i & 31)) & 1;
      const match = dict.decode(grid, s.correctionRate);
      if (!match || (u[o] === DEBLURRED && match.distance > 0)) continue;
      const seen = [0, 1, 2, 3].map((k): [number, number] => [f[o + 8 + 2 * k], f[o + 9 + 2 * k]]);
      const corners = printedOrder(seen, match.rotation);
      read.push({ window: u[o + 1], label: u[o + 2], size, marker: { ...match, corners, residual: f[o + 7], contrast: f[o + 6] } });
    }
  });
  // The order the CPU reference finds them in: windows in the order given, components in raster order, sizes as listed.
  read.sort((a, b) => a.window - b.window || a.label - b.label || a.size - b.size);
  return { found: distinctMarkers(read.map((r) => r.marker)), candidates, overflow: u[2] !== 0 || u[0] > s.maxCandidates };
}

export function markerFit(s: FitSettings): OperatorFunction<GpuFrame, GpuFrame> {
  return gpuNode('markers:fit', async (node) => {
    const bindings = ['uniform', 'read-only-storage', 'read-only-storage', 'read-only-storage', 'storage'] as const;
    // Twice the invocations where the device allows: one per profile (fit.wgsl FW).
    const invocations = s.invocations ?? fitInvocations(node.ctx.limits);
    const k = await node.kernels({ fit: { shader: 'markers/fit', entryPoint: 'fitMarkers', bindings, constants: { FW: invocations, STEP_SPACING: stepSpacing, STEP_ITERATIONS: stepIterations, MIN_STEP_REACH: minStepReach, STEP_DAMPING: stepDamping, ...rereadConstants } } });
    const layout = uniformLayout('markers/fit', 'Params');
    const maxDim = node.ctx.limits.maxComputeWorkgroupsPerDimension;
    const sizes = bySize(s.dictionaries);
    // Marker sizes are 4×4 to 7×7: fit.wgsl's four cells fields hold them all.
    const cells = Object.fromEntries([0, 1, 2, 3].map((z) => [`cells${z}`, (sizes[z] ?? sizes[0]).markerSize + 2]));
    const bytes = (listHead + sizes.length * s.maxCandidates * outWords) * 4;
    const sets = node.perFrame((size, alloc) => ({
      params: alloc.uniform('params', layout, {
        ...size,
        maxCandidates: s.maxCandidates,
        ...cells,
        samples: cellSamples,
        minContrast: s.minContrast,
        cellMargin,
        pushOut,
        doubt: defaultDoubt,
        blurReach: 2,
      }),
      out: alloc.buffer('out', bytes, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST),
    }));

    return (f) => {
      const cand = f.markerCandidates;
      if (!cand || !f.gray) throw new InvalidFrameError('markers: the frame has no marker candidates');
      const set = sets.take(f);
      const rec = PassRecorder.of(f, 'markers:fit');
      const x = Math.min(s.maxCandidates, maxDim);
      rec.grid('fit', k.fit, set.bind('fit', k.fit, [set.params, f.gray, cand.list, cand.points, set.out]), x, Math.ceil(s.maxCandidates / x), sizes.length);
      rec.end();
      f.encoder.copyBufferToBuffer(cand.list, 0, set.out, 0, listHead * 4);
      return withRead(f, { key: 'markers', buffer: set.out, offset: 0, size: bytes, decode: (b) => decodeMarkers(b, s, sizes), inPlace: true });
    };
  });
}
