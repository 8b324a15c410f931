/**
 * The results both ways into `features()` write: a header, then (label, record) per kept component, the record laid
 * out by shaders/common/record.wgsl, whose constants are read here from the WGSL itself; and their decoding into
 * struct-of-arrays features, derived values from the exact integer sums (componentFeatures.ts).
 */
import { withRead, type GpuFrame } from '../../src/GpuFrame.js';
import type { SetAllocator } from '../../src/PerFrame.js';
import { wgslConstant } from '../../src/uniforms.js';
import { emptyFeatures, setComponent, type ComponentFeatures, type ComponentSums } from '../../src/componentFeatures.js';

const names = ['HEAD', 'REC', 'AREA', 'SX', 'SY', 'SXX', 'SYY', 'SXY', 'X0', 'Y0', 'X1', 'Y1', 'PERIM', 'SG', 'GMIN', 'GMAX'] as const;

/** Word offsets of the record's fields, and HEAD and REC (shaders/common/record.wgsl). */
export const record: Readonly<Record<(typeof names)[number], number>> = Object.fromEntries(
  names.map((n) => [n, wgslConstant('features', n)]),
) as Record<(typeof names)[number], number>;

/** Bytes of the results buffer for `maxResults` components. */
export function resultBytes(maxResults: number): number {
  return (record.HEAD + maxResults * (record.REC + 1)) * 4;
}

/** The results buffer of a frame set, and the read request that decodes it. */
export function featureResults(alloc: SetAllocator, maxResults: number) {
  const bytes = resultBytes(maxResults);
  const buffer = alloc.buffer('results', bytes, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
  return {
    buffer,
    read(f: GpuFrame): GpuFrame {
      const { width, height } = f;
      return withRead(f, { key: 'features', buffer, offset: 0, size: bytes, decode: (b) => decodeFeatures(b, width, height, maxResults) });
    },
  };
}

/** Decodes the compacted results buffer: [passed, count, overflow, 0, (label, record) × passed]. */
export function decodeFeatures(bytes: ArrayBuffer, width: number, height: number, maxResults: number): ComponentFeatures {
  const v = new Uint32Array(bytes);
  const passed = v[0];
  const n = Math.min(passed, maxResults);
  const stride = record.REC + 1;
  const at = (slot: number) => record.HEAD + slot * stride;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => v[at(a)] - v[at(b)]);
  const f = emptyFeatures(n, passed, passed > maxResults, v[1], v[2] !== 0);
  const u64 = (at: number) => v[at] + v[at + 1] * 4294967296;
  order.forEach((slot, i) => {
    const r = at(slot) + 1;
    const sums: ComponentSums = {
      area: v[r + record.AREA],
      sx: u64(r + record.SX),
      sy: u64(r + record.SY),
      sxx: u64(r + record.SXX),
      syy: u64(r + record.SYY),
      sxy: u64(r + record.SXY),
      x0: v[r + record.X0],
      y0: v[r + record.Y0],
      x1: v[r + record.X1],
      y1: v[r + record.Y1],
      perim: v[r + record.PERIM],
      sg: u64(r + record.SG),
      gmin: v[r + record.GMIN],
      gmax: v[r + record.GMAX],
    };
    setComponent(f, i, v[r - 1], sums, width, height);
  });
  return f;
}
