// background({ color: true }): MOG2 over the three channels of RGBA frames (shaders/common/mog2.wgsl), as OpenCV's
// on color frames: a mode's mean per channel, one variance, squared distances summed over the channels; a shadow
// is the background's color scaled by 0.5..1 (not any darker pixel, as on gray). `frame` holds one RGBA pixel a
// word; alpha is not read.
alias Px = vec3<f32>;
const CHANNELS: u32 = 3u;

fn sq(d: vec3<f32>) -> f32 { return dot(d, d); }
fn dotPx(a: vec3<f32>, b: vec3<f32>) -> f32 { return dot(a, b); }
fn brightSum(x: vec3<f32>) -> f32 { return x.x + x.y + x.z; }
fn saturated(x: vec3<f32>) -> bool { return max(x.x, max(x.y, x.z)) >= 255.0; }
fn pixelAt(p: u32) -> vec3<f32> {
  let c = frame[p];
  return vec3<f32>(f32(c & 0xffu), f32((c >> 8u) & 0xffu), f32((c >> 16u) & 0xffu));
}
// The four pixels of mask word w (past the last pixel: the last again, never used).
fn wordPixels(w: u32) -> array<vec3<f32>, 4> {
  var out: array<vec3<f32>, 4>;
  for (var k = 0u; k < 4u; k++) { out[k] = pixelAt(min(w * 4u + k, params.pixels - 1u)); }
  return out;
}
fn meanAt(k: u32, p: u32) -> vec3<f32> {
  let at = 3u * k * params.pixels + p;
  return vec3<f32>(means[at], means[at + params.pixels], means[at + 2u * params.pixels]);
}
fn setMean(k: u32, p: u32, m: vec3<f32>) {
  let at = 3u * k * params.pixels + p;
  means[at] = m.x;
  means[at + params.pixels] = m.y;
  means[at + 2u * params.pixels] = m.z;
}

#include "common/mog2.wgsl"
