// Two-pass tiled labeling in the manner of Muhammad et al.: each 4×4 tile is labelled by one invocation with a
// small merger table (disjoint sets over the tile's 16 pixels), then tile boundaries are merged hierarchically:
// at level k tiles of side T = 4·2^k pair up, and the invocations of that level resolve only the boundaries at
// odd multiples of T (alternate boundaries), so each boundary is merged at exactly one level. The shared
// compress kernel then gives every pixel its final label.
override CONN8: bool = true;
override WG: u32;
#include "common/index.wgsl"
#include "common/labeling.wgsl"
#include "common/union.wgsl"

fn tileFindLocal(t: ptr<function, array<u32, 16>>, i: u32) -> u32 {
  var x = i;
  loop {
    let n = (*t)[x];
    if (n == x) { return x; }
    x = n;
  }
}

fn tileUnite(t: ptr<function, array<u32, 16>>, a: u32, b: u32) {
  let ra = tileFindLocal(t, a);
  let rb = tileFindLocal(t, b);
  (*t)[max(ra, rb)] = min(ra, rb);
}

// One invocation per 4×4 tile: first pass over the tile with its merger table, labels as global pixel indices of
// each part's first pixel (the tile's row-major order is the image's raster order within it).
@compute @workgroup_size(WG)
fn tileInit(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let w = params.width;
  let h = params.height;
  let tw = (w + 3u) / 4u;
  let i = linearIndex(gid, nwg);
  if (i >= tw * ((h + 3u) / 4u)) { return; }
  let tx = (i % tw) * 4u;
  let ty = (i / tw) * 4u;
  var t: array<u32, 16>;
  var fg = 0u;
  for (var k = 0u; k < 16u; k++) {
    let x = tx + (k & 3u);
    let y = ty + (k >> 2u);
    t[k] = k;
    if (x < w && y < h && isFg(y * w + x)) { fg |= 1u << k; }
  }
  for (var k = 0u; k < 16u; k++) {
    if (((fg >> k) & 1u) == 0u) { continue; }
    let c = k & 3u;
    if (c > 0u && ((fg >> (k - 1u)) & 1u) != 0u) { tileUnite(&t, k, k - 1u); }
    if (k >= 4u) {
      if (((fg >> (k - 4u)) & 1u) != 0u) { tileUnite(&t, k, k - 4u); }
      if (CONN8 && c > 0u && ((fg >> (k - 5u)) & 1u) != 0u) { tileUnite(&t, k, k - 5u); }
      if (CONN8 && c < 3u && ((fg >> (k - 3u)) & 1u) != 0u) { tileUnite(&t, k, k - 3u); }
    }
  }
  for (var k = 0u; k < 16u; k++) {
    let x = tx + (k & 3u);
    let y = ty + (k >> 2u);
    if (x >= w || y >= h) { continue; }
    var l = BG;
    if (((fg >> k) & 1u) != 0u) {
      let r = tileFindLocal(&t, k);
      l = (ty + (r >> 2u)) * w + tx + (r & 3u);
    }
    Lplain[y * w + x] = l;
  }
}

// Number of boundaries at odd multiples of t below `extent`.
fn boundaries(extent: u32, t: u32) -> u32 {
  if (extent <= t) { return 0u; }
  return (extent - 1u - t) / (2u * t) + 1u;
}

// One invocation per pixel along the boundaries of level params.level: vertical ones first, then horizontal.
@compute @workgroup_size(WG)
fn mergeLevel(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let w = params.width;
  let h = params.height;
  let t = 4u << params.level;
  let nv = boundaries(w, t) * h;
  let nh = boundaries(h, t) * w;
  let i = linearIndex(gid, nwg);
  if (i < nv) {
    let x = t * (2u * (i / h) + 1u);
    let y = i % h;
    let p = y * w + x;
    if (!isFg(p)) { return; }
    if (isFg(p - 1u)) { unite(p, p - 1u); }
    else if (CONN8) {
      if (y > 0u && isFg(p - w - 1u)) { unite(p, p - w - 1u); }
      if (y + 1u < h && isFg(p + w - 1u)) { unite(p, p + w - 1u); }
    }
  } else if (i < nv + nh) {
    let j = i - nv;
    let y = t * (2u * (j / w) + 1u);
    let x = j % w;
    let p = y * w + x;
    if (!isFg(p)) { return; }
    if (isFg(p - w)) { unite(p, p - w); }
    else if (CONN8) {
      if (x > 0u && isFg(p - w - 1u)) { unite(p, p - w - 1u); }
      if (x + 1u < w && isFg(p - w + 1u)) { unite(p, p - w + 1u); }
    }
  }
}
