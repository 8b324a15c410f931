// The per-component features record, shared by features.wgsl and components.wgsl (nodes/features/results.ts reads
// these constants), how two records of one component merge, and the GPU filter. Needs `params` with the filter
// fields (minArea … dropBorder, width, height).
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

// How each field of two records of one component merges: the one rule every merge follows.
const MERGE_SUM: u32 = 0u;    // u32 sum
const MERGE_SUM64: u32 = 1u;  // low word of a 64-bit sum; the high word follows, with the carry
const MERGE_HIGH: u32 = 2u;   // high word of a 64-bit sum, merged with its low word
const MERGE_MIN: u32 = 3u;
const MERGE_MAX: u32 = 4u;
fn mergeOf(f: u32) -> u32 {
  switch f {
    case SX, SY, SXX, SYY, SXY, SG: { return MERGE_SUM64; }
    case SX + 1u, SY + 1u, SXX + 1u, SYY + 1u, SXY + 1u, SG + 1u: { return MERGE_HIGH; }
    case X0, Y0, GMIN: { return MERGE_MIN; }
    case X1, Y1, GMAX: { return MERGE_MAX; }
    default: { return MERGE_SUM; }
  }
}

// A record's value before anything is added: sums 0, minima all ones.
fn identity(f: u32) -> u32 { return select(0u, 0xffffffffu, mergeOf(f) == MERGE_MIN); }

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
