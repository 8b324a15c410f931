// Canonical labels: 0 for background, 1..N in raster order of each component's first pixel (its root). Each
// invocation owns PPT consecutive pixels, so a workgroup block covers WG*PPT pixels and the block counts stay few
// enough for one workgroup to scan. Roots are counted per block (by the compress kernel), the counts scanned,
// roots ranked, then every other pixel takes its root's rank. Needs every label to lead to a root.
override WG: u32;
const PPT: u32 = 8u;
#include "common/index.wgsl"
#include "common/labeling.wgsl"

var<workgroup> rootCount: atomic<u32>;

fn blockIndex(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return wid.y * nwg.x + wid.x; }

// Points every pixel at its root and counts the roots of each block. Invocations stride through the block so
// each warp-wide atomic access covers consecutive words.
@compute @workgroup_size(WG)
fn compress(@builtin(num_workgroups) nwg: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
            @builtin(local_invocation_index) li: u32) {
  if (li == 0u) { atomicStore(&rootCount, 0u); }
  workgroupBarrier();
  let base = blockIndex(wid, nwg) * WG * PPT;
  var roots = 0u;
  for (var k = 0u; k < PPT; k++) {
    let p = base + k * WG + li;
    if (p >= params.pixels) { break; }
    let l = atomicLoad(&L[p]);
    if (l == BG) { continue; }
    let r = find(l);
    if (r != l) { atomicStore(&L[p], r); }
    if (r == p) { roots += 1u; }
  }
  if (roots != 0u) { atomicAdd(&rootCount, roots); }
  workgroupBarrier();
  if (li == 0u) { blocks[blockIndex(wid, nwg)] = atomicLoad(&rootCount); }
}

var<workgroup> partial: array<u32, 256>;

// One workgroup: exclusive scan of the block counts in place; the total is the component count.
@compute @workgroup_size(256)
fn scanBlocks(@builtin(local_invocation_index) li: u32) {
  let n = params.blocks;
  let per = (n + 255u) / 256u;
  let start = min(li * per, n);
  let end = min(start + per, n);
  var s = 0u;
  for (var i = start; i < end; i++) { s += blocks[i]; }
  partial[li] = s;
  workgroupBarrier();
  for (var d = 1u; d < 256u; d <<= 1u) {
    var v = partial[li];
    if (li >= d) { v += partial[li - d]; }
    workgroupBarrier();
    partial[li] = v;
    workgroupBarrier();
  }
  var run = 0u;
  if (li > 0u) { run = partial[li - 1u]; }
  for (var i = start; i < end; i++) {
    let c = blocks[i];
    blocks[i] = run;
    run += c;
  }
  if (li == 255u) { atomicStore(&info[6], partial[255]); }
}

var<workgroup> ranks: array<u32, WG>;

// Roots get their 1-based rank in raster order; background gets 0.
@compute @workgroup_size(WG)
fn rankRoots(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let p0 = linearIndex(gid, nwg) * PPT;
  var mine = 0u;
  for (var k = 0u; k < PPT; k++) {
    let p = p0 + k;
    if (p < params.pixels && Lplain[p] == p) { mine += 1u; }
  }
  ranks[li] = mine;
  workgroupBarrier();
  for (var d = 1u; d < WG; d <<= 1u) {
    var v = ranks[li];
    if (li >= d) { v += ranks[li - d]; }
    workgroupBarrier();
    ranks[li] = v;
    workgroupBarrier();
  }
  var next = blocks[blockIndex(wid, nwg)] + ranks[li] - mine + 1u;
  for (var k = 0u; k < PPT; k++) {
    let p = p0 + k;
    if (p >= params.pixels) { break; }
    let l = Lplain[p];
    if (l == p) {
      outLabels[p] = next;
      next += 1u;
    } else if (l == BG) {
      outLabels[p] = 0u;
    }
  }
}

// Every other foreground pixel takes its root's canonical label.
@compute @workgroup_size(WG)
fn relabel(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p0 = linearIndex(gid, nwg) * PPT;
  for (var k = 0u; k < PPT; k++) {
    let p = p0 + k;
    if (p >= params.pixels) { break; }
    let l = Lplain[p];
    if (l != BG && l != p) { outLabels[p] = outLabels[l]; }
  }
}
