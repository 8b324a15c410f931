// background() on gray frames: MOG2 over one channel (shaders/common/mog2.wgsl), `frame` the gray image, four
// 8-bit pixels a word.
alias Px = f32;
const CHANNELS: u32 = 1u;

fn sq(d: f32) -> f32 { return d * d; }
fn dotPx(a: f32, b: f32) -> f32 { return a * b; }
fn brightSum(x: f32) -> f32 { return x; }
fn saturated(x: f32) -> bool { return x >= 255.0; }
fn pixelAt(p: u32) -> f32 { return f32((frame[p >> 2u] >> (8u * (p & 3u))) & 0xffu); }
// The four pixels of mask word w, from one read.
fn wordPixels(w: u32) -> array<f32, 4> {
  let g = frame[w];
  return array<f32, 4>(f32(g & 0xffu), f32((g >> 8u) & 0xffu), f32((g >> 16u) & 0xffu), f32(g >> 24u));
}
fn meanAt(k: u32, p: u32) -> f32 { return means[k * params.pixels + p]; }
fn setMean(k: u32, p: u32, m: f32) { means[k * params.pixels + p] = m; }

#include "common/mog2.wgsl"
