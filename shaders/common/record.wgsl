// The per-component features record, shared by features.wgsl and components.wgsl (src/features/record.ts reads
// these constants), and the GPU filter. Needs `params` with the filter fields (minArea … dropBorder, width, height).
// Results: HEAD words (passed, component count, overflow flag, 0), then (label, record) per kept component.
const HEAD: u32 = 4u;
const REC: u32 = 20u;
const AREA: u32 = 0u;
const SX: u32 = 1u;   // 64-bit sums: lo at k, hi at k+1
const SY: u32 = 3u;
const SXX: u32 = 5u;
const SYY: u32 = 7u;
const SXY: u32 = 9u;
const X0: u32 = 11u;
const Y0: u32 = 12u;
const X1: u32 = 13u;
const Y1: u32 = 14u;
const PERIM: u32 = 15u;
const SG: u32 = 16u;
const GMIN: u32 = 18u;
const GMAX: u32 = 19u;

// A record's value before anything is added: sums 0, minima all ones.
fn identity(f: u32) -> u32 { return select(0u, 0xffffffffu, f == X0 || f == Y0 || f == GMIN); }

// The filter of `features()`: area, bounding-box sides and aspect, frame border.
fn keep(rec: array<u32, REC>) -> bool {
  let area = rec[AREA];
  let bw = rec[X1] - rec[X0] + 1u;
  let bh = rec[Y1] - rec[Y0] + 1u;
  if (area < params.minArea || area > params.maxArea) { return false; }
  if (max(bw, bh) > params.maxSide || min(bw, bh) < params.minSide) { return false; }
  if (f32(max(bw, bh)) > params.maxAspect * f32(min(bw, bh))) { return false; }
  let border = rec[X0] == 0u || rec[Y0] == 0u || rec[X1] + 1u == params.width || rec[Y1] + 1u == params.height;
  return !(border && params.dropBorder != 0u);
}
