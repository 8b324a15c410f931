// Coarse-to-fine labeling in workgroup memory, in the manner of Chen et al.'s C2FL: each 32×32 tile is labelled
// by one workgroup (union-find on workgroup-memory labels rather than C2FL's row/column unification passes), local
// roots become global pixel indices (a tile's raster order is the image's, so a local root is its part's first
// pixel), a merge kernel unites labels only across tile borders, and the shared compress kernel finds every root.
override CONN8: bool = true;
#include "common/labeling.wgsl"
#include "common/union.wgsl"
#include "common/c2flTile.wgsl"

// The border merge unites the parts across tile borders.
fn joinParts(p: u32, q: u32) { unite(p, q); }

// Any width.
@compute @workgroup_size(256)
fn tileLabel(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  storeTileLabels(wid, li, labelTile(wid, li));
}

// Widths that are a multiple of 4.
@compute @workgroup_size(256)
fn tileLabelQuad(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  storeTileLabelsQuad(wid, li, labelTile(wid, li));
}

// One workgroup of 64 per tile: 32 invocations along the top border, 32 along the left border.
@compute @workgroup_size(64)
fn borderMerge(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  mergeTileBorders(wid, li);
}
