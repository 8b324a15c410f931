// Marker candidates from one labelling of the inverted adaptive thresholds, stacked (nodes/markers/markerThreshold.ts:
// window i's mask at rows i × (rows + 1) onwards, an empty row between windows): the markers' black borders are
// components. Labels are the union-find forest's roots (each pixel's component's first pixel in raster order of the
// stack, BG for background: `label({ canonical: false })`), so the component table is indexed by root pixel and no
// canonical renumbering is needed. Three passes, no CPU in between:
//   boundaryStats    per pixel: each component's boundary pixels (a background 4-neighbour or the stack's edge;
//                    the empty rows make a window's top and bottom rows boundary as the frame's edge would)
//                    counted, and its box;
//   selectCandidates per root: those whose box is large enough, off the frame's edge and whose boundary is not
//                    noise-like get a slot in the candidate list and a range of the point buffer;
//   gatherPoints     per pixel: a candidate's boundary pixels written into its range, packed x | y << 16 in the
//                    frame's coordinates (y within its window).
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

@compute @workgroup_size(WG)
fn selectCandidates(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let l = linearIndex(gid, nwg);
  if (l >= params.pixels || labels[l] != l) { return; }
  let c = l * COMP;
  let count = atomicLoad(&comp[c + C_COUNT]);
  let x0 = 0xffffffffu - atomicLoad(&comp[c + C_MINX]);
  let y0 = 0xffffffffu - atomicLoad(&comp[c + C_MINY]);
  let x1 = atomicLoad(&comp[c + C_MAXX]);
  let y1 = atomicLoad(&comp[c + C_MAXY]);
  for (var i = 0u; i < COMP; i++) { atomicStore(&comp[c + i], 0u); }
  if (x1 - x0 + 1u < params.minSide || y1 - y0 + 1u < params.minSide) { return; }
  // The window and the box's rows within it (a component never crosses the empty rows between windows).
  let window = y0 / (params.rows + 1u);
  let top = window * (params.rows + 1u);
  // Touching the frame's edge: the border may be cut off.
  if (x0 == 0u || y0 == top || x1 == params.width - 1u || y1 == top + params.rows - 1u) { return; }
  if (count > params.maxBoundary * (x1 - x0 + y1 - y0 + 2u)) { return; }
  let slot = atomicAdd(&list[0], 1u);
  if (slot >= params.maxCandidates) {
    atomicOr(&list[2], OVER_CANDIDATES);
    return;
  }
  let k = HEAD + slot * CAND;
  let offset = atomicAdd(&list[1], count);
  // No room for its points: the candidate stays, with none (the fit skips it).
  let fits = offset + count <= params.pointCapacity;
  if (!fits) { atomicOr(&list[2], OVER_POINTS); }
  atomicStore(&list[k + K_WINDOW], window);
  atomicStore(&list[k + K_OFFSET], offset);
  atomicStore(&list[k + K_COUNT], select(0u, count, fits));
  atomicStore(&list[k + K_FILL], 0u);
  atomicStore(&list[k + K_LABEL], l);
  atomicStore(&list[k + K_BOX0], x0 | ((y0 - top) << 16u));
  atomicStore(&list[k + K_BOX1], x1 | ((y1 - top) << 16u));
  if (fits) { atomicStore(&comp[c + C_CAND], slot + 1u); }
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
