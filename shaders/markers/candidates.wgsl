// Marker candidates from one labelling of the inverted adaptive thresholds, stacked (nodes/markers/markerThreshold.ts:
// window i's mask at rows i × (rows + 1) onwards, an empty row between windows): the markers' black borders are
// components. Labels are the union-find forest's roots (each pixel's component's first pixel in raster order of the
// stack, BG for background: `label({ canonical: false })`), so the component table is indexed by root pixel and no
// canonical renumbering is needed. Five passes, no CPU in between:
//   boundaryStats    per pixel: each component's boundary pixels (a background 4-neighbour or the stack's edge;
//                    the empty rows make a window's top and bottom rows boundary as the frame's edge would)
//                    counted, and its box;
//   countCandidates  per root: those whose box is large enough, off the frame's edge and whose boundary is not
//                    noise-like (isCandidate) counted by box side, with their boundary pixels;
//   sizeCutoff       one workgroup: the smallest side kept, so that the candidates of that side and larger fit
//                    the list and their points the point buffer;
//   selectCandidates per root: the candidates of the cutoff side or larger get a slot in the candidate list and a
//                    range of the point buffer;
//   gatherPoints     per pixel: a candidate's boundary pixels written into its range, packed x | y << 16 in the
//                    frame's coordinates (y within its window).
// Slots are taken by atomics in whatever order the GPU runs, so which candidates get one must not depend on that
// order: past maxCandidates (or pointCapacity) the smallest sides are left out, a whole side at a time, and the
// same frame gives the same markers every run. The host sorts what the fit read by window and root.
// The quad fit (markers/fit.wgsl) then takes one workgroup per candidate. Contour tracing is not needed: the quad
// is found from the boundary pixels in any order (AprilTag 3 fits quads from unordered boundary points too).
override WG: u32;
#include "common/index.wgsl"

struct Params {
  width: u32,
  height: u32,         // of the stack
  pixels: u32,         // of the stack
  rows: u32,           // the frame's height: rows per window
  maxCandidates: u32,
  pointCapacity: u32,
  minSide: u32,
  maxBoundary: u32,    // boundary pixels per box half-perimeter, at most (maxBoundaryPerBox)
}

// The component table: per root pixel, COMP words. selectCandidates clears the stats of every root it reads, so
// the table is all zeros again for the next frame without a clear of the whole table.
const COMP: u32 = 6u;
const C_COUNT = 0u;
const C_MINX = 1u;   // stored as 0xffffffff - x, so that a cleared table (zeros) starts at "no pixel" for atomicMax
const C_MINY = 2u;
const C_MAXX = 3u;
const C_MAXY = 4u;
const C_CAND = 5u;   // candidate slot + 1, or 0 (written for every root by selectCandidates)
const BG: u32 = 0xffffffffu;

#include "common/markerList.wgsl"

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> labels: array<u32>;
@group(0) @binding(2) var<storage, read_write> comp: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> list: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> points: array<u32>;
// Candidates and their boundary pixels by box side (SIDE_BINS bins, the last holding every larger side), then the
// cutoff side at CUTOFF_AT; the bins are cleared by sizeCutoff for the next frame.
@group(0) @binding(5) var<storage, read_write> sides: array<atomic<u32>>;

const SIDE_BINS: u32 = 256u;
const CUTOFF_AT: u32 = 512u;

fn isBoundary(p: u32, x: u32, y: u32) -> bool {
  if (x == 0u || y == 0u || x == params.width - 1u || y == params.height - 1u) { return true; }
  return labels[p - 1u] == BG || labels[p + 1u] == BG || labels[p - params.width] == BG || labels[p + params.width] == BG;
}

fn flush(l: u32, count: u32, lo: vec2<u32>, hi: vec2<u32>) {
  let c = l * COMP;
  atomicAdd(&comp[c + C_COUNT], count);
  atomicMax(&comp[c + C_MINX], 0xffffffffu - lo.x);
  atomicMax(&comp[c + C_MINY], 0xffffffffu - lo.y);
  atomicMax(&comp[c + C_MAXX], hi.x);
  atomicMax(&comp[c + C_MAXY], hi.y);
}

// RUN pixels per invocation, in raster order: boundary pixels of one component next to each other (the usual case)
// are added up before they touch the table, one set of atomics per run of a label rather than per pixel.
const RUN: u32 = 4u;

@compute @workgroup_size(WG)
fn boundaryStats(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linearIndex(gid, nwg);
  var cur = BG;
  var count = 0u;
  var lo = vec2<u32>(0u);
  var hi = vec2<u32>(0u);
  for (var p = i * RUN; p < min(i * RUN + RUN, params.pixels); p++) {
    let l = labels[p];
    if (l == BG) { continue; }
    let x = p % params.width;
    let y = p / params.width;
    if (!isBoundary(p, x, y)) { continue; }
    if (l != cur) {
      if (cur != BG) { flush(cur, count, lo, hi); }
      cur = l;
      count = 0u;
      lo = vec2<u32>(x, y);
      hi = lo;
    }
    count += 1u;
    lo = min(lo, vec2<u32>(x, y));
    hi = max(hi, vec2<u32>(x, y));
  }
  if (cur != BG) { flush(cur, count, lo, hi); }
}

// A root's component as a candidate: its boundary pixels, box and window, or count 0 where it is none (too small,
// touching the frame's edge, a noise-like boundary).
struct Candidate {
  count: u32,
  x0: u32,
  y0: u32,
  x1: u32,
  y1: u32,
  top: u32,
  window: u32,
}

fn candidateAt(l: u32) -> Candidate {
  let c = l * COMP;
  var k = Candidate(atomicLoad(&comp[c + C_COUNT]), 0xffffffffu - atomicLoad(&comp[c + C_MINX]), 0xffffffffu - atomicLoad(&comp[c + C_MINY]),
                    atomicLoad(&comp[c + C_MAXX]), atomicLoad(&comp[c + C_MAXY]), 0u, 0u);
  if (k.x1 - k.x0 + 1u < params.minSide || k.y1 - k.y0 + 1u < params.minSide) { k.count = 0u; return k; }
  // The window and the box's rows within it (a component never crosses the empty rows between windows).
  k.window = k.y0 / (params.rows + 1u);
  k.top = k.window * (params.rows + 1u);
  // Touching the frame's edge: the border may be cut off.
  if (k.x0 == 0u || k.y0 == k.top || k.x1 == params.width - 1u || k.y1 == k.top + params.rows - 1u) { k.count = 0u; }
  if (k.count > params.maxBoundary * (k.x1 - k.x0 + k.y1 - k.y0 + 2u)) { k.count = 0u; }
  return k;
}

fn sideBin(k: Candidate) -> u32 {
  return min(max(k.x1 - k.x0, k.y1 - k.y0) + 1u, SIDE_BINS - 1u);
}

@compute @workgroup_size(WG)
fn countCandidates(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let l = linearIndex(gid, nwg);
  if (l >= params.pixels || labels[l] != l) { return; }
  let k = candidateAt(l);
  if (k.count == 0u) { return; }
  let b = sideBin(k);
  atomicAdd(&sides[2u * b], 1u);
  atomicAdd(&sides[2u * b + 1u], k.count);
}

// One workgroup, an invocation a side bin, the largest first: the candidates and points of each bin and every
// larger one (an inclusive scan in workgroup memory); the bins that fit both limits are a run from the largest, and
// the one invocation where that run ends writes the cutoff. The bins are cleared for the next frame.
var<workgroup> sumN: array<u32, SIDE_BINS>;
var<workgroup> sumP: array<u32, SIDE_BINS>;

@compute @workgroup_size(SIDE_BINS)
fn sizeCutoff(@builtin(local_invocation_index) li: u32) {
  let b = SIDE_BINS - 1u - li;
  sumN[li] = atomicLoad(&sides[2u * b]);
  sumP[li] = atomicLoad(&sides[2u * b + 1u]);
  atomicStore(&sides[2u * b], 0u);
  atomicStore(&sides[2u * b + 1u], 0u);
  workgroupBarrier();
  for (var d = 1u; d < SIDE_BINS; d <<= 1u) {
    var n = sumN[li];
    var p = sumP[li];
    if (li >= d) {
      n += sumN[li - d];
      p += sumP[li - d];
    }
    workgroupBarrier();
    sumN[li] = n;
    sumP[li] = p;
    workgroupBarrier();
  }
  let fits = sumN[li] <= params.maxCandidates && sumP[li] <= params.pointCapacity;
  let before = li == 0u || (sumN[li - 1u] <= params.maxCandidates && sumP[li - 1u] <= params.pointCapacity);
  if (fits && li == SIDE_BINS - 1u) { atomicStore(&sides[CUTOFF_AT], 0u); }
  if (!fits && before) {
    atomicStore(&sides[CUTOFF_AT], b + 1u);
    let last = SIDE_BINS - 1u;
    atomicOr(&list[2], select(0u, OVER_CANDIDATES, sumN[last] > params.maxCandidates) | select(0u, OVER_POINTS, sumP[last] > params.pointCapacity));
  }
}

@compute @workgroup_size(WG)
fn selectCandidates(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let l = linearIndex(gid, nwg);
  if (l >= params.pixels || labels[l] != l) { return; }
  let c = l * COMP;
  let k = candidateAt(l);
  for (var i = 0u; i < COMP; i++) { atomicStore(&comp[c + i], 0u); }
  if (k.count == 0u || sideBin(k) < atomicLoad(&sides[CUTOFF_AT])) { return; }
  // Below maxCandidates and pointCapacity by the cutoff.
  let slot = atomicAdd(&list[0], 1u);
  let at = HEAD + slot * CAND;
  let offset = atomicAdd(&list[1], k.count);
  atomicStore(&list[at + K_WINDOW], k.window);
  atomicStore(&list[at + K_OFFSET], offset);
  atomicStore(&list[at + K_COUNT], k.count);
  atomicStore(&list[at + K_FILL], 0u);
  atomicStore(&list[at + K_LABEL], l);
  atomicStore(&list[at + K_BOX0], k.x0 | ((k.y0 - k.top) << 16u));
  atomicStore(&list[at + K_BOX1], k.x1 | ((k.y1 - k.top) << 16u));
  atomicStore(&comp[c + C_CAND], slot + 1u);
}

@compute @workgroup_size(WG)
fn gatherPoints(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = linearIndex(gid, nwg);
  if (p >= params.pixels) { return; }
  let l = labels[p];
  if (l == BG) { return; }
  let slot = atomicLoad(&comp[l * COMP + C_CAND]);
  if (slot == 0u) { return; }
  let x = p % params.width;
  let y = p / params.width;
  if (!isBoundary(p, x, y)) { return; }
  let k = HEAD + (slot - 1u) * CAND;
  let at = atomicLoad(&list[k + K_OFFSET]) + atomicAdd(&list[k + K_FILL], 1u);
  points[at] = x | ((y % (params.rows + 1u)) << 16u);
}
