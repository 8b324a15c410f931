// The per-component features record, shared by features.wgsl and components.wgsl (nodes/components/features/results.ts reads
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

// Gray histograms per component (`features({ histogram: true })`): HIST_BINS bins of gray >> HIST_SHIFT. They
// live in a buffer of their own (`hist`, HIST_BINS bins per record) rather than in the record, so that features
// without them keep their records, registers and workgroup memory as they were; the pipelines that make them are
// compiled with HIST set. The results carry them after the maxResults records.
override HIST: bool = false;
const HIST_BINS: u32 = 16u;
const HIST_SHIFT: u32 = 4u;
// With SPATIAL as well (`histogram: 'spatial'`), each bin also sums its pixels' columns and rows, so that the
// pixels of each gray can be placed within the component (where each of two objects in one blob lies): a bin is then
// HIST_WORDS words, the count, Σx (low word, high word) and Σy (low, high), exact in 64 bits as the record's sums.
override SPATIAL: bool = false;
fn histWords() -> u32 { return select(1u, 5u, SPATIAL); }
fn histResultAt(slot: u32) -> u32 { return HEAD + params.maxResults * (REC + 1u) + slot * HIST_BINS * histWords(); }

// Adds v (low word, high word) into the 64-bit sum at hist[at], hist[at + 1]: the carry out of the low word shows
// in the old value the atomic returns. Needs `hist` from the including shader.
fn addHist64(at: u32, v: vec2<u32>) {
  if (v.x != 0u) {
    let old = atomicAdd(&hist[at], v.x);
    if (old > 0xffffffffu - v.x) { atomicAdd(&hist[at + 1u], 1u); }
  }
  if (v.y != 0u) { atomicAdd(&hist[at + 1u], v.y); }
}

// How the fields of two records of one component merge: the one rule every merge follows.
const SUMS64: array<u32, 6> = array<u32, 6>(SX, SY, SXX, SYY, SXY, SG); // low word at f, high at f+1, with the carry
const SUMS: array<u32, 2> = array<u32, 2>(AREA, PERIM);
const MINS: array<u32, 3> = array<u32, 3>(X0, Y0, GMIN);
const MAXS: array<u32, 3> = array<u32, 3>(X1, Y1, GMAX);

// A record's value before anything is added: sums 0, minima all ones.
fn identity(f: u32) -> u32 { return select(0u, 0xffffffffu, f == MINS[0] || f == MINS[1] || f == MINS[2]); }

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
