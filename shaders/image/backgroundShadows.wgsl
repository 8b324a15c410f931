// background({ color: 'shadows' }): the gray model's foreground and shadows (full resolution: a video's color is
// stored at half resolution and compressed harder, so a color model's foreground spreads past the objects' edges),
// with the color model asked only about what gray calls shadow: a pixel gray takes for a darker copy of the
// background stays shadow where the color model agrees (shadow, or background), and is foreground where the color
// model finds it foreground (a dark object whose color is not the background's). Masks hold one byte a pixel, 0 or
// 255, four a word, so the rule runs a word at a time.
override WG: u32;
#include "common/index.wgsl"

// The first fields of background's Params (shaders/common/mog2.wgsl), whose uniform this binds.
struct Head {
  width: u32,
  height: u32,
  pixels: u32,
  words: u32,
}

@group(0) @binding(0) var<uniform> params: Head;
@group(0) @binding(1) var<storage, read_write> mask: array<u32>;     // gray's foreground, then the result
@group(0) @binding(2) var<storage, read_write> shadow: array<u32>;   // gray's shadows, then the result
@group(0) @binding(3) var<storage, read> colorMask: array<u32>;     // the color model's foreground

@compute @workgroup_size(WG)
fn shadowsByColor(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let w = linearIndex(gid, nwg);
  if (w >= params.words) { return; }
  let s = shadow[w];
  let c = colorMask[w];
  mask[w] = mask[w] | (s & c);
  shadow[w] = s & ~c;
}
