// Pixel union-find (Playne & Hawick; Komura): every foreground pixel starts as its own root, one merge kernel
// unites it with its earlier neighbours, and the shared compress kernel points every pixel at its root. Two
// dispatches whatever the image; no content-dependent pass count.
override WG: u32;
override CONN8: bool = true;
#include "common/index.wgsl"
#include "common/labeling.wgsl"
#include "common/union.wgsl"

// Runs are joined without atomics: a pixel points at the start of its run within its 32-pixel chunk of the row,
// and a chunk's first pixel at its left neighbour when that is foreground, so a run is a chain of at most
// width/32 links, which the compress kernel's path halving flattens.
@compute @workgroup_size(WG)
fn init(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = linearIndex(gid, nwg);
  if (p >= params.pixels) { return; }
  if (!isFg(p)) { Lplain[p] = BG; return; }
  let x = p % params.width;
  let chunk = x & ~31u;
  var s = x;
  while (s > chunk && isFg(p - (x - s) - 1u)) { s -= 1u; }
  var l = p - (x - s);
  if (s == chunk && s > 0u && isFg(l - 1u)) { l -= 1u; }
  Lplain[p] = l;
}

@compute @workgroup_size(WG)
fn merge(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = linearIndex(gid, nwg);
  if (p >= params.pixels || !isFg(p)) { return; }
  let w = params.width;
  let x = p % w;
  if (p < w) { return; } // first row: left links were made by init
  let up = p - w;
  if (isFg(up)) {
    // When both left neighbours are foreground, the link left-to-up-left already joins p's run to up's run.
    if (x == 0u || !isFg(p - 1u) || !isFg(up - 1u)) { unite(p, up); }
    return;
  }
  if (CONN8) {
    // With `up` in background, diagonals are not joined through it.
    if (x > 0u && isFg(up - 1u) && !isFg(p - 1u)) { unite(p, up - 1u); }
    // If the right neighbour is foreground it links straight up to `up + 1` itself.
    if (x + 1u < w && isFg(up + 1u) && !isFg(p + 1u)) { unite(p, up + 1u); }
  }
}
