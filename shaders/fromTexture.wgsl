// A frame that arrived as a texture (camera, video decoder) packed into the storage buffer every node reads:
// one RGBA8 u32 per pixel, R in the low byte.
override WG: u32;
#include "common/index.wgsl"

struct Params {
  width: u32,
  height: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var src: texture_2d<f32>;
@group(0) @binding(2) var<storage, read_write> rgba: array<u32>;

@compute @workgroup_size(WG)
fn pack(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = linearIndex(gid, nwg);
  if (p >= params.width * params.height) { return; }
  let c = textureLoad(src, vec2<u32>(p % params.width, p / params.width), 0);
  rgba[p] = pack4x8unorm(c);
}
