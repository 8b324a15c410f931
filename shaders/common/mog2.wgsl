// Background model: Zivkovic's adaptive Gaussian mixture per pixel (MOG2), step for step as OpenCV's
// BackgroundSubtractorMOG2 updates a pixel of one channel (gray) or three (color: one variance per mode, distances
// summed over the channels, as OpenCV's), so that its defaults mean what OpenCV users know. Each pixel keeps
// up to MODES Gaussians (weight, mean, variance) sorted by weight; a pixel is background when it lies within
// varThreshold variances of a mode among the heaviest ones that make up backgroundRatio of the weight; the model
// learns at rate alpha (1 / min(2·frames, history) unless set); modes lighter than the complexity prior are
// dropped; a foreground pixel is shadow when it is a darker copy (ratio tau..1) of a background mode — on gray
// any darker pixel within the ratio, in color only one whose color is the background's scaled. The reference is
// src/reference/backgroundCpu.ts, in the same f32 steps.
//
// The including shader (background.wgsl, backgroundColor.wgsl) says what a pixel is: `Px` (f32 or vec3<f32>),
// CHANNELS, `sq`, `dotPx`, `brightSum`, `saturated`, `pixelAt` and `wordPixels` over `frame`, and `meanAt` /
// `setMean` over `means`, which holds CHANNELS planes a mode: channel c of mode k of pixel p at
// (k·CHANNELS + c)·pixels + p.
//
// Global lighting (a camera's exposure, a cloud, lights switched on): with `compensate`, a frame is first divided by
// its gain against the model, the median ratio of brightness (the channels' sum) to the heaviest mode's over one
// pixel in 16 (a histogram of ratios, so moving objects, a minority, do not move it), and the model learns and tests
// the compensated frame. The median walk runs on the GPU too: nothing is read back.
//
// One invocation per mask word (four pixels), so the mask, the shadow mask and the packed mode counts are
// written whole. Weights and variances live in a plane each, mode k of pixel p at k·pixels + p.
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
  compensate: u32,       // 1: divide each frame by its gain against the model
}

// The lighting histogram: RATIO_BINS bins of brightness / the background's, RATIO_SCALE bins per unit of ratio (the last
// bin takes every larger ratio), then the gain the mog2 pass divides by (as f32 bits).
const RATIO_BINS: u32 = 512u;
const RATIO_SCALE: f32 = 128.0;
const GAIN_AT: u32 = 512u;
// Too few usable samples (a first frame, a black one): no compensation.
const MIN_SAMPLES: u32 = 32u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> frame: array<u32>;   // gray, 4 pixels a word; or RGBA, one a word
@group(0) @binding(2) var<storage, read_write> weights: array<f32>;
@group(0) @binding(3) var<storage, read_write> means: array<f32>;
@group(0) @binding(4) var<storage, read_write> variances: array<f32>;
@group(0) @binding(5) var<storage, read_write> counts: array<u32>;   // modes used, 8 bits a pixel
@group(0) @binding(6) var<storage, read_write> mask: array<u32>;     // foreground, shadows excluded
@group(0) @binding(7) var<storage, read_write> shadow: array<u32>;
@group(0) @binding(8) var<storage, read_write> light: array<atomic<u32>>;

var<private> W: array<f32, MAX_MODES>;
var<private> M: array<Px, MAX_MODES>;
var<private> V: array<f32, MAX_MODES>;

fn swapModes(i: u32, j: u32) {
  let w = W[i]; W[i] = W[j]; W[j] = w;
  let m = M[i]; M[i] = M[j]; M[j] = m;
  let v = V[i]; V[i] = V[j]; V[j] = v;
}

// OpenCV's detectShadowGMM, over the updated modes.
fn isShadow(x: Px, n: u32) -> bool {
  var total = 0.0;
  for (var k = 0u; k < n; k++) {
    let num = dotPx(M[k], x);
    let den = dotPx(M[k], M[k]);
    if (den == 0.0) { return false; }
    if (num <= den && num >= params.tau * den) {
      let a = num / den;
      let d = a * M[k] - x;
      if (sq(d) < params.varThreshold * V[k] * a * a) { return true; }
    }
    total += W[k];
    if (total > params.backgroundRatio) { return false; }
  }
  return false;
}

fn load(p: u32, n: u32) {
  for (var k = 0u; k < n; k++) {
    W[k] = weights[k * params.pixels + p];
    M[k] = meanAt(k, p);
    V[k] = variances[k * params.pixels + p];
  }
}

// One MOG2 step of the modes in W, M, V (`used` of them) with pixel x at rate alpha: whether x is background (as the
// step sees it) and the modes used after it.
fn learn(x: Px, used: u32, alpha: f32, prune: f32) -> vec2<u32> {
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
      let d2 = sq(d);
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

// Updates pixel p's modes with pixel value x; 0 background, 1 foreground, 2 shadow. A pixel found foreground learns again
// from its old modes at foregroundLearning × the rate (when that is below 1): something that stops stays foreground
// that many times longer.
fn update(p: u32, x: Px, used: u32) -> vec2<u32> {
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
    setMean(k, p, M[k]);
    variances[k * params.pixels + p] = V[k];
  }
  var kind = 0u;
  if (!background) { kind = select(1u, 2u, params.shadows != 0u && isShadow(x, n)); }
  return vec2<u32>(kind, n);
}

// One sample pixel in 16 (every fourth column of every fourth row): its brightness's ratio to its heaviest mode's,
// where the model has a mode, the mean is not near black and no channel of the pixel is saturated. Most ratios fall in a few bins
// (the scene's light is one gain): each workgroup counts into its own histogram in workgroup memory and adds its
// nonzero bins to the global one, rather than every sample contending for one global bin. Four samples an
// invocation: enough workgroups to fill the GPU (a 1080p frame's 130k samples in 127), each sample a short chain of
// dependent reads.
const SAMPLES_PER_INVOCATION: u32 = 4u;
var<workgroup> localBins: array<atomic<u32>, RATIO_BINS>;

fn countSample(i: u32) {
  let cols = (params.width + 3u) / 4u;
  if (i >= cols * ((params.height + 3u) / 4u)) { return; }
  let p = (i / cols) * 4u * params.width + (i % cols) * 4u;
  if (((counts[p / 4u] >> (8u * (p % 4u))) & 0xffu) == 0u) { return; }
  let mean = brightSum(meanAt(0u, p));
  let x = pixelAt(p);
  if (mean < 16.0 * f32(CHANNELS) || saturated(x)) { return; }
  atomicAdd(&localBins[min(RATIO_BINS - 1u, u32(brightSum(x) / mean * RATIO_SCALE))], 1u);
}

@compute @workgroup_size(WG)
fn lightHistogram(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) li: u32) {
  for (var b = li; b < RATIO_BINS; b += WG) { atomicStore(&localBins[b], 0u); }
  workgroupBarrier();
  let first = linearIndex(gid, nwg) * SAMPLES_PER_INVOCATION;
  for (var k = 0u; k < SAMPLES_PER_INVOCATION; k++) { countSample(first + k); }
  workgroupBarrier();
  for (var b = li; b < RATIO_BINS; b += WG) {
    let n = atomicLoad(&localBins[b]);
    if (n != 0u) { atomicAdd(&light[b], n); }
  }
}

// The histogram's median, interpolated within its bin, as the frame's gain (1 with too few samples); the
// histogram cleared for the next frame. One workgroup: the bins scanned in workgroup memory (a single invocation
// walking them in global memory is a long serial chain of global reads), then the one bin where the count passes
// half says so.
const GAIN_WG: u32 = 256u;
var<workgroup> binScan: array<u32, RATIO_BINS>;

@compute @workgroup_size(GAIN_WG)
fn lightGain(@builtin(local_invocation_index) li: u32) {
  for (var b = li; b < RATIO_BINS; b += GAIN_WG) {
    binScan[b] = atomicLoad(&light[b]);
    atomicStore(&light[b], 0u);
  }
  workgroupBarrier();
  // Inclusive scan (Hillis–Steele), RATIO_BINS / GAIN_WG bins an invocation.
  for (var d = 1u; d < RATIO_BINS; d <<= 1u) {
    var v: array<u32, 2>;
    for (var k = 0u; k < 2u; k++) {
      let b = li + k * GAIN_WG;
      v[k] = binScan[b];
      if (b >= d) { v[k] += binScan[b - d]; }
    }
    workgroupBarrier();
    for (var k = 0u; k < 2u; k++) { binScan[li + k * GAIN_WG] = v[k]; }
    workgroupBarrier();
  }
  let total = binScan[RATIO_BINS - 1u];
  if (total < MIN_SAMPLES) {
    if (li == 0u) { atomicStore(&light[GAIN_AT], bitcast<u32>(1.0)); }
    return;
  }
  let half = f32(total) * 0.5;
  for (var k = 0u; k < 2u; k++) {
    let b = li + k * GAIN_WG;
    var below = 0u;
    if (b > 0u) { below = binScan[b - 1u]; }
    let n = binScan[b] - below;
    // The first bin whose count reaches half: the one below half before it and at or past half with it.
    if (f32(below) < half && f32(below + n) >= half) {
      atomicStore(&light[GAIN_AT], bitcast<u32>((f32(b) + (half - f32(below)) / f32(n)) / RATIO_SCALE));
    }
  }
}

@compute @workgroup_size(WG)
fn mog2(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let w = linearIndex(gid, nwg);
  if (w >= params.words) { return; }
  let px = wordPixels(w);
  let c = counts[w];
  var gain = 1.0;
  if (params.compensate != 0u) { gain = bitcast<f32>(atomicLoad(&light[GAIN_AT])); }
  var fg = 0u;
  var sh = 0u;
  var nc = 0u;
  for (var k = 0u; k < 4u; k++) {
    let p = w * 4u + k;
    if (p >= params.pixels) { break; }
    var x = px[k];
    if (params.compensate != 0u) { x = x / gain; }
    let r = update(p, x, (c >> (8u * k)) & 0xffu);
    if (r.x == 1u) { fg |= 0xffu << (8u * k); }
    if (r.x == 2u) { sh |= 0xffu << (8u * k); }
    nc |= r.y << (8u * k);
  }
  mask[w] = fg;
  shadow[w] = sh;
  counts[w] = nc;
}
