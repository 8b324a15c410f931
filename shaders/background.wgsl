// Background model: Zivkovic's adaptive Gaussian mixture per pixel (MOG2), on gray, step for step as OpenCV's
// BackgroundSubtractorMOG2 updates one channel, so that its defaults mean what OpenCV users know. Each pixel keeps
// up to MODES Gaussians (weight, mean, variance) sorted by weight; a pixel is background when it lies within
// varThreshold variances of a mode among the heaviest ones that make up backgroundRatio of the weight; the model
// learns at rate alpha (1 / min(2·frames, history) unless set); modes lighter than the complexity prior are
// dropped; a foreground pixel is shadow when it is a darker copy (ratio tau..1) of a background mode. The
// reference is src/reference/backgroundCpu.ts, in the same f32 steps.
//
// One invocation per mask word (four pixels), so the mask, the shadow mask and the packed mode counts are
// written whole. The modes live in three planes (weights, means, variances), mode k of pixel p at k·pixels + p.
override WG: u32;
override MODES: u32 = 5u;
const MAX_MODES: u32 = 8u;
#include "common/index.wgsl"

struct Params {
  width: u32,
  height: u32,
  pixels: u32,
  words: u32,
  alpha: f32,            // learning rate this frame
  prune: f32,            // -alpha · complexity reduction prior
  varThreshold: f32,     // Tb: squared distance, in variances, within which a background mode matches
  varThresholdGen: f32,  // Tg: the same for updating a mode rather than creating one
  backgroundRatio: f32,  // TB: weight the background modes make up
  varInit: f32,
  varMin: f32,
  varMax: f32,
  shadows: u32,          // 1: detect shadows
  tau: f32,              // shadow: darkest ratio to the background
  foregroundLearning: f32, // factor on the rate for pixels found foreground (1: as OpenCV)
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> gray: array<u32>;
@group(0) @binding(2) var<storage, read_write> weights: array<f32>;
@group(0) @binding(3) var<storage, read_write> means: array<f32>;
@group(0) @binding(4) var<storage, read_write> variances: array<f32>;
@group(0) @binding(5) var<storage, read_write> counts: array<u32>;   // modes used, 8 bits a pixel
@group(0) @binding(6) var<storage, read_write> mask: array<u32>;     // foreground, shadows excluded
@group(0) @binding(7) var<storage, read_write> shadow: array<u32>;

var<private> W: array<f32, MAX_MODES>;
var<private> M: array<f32, MAX_MODES>;
var<private> V: array<f32, MAX_MODES>;

fn swapModes(i: u32, j: u32) {
  let w = W[i]; W[i] = W[j]; W[j] = w;
  let m = M[i]; M[i] = M[j]; M[j] = m;
  let v = V[i]; V[i] = V[j]; V[j] = v;
}

// OpenCV's detectShadowGMM for one channel, over the updated modes.
fn isShadow(x: f32, n: u32) -> bool {
  var total = 0.0;
  for (var k = 0u; k < n; k++) {
    let num = M[k] * x;
    let den = M[k] * M[k];
    if (den == 0.0) { return false; }
    if (num <= den && num >= params.tau * den) {
      let a = num / den;
      let d = a * M[k] - x;
      if (d * d < params.varThreshold * V[k] * a * a) { return true; }
    }
    total += W[k];
    if (total > params.backgroundRatio) { return false; }
  }
  return false;
}

fn load(p: u32, n: u32) {
  for (var k = 0u; k < n; k++) {
    W[k] = weights[k * params.pixels + p];
    M[k] = means[k * params.pixels + p];
    V[k] = variances[k * params.pixels + p];
  }
}

// One MOG2 step of the modes in W, M, V (`used` of them) with gray x at rate alpha: whether x is background (as the
// step sees it) and the modes used after it.
fn learn(x: f32, used: u32, alpha: f32, prune: f32) -> vec2<u32> {
  var n = used;
  let keep = 1.0 - alpha;
  var total = 0.0;
  var background = false;
  var fits = false;
  // As OpenCV: a pruned mode shortens the loop (the last mode is dropped), and a matched mode bubbles up.
  for (var k = 0u; k < n; k++) {
    var weight = keep * W[k] + prune;
    var swaps = 0u;
    if (!fits) {
      let v = V[k];
      let d = M[k] - x;
      let d2 = d * d;
      if (total < params.backgroundRatio && d2 < params.varThreshold * v) { background = true; }
      if (d2 < params.varThresholdGen * v) {
        fits = true;
        weight += alpha;
        let g = alpha / weight;
        M[k] -= g * d;
        V[k] = clamp(v + g * (d2 - v), params.varMin, params.varMax);
        for (var i = k; i > 0u; i--) {
          if (weight < W[i - 1u]) { break; }
          swaps++;
          swapModes(i, i - 1u);
        }
      }
    }
    if (weight < -prune) {
      weight = 0.0;
      n--;
    }
    W[k - swaps] = weight;
    total += weight;
  }
  if (total > 0.0) {
    let inv = 1.0 / total;
    for (var k = 0u; k < n; k++) { W[k] *= inv; }
  }
  if (!fits && alpha > 0.0) {
    var k = MODES - 1u;
    if (n < MODES) { k = n; n++; }
    if (n == 1u) {
      W[k] = 1.0;
    } else {
      W[k] = alpha;
      for (var i = 0u; i + 1u < n; i++) { W[i] *= keep; }
    }
    M[k] = x;
    V[k] = params.varInit;
    for (var i = n - 1u; i > 0u; i--) {
      if (alpha < W[i - 1u]) { break; }
      swapModes(i, i - 1u);
    }
  }
  return vec2<u32>(select(0u, 1u, background), n);
}

// Updates pixel p's modes with gray x; 0 background, 1 foreground, 2 shadow. A pixel found foreground learns again
// from its old modes at foregroundLearning × the rate (when that is below 1): something that stops stays foreground
// that many times longer.
fn update(p: u32, x: f32, used: u32) -> vec2<u32> {
  load(p, used);
  var r = learn(x, used, params.alpha, params.prune);
  let background = r.x == 1u;
  if (!background && params.foregroundLearning < 1.0) {
    load(p, used);
    r = learn(x, used, params.alpha * params.foregroundLearning, params.prune * params.foregroundLearning);
  }
  let n = r.y;
  for (var k = 0u; k < n; k++) {
    weights[k * params.pixels + p] = W[k];
    means[k * params.pixels + p] = M[k];
    variances[k * params.pixels + p] = V[k];
  }
  var kind = 0u;
  if (!background) { kind = select(1u, 2u, params.shadows != 0u && isShadow(x, n)); }
  return vec2<u32>(kind, n);
}

@compute @workgroup_size(WG)
fn mog2(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let w = linearIndex(gid, nwg);
  if (w >= params.words) { return; }
  let g = gray[w];
  let c = counts[w];
  var fg = 0u;
  var sh = 0u;
  var nc = 0u;
  for (var k = 0u; k < 4u; k++) {
    let p = w * 4u + k;
    if (p >= params.pixels) { break; }
    let r = update(p, f32((g >> (8u * k)) & 0xffu), (c >> (8u * k)) & 0xffu);
    if (r.x == 1u) { fg |= 0xffu << (8u * k); }
    if (r.x == 2u) { sh |= 0xffu << (8u * k); }
    nc |= r.y << (8u * k);
  }
  mask[w] = fg;
  shadow[w] = sh;
  counts[w] = nc;
}
