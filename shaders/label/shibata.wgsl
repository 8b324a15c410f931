// Shibata-style fixed-pass labeling: a preparation kernel points each foreground pixel at its smallest earlier
// neighbour; each propagation pass takes the minimum over the neighbourhood and one pointer jump, and lowers both
// the pixel and its old label (root) to it with atomic minima. A one-invocation control kernel after each pass
// clears `pending` once a pass changed nothing, and every later pass returns at once: a fixed pass count costs no
// host round trip and stops early on the GPU. The passes are direct dispatches over the whole frame, not indirect
// ones sized by the control kernel: Dawn validates every indirect dispatch with a dispatch of its own, which cost
// far more than a pass that returns at once (BENCHMARKS.md).
override WG: u32;
override CONN8: bool = true;
override JUMPS: u32 = 6u;
#include "common/index.wgsl"
#include "common/labeling.wgsl"

@compute @workgroup_size(WG)
fn prepare(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = linearIndex(gid, nwg);
  if (p >= params.pixels) { return; }
  if (!isFg(p)) { Lplain[p] = BG; return; }
  let w = params.width;
  let x = p % w;
  let y = p / w;
  var m = p;
  if (x > 0u && isFg(p - 1u)) { m = p - 1u; }
  if (y > 0u) {
    let up = p - w;
    if (CONN8 && x + 1u < w && isFg(up + 1u)) { m = up + 1u; }
    if (isFg(up)) { m = up; }
    if (CONN8 && x > 0u && isFg(up - 1u)) { m = up - 1u; }
  }
  Lplain[p] = m;
}

fn neighbourMin(q: u32, m: u32) -> u32 {
  return min(m, atomicLoad(&L[q])); // background is BG = 0xffffffff, never the minimum
}

// One propagation pass with O(1) work per pixel, so a pass has bounded latency whatever the image: the minimum of
// the neighbours' labels, then JUMPS pointer jumps from it. At a fixed point every label
// points at a root and neighbours agree, so "nothing changed" means the labels are exact.
fn propagatePixel(p: u32) {
  let lp = atomicLoad(&L[p]);
  if (lp == BG) { return; }
  let w = params.width;
  let x = p % w;
  let y = p / w;
  var m = lp;
  let left = x > 0u;
  let right = x + 1u < w;
  if (y > 0u) {
    let up = p - w;
    m = neighbourMin(up, m);
    if (CONN8 && left) { m = neighbourMin(up - 1u, m); }
    if (CONN8 && right) { m = neighbourMin(up + 1u, m); }
  }
  if (left) { m = neighbourMin(p - 1u, m); }
  if (right) { m = neighbourMin(p + 1u, m); }
  if (y + 1u < params.height) {
    let down = p + w;
    m = neighbourMin(down, m);
    if (CONN8 && left) { m = neighbourMin(down - 1u, m); }
    if (CONN8 && right) { m = neighbourMin(down + 1u, m); }
  }
  // Bounded pointer jumping: a fixed number of hops keeps the pass's latency independent of the image.
  for (var j = 0u; j < JUMPS; j++) { m = atomicLoad(&L[m]); }
  if (m < lp) {
    atomicMin(&L[lp], m);
    atomicMin(&L[p], m);
    atomicStore(&info[0], 1u);
  }
}

// A pass over the frame with a bounded grid (each invocation strides over the pixels), so a pass after convergence,
// which returns at once, launches few workgroups.
@compute @workgroup_size(WG)
fn propagate(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  if (atomicLoad(&info[2]) == 0u) { return; }
  let stride = nwg.x * nwg.y * WG;
  for (var p = linearIndex(gid, nwg); p < params.pixels; p += stride) { propagatePixel(p); }
}

// ---- control: one invocation, over the labeling bind group's `info` (common/labeling.wgsl).
@compute @workgroup_size(1)
fn reset() {
  for (var i = 0u; i < 8u; i++) { atomicStore(&info[i], 0u); }
  atomicStore(&info[2], 1u); // pending until a pass changes nothing
}

@compute @workgroup_size(1)
fn control() {
  if (atomicLoad(&info[2]) == 0u) { return; }
  atomicAdd(&info[1], 1u);
  if (atomicLoad(&info[0]) == 0u) { atomicStore(&info[2], 0u); }
  atomicStore(&info[0], 0u);
}
