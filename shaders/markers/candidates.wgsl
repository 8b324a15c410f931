// Marker candidates from one labelling of the inverted adaptive threshold: the markers' black borders are
// components. Three passes, no CPU in between:
//   boundaryStats    per pixel: each component's boundary pixels (a background 4-neighbour or the frame's edge)
//                    counted, and its box;
//   selectCandidates per component: those whose box is large enough, off the frame's edge, and whose boundary is
//                    not noise-like get a slot in the candidate list (shared by every threshold window of the
//                    frame) and a range of the point buffer;
//   gatherPoints     per pixel: a candidate's boundary pixels written into its range, packed x | y << 16.
// The quad fit (markers/fit.wgsl) then takes one workgroup per candidate. Contour tracing is not needed: the quad
// is found from the boundary pixels in any order (AprilTag 3 fits quads from unordered boundary points too).
override WG: u32;
#include "common/index.wgsl"

struct Params {
  width: u32,
  height: u32,
  pixels: u32,
  capacity: u32,       // entries of the component table (labels 1..capacity-1 are measured)
  maxCandidates: u32,
  pointCapacity: u32,
  window: u32,         // index of the threshold window, kept with each candidate
  minSide: u32,
  maxBoundary: u32,    // boundary pixels per box half-perimeter, at most (maxBoundaryPerBox)
}

// The component table: per label, COMP words.
const COMP: u32 = 6u;
const C_COUNT = 0u;
const C_MINX = 1u;   // stored as 65535 - x, so that a cleared table (zeros) starts at "no pixel" for atomicMax
const C_MINY = 2u;
const C_MAXX = 3u;
const C_MAXY = 4u;
const C_CAND = 5u;   // candidate slot + 1, or 0

#include "common/markerList.wgsl"

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> labels: array<u32>;
@group(0) @binding(2) var<storage, read> info: array<u32>;
@group(0) @binding(3) var<storage, read_write> comp: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> list: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> points: array<u32>;

// Canonical labels beyond the table are not measured (the overflow bit says so).
fn lastLabel() -> u32 { return min(info[6], params.capacity - 1u); }

fn isBoundary(p: u32, x: u32, y: u32) -> bool {
  if (x == 0u || y == 0u || x == params.width - 1u || y == params.height - 1u) { return true; }
  return labels[p - 1u] == 0u || labels[p + 1u] == 0u || labels[p - params.width] == 0u || labels[p + params.width] == 0u;
}

@compute @workgroup_size(WG)
fn boundaryStats(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = linearIndex(gid, nwg);
  if (p >= params.pixels) { return; }
  let l = labels[p];
  if (l == 0u) { return; }
  if (l > lastLabel()) {
    if (l == params.capacity) { atomicOr(&list[2], OVER_COMPONENTS); }
    return;
  }
  let x = p % params.width;
  let y = p / params.width;
  if (!isBoundary(p, x, y)) { return; }
  let c = l * COMP;
  atomicAdd(&comp[c + C_COUNT], 1u);
  atomicMax(&comp[c + C_MINX], 65535u - x);
  atomicMax(&comp[c + C_MINY], 65535u - y);
  atomicMax(&comp[c + C_MAXX], x);
  atomicMax(&comp[c + C_MAXY], y);
}

@compute @workgroup_size(WG)
fn selectCandidates(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let l = linearIndex(gid, nwg) + 1u;
  if (l > lastLabel()) { return; }
  let c = l * COMP;
  let count = atomicLoad(&comp[c + C_COUNT]);
  if (count == 0u) { return; }
  let x0 = 65535u - atomicLoad(&comp[c + C_MINX]);
  let y0 = 65535u - atomicLoad(&comp[c + C_MINY]);
  let x1 = atomicLoad(&comp[c + C_MAXX]);
  let y1 = atomicLoad(&comp[c + C_MAXY]);
  if (x1 - x0 + 1u < params.minSide || y1 - y0 + 1u < params.minSide) { return; }
  // Touching the frame's edge: the border may be cut off.
  if (x0 == 0u || y0 == 0u || x1 == params.width - 1u || y1 == params.height - 1u) { return; }
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
  atomicStore(&list[k + K_WINDOW], params.window);
  atomicStore(&list[k + K_OFFSET], offset);
  atomicStore(&list[k + K_COUNT], select(0u, count, fits));
  atomicStore(&list[k + K_FILL], 0u);
  atomicStore(&list[k + K_LABEL], l);
  atomicStore(&list[k + K_BOX0], x0 | (y0 << 16u));
  atomicStore(&list[k + K_BOX1], x1 | (y1 << 16u));
  if (fits) { atomicStore(&comp[c + C_CAND], slot + 1u); }
}

@compute @workgroup_size(WG)
fn gatherPoints(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = linearIndex(gid, nwg);
  if (p >= params.pixels) { return; }
  let l = labels[p];
  if (l == 0u || l > lastLabel()) { return; }
  let slot = atomicLoad(&comp[l * COMP + C_CAND]);
  if (slot == 0u) { return; }
  let x = p % params.width;
  let y = p / params.width;
  if (!isBoundary(p, x, y)) { return; }
  let k = HEAD + (slot - 1u) * CAND;
  let at = atomicLoad(&list[k + K_OFFSET]) + atomicAdd(&list[k + K_FILL], 1u);
  points[at] = x | (y << 16u);
}
