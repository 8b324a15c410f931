// A frame that arrived as a texture (camera, video decoder) packed into the storage buffer every node reads:
// one RGBA8 u32 per pixel, R in the low byte, turned as the video's track header says (displayTransform.ts):
// the stored pixel (x, y) is shown at (a·x + c·y + tx, b·x + d·y + ty), so output pixel (X, Y) reads the stored
// pixel (a·(X − tx) + b·(Y − ty), c·(X − tx) + d·(Y − ty)) (the matrix is orthogonal: its inverse is its transpose).
override WG: u32;
#include "common/index.wgsl"

struct Params {
  width: u32,   // as displayed
  height: u32,
  a: i32,
  b: i32,
  c: i32,
  d: i32,
  tx: i32,
  ty: i32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var src: texture_2d<f32>;
@group(0) @binding(2) var<storage, read_write> rgba: array<u32>;

@compute @workgroup_size(WG)
fn pack(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = linearIndex(gid, nwg);
  if (p >= params.width * params.height) { return; }
  let X = i32(p % params.width) - params.tx;
  let Y = i32(p / params.width) - params.ty;
  let stored = vec2<i32>(params.a * X + params.b * Y, params.c * X + params.d * Y);
  rgba[p] = pack4x8unorm(textureLoad(src, stored, 0));
}
