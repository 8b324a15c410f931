// A frame's pixels written into an RGBA8 texture that a renderer samples (flowmark/three's CameraBackground): the
// camera picture behind an AR scene without a copy through the CPU. One invocation per pixel; gray frames are
// written as R = G = B = gray.
override WG: u32;
#include "common/index.wgsl"

struct Params {
  width: u32,
  height: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> pixels: array<u32>;
@group(0) @binding(2) var out: texture_storage_2d<rgba8unorm, write>;

@compute @workgroup_size(WG)
fn fromRgba(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = linearIndex(gid, nwg);
  if (p >= params.width * params.height) { return; }
  textureStore(out, vec2<u32>(p % params.width, p / params.width), unpack4x8unorm(pixels[p]));
}

@compute @workgroup_size(WG)
fn fromGray(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = linearIndex(gid, nwg);
  if (p >= params.width * params.height) { return; }
  let g = f32((pixels[p >> 2u] >> (8u * (p & 3u))) & 0xffu) / 255.0;
  textureStore(out, vec2<u32>(p % params.width, p / params.width), vec4<f32>(g, g, g, 1.0));
}
