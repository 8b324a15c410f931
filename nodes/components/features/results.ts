/**
 * The results both ways into `features()` write: a header, then (label, record) per kept component, the record laid
 * out by shaders/common/record.wgsl, whose constants are read here from the WGSL itself; and their decoding into
 * struct-of-arrays features, derived values from the exact integer sums (componentFeatures.ts).
 */
import { withRead, type GpuFrame } from '../../../src/core/GpuFrame.js';
import type { SetAllocator } from '../../../src/core/PerFrame.js';
import { wgslConstant } from '../../../src/core/uniforms.js';
import { emptyFeatures, setMoments, type ComponentFeatures } from '../../../src/components/componentFeatures.js';

const names = ['HEAD', 'REC', 'AREA', 'SX', 'SY', 'SXX', 'SYY', 'SXY', 'X0', 'Y0', 'X1', 'Y1', 'PERIM', 'SG', 'GMIN', 'GMAX', 'HIST_BINS'] as const;

/** Word offsets of the record's fields, and HEAD and REC (shaders/common/record.wgsl). */
export const record: Readonly<Record<(typeof names)[number], number>> = Object.fromEntries(
  names.map((n) => [n, wgslConstant('components/features', n)]),
) as Record<(typeof names)[number], number>;

/** `features()`'s histogram: none, counts, or counts with their pixels' places (`'spatial'`). */
export type HistogramKind = boolean | 'spatial';

/** Words a histogram bin takes: none, its count, or its count and 64-bit Σx and Σy (shaders/common/record.wgsl). */
export function binWords(histogram: HistogramKind): number {
  return histogram === 'spatial' ? 5 : histogram ? 1 : 0;
}

/** The histogram's pipeline constants (HIST, SPATIAL of shaders/common/record.wgsl). */
export function histogramConstants(histogram: HistogramKind): { HIST: number; SPATIAL: number } {
  return { HIST: histogram ? 1 : 0, SPATIAL: histogram === 'spatial' ? 1 : 0 };
}

/** Words the results buffer holds per component: its label and record, and its histogram when asked for. */
export function resultWords(histogram: HistogramKind): number {
  return record.REC + 1 + binWords(histogram) * record.HIST_BINS;
}

/** Bytes of the results buffer for `maxResults` components, with their histograms after the records or not. */
export function resultBytes(maxResults: number, histogram: HistogramKind = false): number {
  return (record.HEAD + maxResults * resultWords(histogram)) * 4;
}

/**
 * The histograms the kernels accumulate, HIST_BINS bins of binWords words for each of `records` records (labels or
 * parts); without histograms a placeholder the kernels never touch (the binding is in the layout either way).
 */
export function histogramCounts(alloc: SetAllocator, records: number, histogram: HistogramKind): GPUBuffer {
  return alloc.buffer('hist', histogram ? records * record.HIST_BINS * binWords(histogram) * 4 : 16, GPUBufferUsage.STORAGE);
}

/** The results buffer of a frame set, and the read request that decodes it. */
export function featureResults(alloc: SetAllocator, maxResults: number, histogram: HistogramKind) {
  const bytes = resultBytes(maxResults, histogram);
  const buffer = alloc.buffer('results', bytes, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
  return {
    buffer,
    read(f: GpuFrame): GpuFrame {
      const { width, height } = f;
      // Decoded in place: every value is copied into the features' own arrays.
      return withRead(f, { key: 'features', buffer, offset: 0, size: bytes, inPlace: true, decode: (b) => decodeFeatures(b, width, height, maxResults, histogram) });
    },
  };
}

/**
 * Result slots in ascending label order. Labels are canonical (1 + the components before in raster order), so they
 * are at most the frame's component count: each slot is placed at its label in a table that long, read back in
 * order (11 µs for 1024 components on the development machine). Labels much sparser than that, or a label seen
 * twice, take a least-significant-digit radix sort, 11 bits a pass, stopping once no label has bits left (30 µs for
 * 1024; bench/timing/decode.ts).
 */
function byLabel(v: Uint32Array, n: number, first: number, stride: number): Uint32Array {
  const labels = new Uint32Array(n);
  let all = 0;
  let most = 0;
  for (let i = 0; i < n; i++) {
    const l = (labels[i] = v[first + i * stride]);
    all |= l;
    if (l > most) most = l;
  }
  if (most <= 4 * n + 4096) {
    const place = new Int32Array(most + 1).fill(-1);
    let placed = 0;
    for (let i = 0; i < n; i++) {
      if (place[labels[i]] < 0) placed++;
      place[labels[i]] = i;
    }
    if (placed === n) {
      const order = new Uint32Array(n);
      for (let l = 0, k = 0; l <= most; l++) if (place[l] >= 0) order[k++] = place[l];
      return order;
    }
  }
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let next = new Uint32Array(n);
  const count = new Uint32Array(2048);
  for (let shift = 0; shift < 32 && all >>> shift !== 0; shift += 11) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(labels[i] >>> shift) & 2047]++;
    let sum = 0;
    for (let d = 0; d < 2048; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const slot = order[i];
      next[count[(labels[slot] >>> shift) & 2047]++] = slot;
    }
    [order, next] = [next, order];
  }
  return order;
}

/**
 * Decodes the compacted results buffer: [passed, count, overflow, 0, (label, record) × maxResults], then with
 * `histogram` HIST_BINS bins × maxResults in the same slots (a bin: its count, and with `'spatial'` its pixels' Σx
 * and Σy, 64 bits each).
 */
export function decodeFeatures(bytes: ArrayBuffer, width: number, height: number, maxResults: number, histogram: HistogramKind = false): ComponentFeatures {
  const v = new Uint32Array(bytes);
  const passed = v[0];
  const n = Math.min(passed, maxResults);
  const stride = record.REC + 1;
  const order = byLabel(v, n, record.HEAD, stride);
  const f = emptyFeatures(n, passed, passed > maxResults, v[1], v[2] !== 0);
  // Field offsets and the arrays as locals (the record's table is a dictionary object; a property load per value
  // and a closure per address cost about a sixth of the decode), values straight into the arrays, no object per
  // component: this runs for every component of every frame (bench/timing/decode.ts).
  const { HEAD, AREA, SX, SY, SXX, SYY, SXY, X0, Y0, X1, Y1, PERIM, SG, GMIN, GMAX } = record;
  const { label, area: areas, x0: x0s, y0: y0s, x1: x1s, y1: y1s, perimeter, minGray, maxGray, touchesBorder } = f;
  const hi = 4294967296; // 64-bit sums: low word, then high word
  const right = width - 1;
  const bottom = height - 1;
  for (let i = 0; i < n; i++) {
    const r = HEAD + order[i] * stride + 1;
    const area = v[r + AREA];
    const x0 = v[r + X0];
    const y0 = v[r + Y0];
    const x1 = v[r + X1];
    const y1 = v[r + Y1];
    label[i] = v[r - 1];
    areas[i] = area;
    x0s[i] = x0;
    y0s[i] = y0;
    x1s[i] = x1;
    y1s[i] = y1;
    perimeter[i] = v[r + PERIM];
    minGray[i] = v[r + GMIN];
    maxGray[i] = v[r + GMAX];
    touchesBorder[i] = x0 === 0 || y0 === 0 || x1 === right || y1 === bottom ? 1 : 0;
    setMoments(f, i, area, v[r + SX] + v[r + SX + 1] * hi, v[r + SY] + v[r + SY + 1] * hi, v[r + SXX] + v[r + SXX + 1] * hi, v[r + SYY] + v[r + SYY + 1] * hi, v[r + SXY] + v[r + SXY + 1] * hi, v[r + SG] + v[r + SG + 1] * hi, x0, y0);
  }
  if (histogram) {
    const bins = record.HIST_BINS;
    const words = binWords(histogram);
    const first = record.HEAD + maxResults * stride;
    const h = (f.histogram = new Uint32Array(n * bins));
    // Copied word by word: a subarray per component would be an object per component per frame.
    if (words === 1) {
      for (let i = 0; i < n; i++) {
        const from = first + order[i] * bins;
        for (let b = 0; b < bins; b++) h[i * bins + b] = v[from + b];
      }
    } else {
      const hx = (f.histogramX = new Float64Array(n * bins));
      const hy = (f.histogramY = new Float64Array(n * bins));
      for (let i = 0; i < n; i++) {
        for (let b = 0; b < bins; b++) {
          const at = first + (order[i] * bins + b) * words;
          const c = v[at];
          h[i * bins + b] = c;
          hx[i * bins + b] = c > 0 ? (v[at + 1] + v[at + 2] * hi) / c : NaN;
          hy[i * bins + b] = c > 0 ? (v[at + 3] + v[at + 4] * hi) / c : NaN;
        }
      }
    }
  }
  return f;
}
