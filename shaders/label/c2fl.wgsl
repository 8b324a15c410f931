// Coarse-to-fine labeling in workgroup memory, in the manner of Chen et al.'s C2FL: each 32×32 tile is labelled
// by one workgroup (union-find on workgroup-memory labels rather than C2FL's row/column unification passes), local
// roots become global pixel indices (a tile's raster order is the image's, so a local root is its part's first
// pixel), a merge kernel unites labels only across tile borders, and the shared compress kernel finds every root.
override CONN8: bool = true;
const WG: u32 = 256u;
#include "common/labeling.wgsl"
#include "common/union.wgsl"

const TS: u32 = 32u;           // tile side
var<workgroup> sl: array<atomic<u32>, 1024>;

fn findLocal(i: u32) -> u32 {
  var x = i;
  loop {
    let n = atomicLoad(&sl[x]);
    if (n == x) { return x; }
    x = n;
  }
}

fn uniteLocal(a: u32, b: u32) {
  var x = findLocal(a);
  var y = findLocal(b);
  loop {
    if (x == y) { return; }
    if (x < y) {
      let old = atomicMin(&sl[y], x);
      if (old == y) { return; }
      y = findLocal(old);
    } else {
      let old = atomicMin(&sl[x], y);
      if (old == x) { return; }
      x = findLocal(old);
    }
  }
}

fn localFg(i: u32) -> bool { return atomicLoad(&sl[i]) != BG; }

// One workgroup per tile; each invocation owns four consecutive pixels of one tile row.
@compute @workgroup_size(256)
fn tileLabel(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let w = params.width;
  let ly = li >> 3u;
  let lx0 = (li & 7u) * 4u;
  let y = wid.y * TS + ly;
  let x0 = wid.x * TS + lx0;
  let base = ly * TS + lx0;
  // Initialise: background BG, a run inside these four pixels points at its first pixel.
  var prev = BG;
  for (var k = 0u; k < 4u; k++) {
    let x = x0 + k;
    var l = BG;
    if (x < w && y < params.height && isFg(y * w + x)) { l = select(base + k, prev, prev != BG); }
    atomicStore(&sl[base + k], l);
    prev = l;
  }
  workgroupBarrier();
  for (var k = 0u; k < 4u; k++) {
    let i = base + k;
    if (!localFg(i)) { continue; }
    let lx = lx0 + k;
    let leftFg = lx > 0u && localFg(i - 1u);
    if (k == 0u && leftFg) { uniteLocal(i, i - 1u); }
    if (ly == 0u) { continue; }
    let up = i - TS;
    if (localFg(up)) {
      if (!leftFg || !(lx > 0u && localFg(up - 1u))) { uniteLocal(i, up); }
    } else if (CONN8) {
      if (lx > 0u && !leftFg && localFg(up - 1u)) { uniteLocal(i, up - 1u); }
      if (lx + 1u < TS && localFg(up + 1u) && !localFg(i + 1u)) { uniteLocal(i, up + 1u); }
    }
  }
  workgroupBarrier();
  for (var k = 0u; k < 4u; k++) {
    let x = x0 + k;
    if (x >= w || y >= params.height) { continue; }
    var l = BG;
    if (localFg(base + k)) {
      let r = findLocal(base + k);
      l = (wid.y * TS + (r >> 5u)) * w + wid.x * TS + (r & 31u);
    }
    atomicStore(&L[y * w + x], l);
  }
}

// One workgroup of 64 per tile: 32 invocations along the top border, 32 along the left border.
@compute @workgroup_size(64)
fn borderMerge(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let w = params.width;
  let h = params.height;
  var x: u32;
  var y: u32;
  let top = li < 32u;
  if (top) {
    x = wid.x * TS + li;
    y = wid.y * TS;
    if (y == 0u) { return; }
  } else {
    x = wid.x * TS;
    y = wid.y * TS + li - 32u;
    if (x == 0u) { return; }
  }
  if (x >= w || y >= h) { return; }
  let p = y * w + x;
  if (!isFg(p)) { return; }
  let hasLeft = x > 0u;
  let leftFg = hasLeft && isFg(p - 1u);
  if (top) {
    let up = p - w;
    if (isFg(up)) {
      // Across the top border the left-to-up-left link may lie in this tile's left border or the tile above:
      // it is made somewhere, so the same skip as inside a tile holds.
      if (!leftFg || !(hasLeft && isFg(up - 1u))) { unite(p, up); }
    } else if (CONN8) {
      if (hasLeft && !leftFg && isFg(up - 1u)) { unite(p, up - 1u); }
      if (x + 1u < w && isFg(up + 1u) && !isFg(p + 1u)) { unite(p, up + 1u); }
    }
  } else {
    if (leftFg) {
      unite(p, p - 1u);
    } else if (CONN8) {
      // Diagonals into the left tile that no horizontal or vertical link covers.
      if (y > 0u && isFg(p - w - 1u) && !isFg(p - w)) { unite(p, p - w - 1u); }
      if (y + 1u < h && isFg(p + w - 1u) && !isFg(p + w)) { unite(p, p + w - 1u); }
    }
  }
}
