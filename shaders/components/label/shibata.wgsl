// Fixed-pass labeling in the manner of Shibata & Yamamoto (a fixed number of passes with no host round trip, and
// a flag when they were not enough), over tiles: a preparation kernel labels every 32×32 tile in workgroup memory
// (C2FL's first stage, common/c2flTile.wgsl), and each propagation pass joins the tiles' parts across their
// borders with bounded work (C2FL's border merge with bounded joins). The last workgroup to finish a pass counts
// it and clears `pending` when no workgroup changed anything; every later pass returns at once: a fixed pass count
// costs no host round trip and stops early on the GPU. The passes are direct dispatches, not indirect ones sized
// on the GPU: Dawn validates every indirect dispatch with a dispatch of its own, which cost far more than a pass
// that returns at once (BENCHMARKS.md); and the control is in the pass, not a kernel of its own after it.
//
// Passes over tiles rather than pixels: per-pixel passes (the minimum label of the neighbourhood plus a few pointer
// jumps) need 4–6 passes on random frames (9 on mazes) and are slower than c2fl; over tiles 2–4 passes (5 on mazes)
// of a few thousand invocations suffice.
override CONN8: bool = true;
override JUMPS: u32 = 6u;
#include "common/labeling.wgsl"
#include "common/c2flTile.wgsl"

// The preparation labels each tile: every pixel then points at its part of the tile's first pixel, a root. Its
// first invocation also resets `info` for the passes (one dispatch rather than a kernel of its own).
fn resetInfo(wid: vec3<u32>, li: u32) {
  if (wid.x != 0u || wid.y != 0u || li != 0u) { return; }
  for (var i = 0u; i < 8u; i++) { atomicStore(&info[i], 0u); }
  atomicStore(&info[2], 1u); // pending until a pass changes nothing
}

// Any width.
@compute @workgroup_size(256)
fn prepare(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  resetInfo(wid, li);
  storeTileLabels(wid, li, labelTile(wid, li));
}

// Widths that are a multiple of 4.
@compute @workgroup_size(256)
fn prepareQuad(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  resetInfo(wid, li);
  storeTileLabelsQuad(wid, li, labelTile(wid, li));
}

var<workgroup> wgPending: u32;
var<workgroup> wgChanged: atomic<u32>;

// Up to JUMPS steps from label l toward its root, halving the path (each step links a node to its grandparent:
// an ancestor, so safe whatever other invocations do).
fn jump(l: u32) -> u32 {
  var x = l;
  for (var j = 0u; j < JUMPS; j++) {
    let n = atomicLoad(&L[x]);
    if (n == x) { break; }
    let nn = atomicLoad(&L[n]);
    if (nn != n) { atomicMin(&L[x], nn); }
    x = nn;
  }
  return x;
}

// Whether this invocation's pairs found anything to join in this pass.
var<private> changed: bool;

// The border merge's join (common/c2flTile.wgsl), bounded: both labels are followed up to JUMPS steps toward
// their roots; where they end apart, the higher is linked under the lower with an atomic minimum, as a union would,
// and the pass counts as changed. Steps start from the pixels' labels, not the pixels: a pixel inside its part
// keeps pointing at its part's root, so that the pairs compare parts (shortened, its label could end in another
// tree than its part's after the move below, and no pair would see it). Every node linked is a part's root or
// an ancestor of one; a link that lands on a node no longer a root (another invocation linked it first, or the
// steps ran out) moves that node's subtree, and the pair that had linked it joins it again in a later pass.
fn joinParts(p: u32, q: u32) {
  let a = jump(atomicLoad(&L[p]));
  let b = jump(atomicLoad(&L[q]));
  if (a == b) { return; }
  changed = true;
  atomicMin(&L[max(a, b)], min(a, b));
}

// One propagation pass: C2FL's border merge of every tile with bounded joins, O(1) work per pixel of the tiles'
// top rows and left columns. A pass where every pair the merge joins ended at the same node changed nothing: then
// each component is one tree (the merge's pairs connect every part the borders connect), found by the compress
// kernel after the passes. Workgroups of 64 stride over the tiles.
@compute @workgroup_size(64)
fn propagate(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) li: u32) {
  if (li == 0u) {
    wgPending = atomicLoad(&info[2]);
    atomicStore(&wgChanged, 0u);
  }
  if (workgroupUniformLoad(&wgPending) == 0u) { return; }
  let tilesX = (params.width + TS - 1u) / TS;
  let tiles = tilesX * ((params.height + TS - 1u) / TS);
  let groups = nwg.x * nwg.y;
  changed = false;
  for (var t = wid.y * nwg.x + wid.x; t < tiles; t += groups) {
    mergeTileBorders(vec3<u32>(t % tilesX, t / tilesX, 0u), li);
  }
  if (changed) { atomicStore(&wgChanged, 1u); }
  workgroupBarrier();
  if (li != 0u) { return; }
  let mine = atomicLoad(&wgChanged);
  let before = atomicAdd(&info[3], 1u | (mine << 16u));
  if ((before & 0xffffu) + 1u < groups) { return; }
  atomicAdd(&info[1], 1u);
  if ((before >> 16u) + mine == 0u) { atomicStore(&info[2], 0u); }
  atomicStore(&info[3], 0u);
}
