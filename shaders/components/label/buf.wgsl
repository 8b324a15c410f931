// Block-based union-find (Allegretti, Bolelli, Cancilla, Grana): one invocation per block, union-find over blocks.
// 8-connectivity uses 2×2 blocks, whose foreground pixels are always mutually connected; 4-connectivity uses 2×1
// blocks (a 2×2 block's diagonal pair is not 4-connected). A block is represented by its first foreground pixel,
// so linking toward smaller indices still makes each root its component's first pixel. Neighbouring blocks are
// joined when any pair of their pixels touches; the final kernel writes the root into every pixel of the block.
override WG: u32;
override CONN8: bool = true;
#include "common/index.wgsl"
#include "common/labeling.wgsl"
#include "common/union.wgsl"

fn bh() -> u32 { return select(1u, 2u, CONN8); }
fn blocksX() -> u32 { return (params.width + 1u) / 2u; }
fn blocksY() -> u32 { return (params.height + bh() - 1u) / bh(); }

fn fgAt(x: i32, y: i32) -> bool {
  if (x < 0 || y < 0 || u32(x) >= params.width || u32(y) >= params.height) { return false; }
  return isFg(u32(y) * params.width + u32(x));
}

// First foreground pixel of block (bx, by) in raster order, or BG.
fn rep(bx: i32, by: i32) -> u32 {
  let x = bx * 2;
  let y = by * i32(bh());
  for (var r = 0; r < i32(bh()); r++) {
    for (var c = 0; c < 2; c++) {
      if (fgAt(x + c, y + r)) { return u32(y + r) * params.width + u32(x + c); }
    }
  }
  return BG;
}

@compute @workgroup_size(WG)
fn init(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let b = linearIndex(gid, nwg);
  if (b >= blocksX() * blocksY()) { return; }
  let r = rep(i32(b % blocksX()), i32(b / blocksX()));
  if (r != BG) { Lplain[r] = r; }
}

@compute @workgroup_size(WG)
fn merge(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let b = linearIndex(gid, nwg);
  if (b >= blocksX() * blocksY()) { return; }
  let bx = i32(b % blocksX());
  let by = i32(b / blocksX());
  let me = rep(bx, by);
  if (me == BG) { return; }
  let x = bx * 2;
  let y = by * i32(bh());
  let a = fgAt(x, y);
  let bb = fgAt(x + 1, y);
  if (CONN8) {
    let c = fgAt(x, y + 1);
    // Left block: any of my left column touches any of its right column (8-adjacency within two rows).
    if ((a || c) && (fgAt(x - 1, y) || fgAt(x - 1, y + 1))) { unite(me, rep(bx - 1, by)); }
    // Upper block: my top row against its bottom row.
    if ((a || bb) && (fgAt(x, y - 1) || fgAt(x + 1, y - 1))) { unite(me, rep(bx, by - 1)); }
    if (a && fgAt(x - 1, y - 1)) { unite(me, rep(bx - 1, by - 1)); }
    if (bb && fgAt(x + 2, y - 1)) { unite(me, rep(bx + 1, by - 1)); }
  } else {
    if (a && fgAt(x - 1, y)) { unite(me, rep(bx - 1, by)); }
    if ((a && fgAt(x, y - 1)) || (bb && fgAt(x + 1, y - 1))) { unite(me, rep(bx, by - 1)); }
  }
}

@compute @workgroup_size(WG)
fn finish(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let b = linearIndex(gid, nwg);
  if (b >= blocksX() * blocksY()) { return; }
  let bx = i32(b % blocksX());
  let by = i32(b / blocksX());
  let me = rep(bx, by);
  var root = BG;
  if (me != BG) { root = find(me); }
  for (var r = 0; r < i32(bh()); r++) {
    for (var c = 0; c < 2; c++) {
      let x = bx * 2 + c;
      let y = by * i32(bh()) + r;
      if (u32(x) < params.width && u32(y) < params.height) {
        let p = u32(y) * params.width + u32(x);
        atomicStore(&L[p], select(BG, root, isFg(p)));
      }
    }
  }
}
