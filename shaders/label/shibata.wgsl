// Shibata-style fixed-pass labeling: a preparation kernel points each foreground pixel at its smallest earlier
// neighbour; each propagation pass takes the minimum over the neighbourhood and a few pointer jumps, and lowers
// both the pixel and its old label (root) to it with atomic minima. The last workgroup to finish a pass counts it
// and clears `pending` when no workgroup changed anything; every later pass returns at once: a fixed pass count
// costs no host round trip and stops early on the GPU. The passes are direct dispatches, not indirect ones sized
// on the GPU: Dawn validates every indirect dispatch with a dispatch of its own, which cost far more than a pass
// that returns at once (BENCHMARKS.md); and the control is in the pass, not a kernel of its own after it.
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
// the neighbours' labels, then up to JUMPS pointer jumps from it (stopping at a root). At a fixed point every
// label points at a root and neighbours agree, so "nothing changed" means the labels are exact. Returns whether
// the pixel's labels changed.
fn propagatePixel(p: u32) -> bool {
  let lp = atomicLoad(&L[p]);
  if (lp == BG) { return false; }
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
  // Bounded pointer jumping: at most JUMPS dependent loads keep the pass's latency independent of the image; a
  // root ends the walk early (most labels point at one after the first passes).
  for (var j = 0u; j < JUMPS; j++) {
    let n = atomicLoad(&L[m]);
    if (n == m) { break; }
    m = n;
  }
  if (m < lp) {
    atomicMin(&L[lp], m);
    atomicMin(&L[p], m);
    return true;
  }
  return false;
}

var<workgroup> wgPending: u32;
var<workgroup> wgChanged: atomic<u32>;

// A pass over the frame with a bounded grid (each invocation strides over the pixels), so a pass after convergence,
// which returns at once, launches few workgroups. The pass's control is its last workgroup: each adds to one
// word of `info` its arrival (low 16 bits) and whether it changed anything (high bits) with a single atomic, so
// the last to arrive sees every other's contribution in the value it gets back, and counts the pass, clears
// `pending` if nothing changed, and resets the word for the next pass. (Grids stay under 2^16 workgroups.)
@compute @workgroup_size(WG)
fn propagate(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) li: u32) {
  if (li == 0u) {
    wgPending = atomicLoad(&info[2]);
    atomicStore(&wgChanged, 0u);
  }
  if (workgroupUniformLoad(&wgPending) == 0u) { return; }
  let stride = nwg.x * nwg.y * WG;
  var changed = false;
  for (var p = linearIndex(gid, nwg); p < params.pixels; p += stride) { changed = propagatePixel(p) || changed; }
  if (changed) { atomicStore(&wgChanged, 1u); }
  workgroupBarrier();
  if (li != 0u) { return; }
  let mine = atomicLoad(&wgChanged);
  let before = atomicAdd(&info[3], 1u | (mine << 16u));
  if ((before & 0xffffu) + 1u < nwg.x * nwg.y) { return; }
  atomicAdd(&info[1], 1u);
  if ((before >> 16u) + mine == 0u) { atomicStore(&info[2], 0u); }
  atomicStore(&info[3], 0u);
}

@compute @workgroup_size(1)
fn reset() {
  for (var i = 0u; i < 8u; i++) { atomicStore(&info[i], 0u); }
  atomicStore(&info[2], 1u); // pending until a pass changes nothing
}
