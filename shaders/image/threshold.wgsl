// Threshold: RGBA -> gray, then gray -> binary mask (0 or 255 per pixel), by a fixed level, Otsu's level (a
// histogram on the GPU and an exact integer search) or an adaptive local mean. Gray and mask are 8 bits per
// pixel, four pixels per u32 word in raster order; each invocation handles one word.
override WG: u32;
#include "common/index.wgsl"

struct Params {
  width: u32,
  height: u32,
  pixels: u32,
  words: u32,
  invert: u32,   // 1: foreground is the complement of the test
  radius: u32,   // adaptive window half-size
  offset: i32,   // adaptive: foreground where gray > mean - offset
  threads: u32,  // total invocations of the histogram dispatch (grid stride)
  base: u32,     // adaptive: the mask's pixel index of the frame's first pixel (markers stack several masks)
}

@group(0) @binding(0) var<uniform> params: Params;

// grayFromRgba
@group(0) @binding(1) var<storage, read> rgba: array<u32>;
@group(0) @binding(2) var<storage, read_write> grayOut: array<u32>;

// Rec. 601 luma in integers: the same formula as the CPU reference, so results match exactly.
fn luma(c: u32) -> u32 {
  let r = c & 0xffu;
  let g = (c >> 8u) & 0xffu;
  let b = (c >> 16u) & 0xffu;
  return (77u * r + 150u * g + 29u * b + 128u) >> 8u;
}

@compute @workgroup_size(WG)
fn grayFromRgba(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let w = linearIndex(gid, nwg);
  if (w >= params.words) { return; }
  var word = 0u;
  for (var k = 0u; k < 4u; k++) {
    let p = w * 4u + k;
    if (p < params.pixels) { word |= luma(rgba[p]) << (8u * k); }
  }
  grayOut[w] = word;
}

// histogram / otsu / binarize share `stats`: bins 0..255 and the chosen level at 256.
@group(0) @binding(1) var<storage, read> gray: array<u32>;
@group(0) @binding(2) var<storage, read_write> hist: array<atomic<u32>>;

var<workgroup> localHist: array<atomic<u32>, 256>;

@compute @workgroup_size(WG)
fn histogram(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) li: u32) {
  for (var i = li; i < 256u; i += WG) { atomicStore(&localHist[i], 0u); }
  workgroupBarrier();
  for (var w = linearIndex(gid, nwg); w < params.words; w += params.threads) {
    let word = gray[w];
    for (var k = 0u; k < 4u; k++) {
      if (w * 4u + k < params.pixels) { atomicAdd(&localHist[(word >> (8u * k)) & 0xffu], 1u); }
    }
  }
  workgroupBarrier();
  for (var i = li; i < 256u; i += WG) {
    let c = atomicLoad(&localHist[i]);
    if (c != 0u) { atomicAdd(&hist[i], c); }
  }
}

// ---- Otsu: maximise w0 w1 (mu0 - mu1)^2, i.e. D^2 / (w (N - w)) with D = S w - N s, in exact integers.
// N <= 2^24 pixels keeps S = sum of gray values under 2^32. Numbers are little-endian u32 limbs.
@group(0) @binding(1) var<storage, read_write> stats: array<u32>;
#include "common/math.wgsl"


// a * b truncated to 6 limbs (callers keep products under 2^192).
fn mulBig(a: array<u32, 6>, b: array<u32, 6>) -> array<u32, 6> {
  var r: array<u32, 6>;
  for (var i = 0u; i < 6u; i++) {
    var carry = 0u;
    for (var j = 0u; i + j < 6u; j++) {
      let p = mul32(a[i], b[j]);
      let s = r[i + j] + p.x;
      let c1 = select(0u, 1u, s < p.x);
      let s2 = s + carry;
      let c2 = select(0u, 1u, s2 < s);
      r[i + j] = s2;
      carry = p.y + c1 + c2;
    }
  }
  return r;
}

// -1, 0, 1 as a < b, a == b, a > b.
fn cmpBig(a: array<u32, 6>, b: array<u32, 6>) -> i32 {
  for (var i = 5i; i >= 0i; i--) {
    if (a[i] > b[i]) { return 1i; }
    if (a[i] < b[i]) { return -1i; }
  }
  return 0i;
}

var<workgroup> cw: array<u32, 256>;   // cumulative counts
var<workgroup> cs: array<u32, 256>;   // cumulative sums of gray values
var<workgroup> bestNum: array<array<u32, 6>, 256>;
var<workgroup> bestDen: array<array<u32, 6>, 256>;
var<workgroup> bestT: array<u32, 256>;

@compute @workgroup_size(256)
fn otsu(@builtin(local_invocation_index) t: u32) {
  cw[t] = stats[t];
  cs[t] = stats[t] * t;
  workgroupBarrier();
  for (var d = 1u; d < 256u; d <<= 1u) {
    var w = cw[t]; var s = cs[t];
    if (t >= d) { w += cw[t - d]; s += cs[t - d]; }
    workgroupBarrier();
    cw[t] = w; cs[t] = s;
    workgroupBarrier();
  }
  let n = cw[255]; let sum = cs[255];
  let w = cw[t]; let s = cs[t];
  var num: array<u32, 6>;
  var den: array<u32, 6>;
  var valid = w > 0u && w < n;
  if (valid) {
    let a = mul32(sum, w); let b = mul32(n, s);
    // |a - b| as two limbs
    var lo: u32; var hi: u32;
    if (a.y > b.y || (a.y == b.y && a.x >= b.x)) {
      lo = a.x - b.x; hi = a.y - b.y - select(0u, 1u, a.x < b.x);
    } else {
      lo = b.x - a.x; hi = b.y - a.y - select(0u, 1u, b.x < a.x);
    }
    let dd = array<u32, 6>(lo, hi, 0u, 0u, 0u, 0u);
    num = mulBig(dd, dd);
    let q = mul32(w, n - w);
    den = array<u32, 6>(q.x, q.y, 0u, 0u, 0u, 0u);
  }
  bestNum[t] = num;
  bestDen[t] = den;
  // Invalid candidates carry t + 256 so any valid one wins, and the smallest valid t wins ties.
  bestT[t] = select(t + 256u, t, valid);
  workgroupBarrier();
  for (var half = 128u; half > 0u; half >>= 1u) {
    if (t < half) {
      let o = t + half;
      let ta = bestT[t]; let tb = bestT[o];
      var takeOther = false;
      if (ta >= 256u || tb >= 256u) {
        takeOther = tb < ta;
      } else {
        let c = cmpBig(mulBig(bestNum[o], bestDen[t]), mulBig(bestNum[t], bestDen[o]));
        takeOther = c > 0i || (c == 0i && tb < ta);
      }
      if (takeOther) { bestNum[t] = bestNum[o]; bestDen[t] = bestDen[o]; bestT[t] = tb; }
    }
    workgroupBarrier();
  }
  if (t == 0u) {
    var level = bestT[0];
    if (level >= 256u) {
      // One gray value only: no split exists. Take that value, so nothing is above the level.
      level = 0u;
      for (var i = 0u; i < 256u; i++) { if (cw[i] == n) { level = i; break; } }
    }
    stats[256] = level;
  }
}

// binarize: mask = gray > level (xor invert), level from stats[256].
@group(0) @binding(2) var<storage, read> levelIn: array<u32>;
@group(0) @binding(3) var<storage, read_write> mask: array<u32>;

@compute @workgroup_size(WG)
fn binarize(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let w = linearIndex(gid, nwg);
  if (w >= params.words) { return; }
  let level = levelIn[256];
  let word = gray[w];
  var out = 0u;
  for (var k = 0u; k < 4u; k++) {
    let fg = (((word >> (8u * k)) & 0xffu) > level) != (params.invert != 0u);
    if (fg && w * 4u + k < params.pixels) { out |= 0xffu << (8u * k); }
  }
  mask[w] = out;
}

// ---- adaptive: window sums from row prefix sums P (P[y][x] = sum of gray over [0, x) on row y, width + 1 per row):
// a row's window sum is two reads whatever the window; columns of them are summed by sliding down a chunk of rows.
// Sums are exact in u32 (255 × 255² at most per window).
@group(0) @binding(2) var<storage, read_write> prefixOut: array<u32>;

#include "common/gray.wgsl"

const ROW_WG: u32 = 256u;
// Rows each `adaptive` invocation slides down.
const CHUNK: u32 = 16u;
var<workgroup> chunkSums: array<u32, ROW_WG>;

// One workgroup per row: each invocation sums a run of the row, the runs' sums are scanned in workgroup memory,
// then each invocation writes its run's prefix sums.
@compute @workgroup_size(ROW_WG)
fn rowPrefixes(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let y = wid.y * nwg.x + wid.x;
  if (y >= params.height) { return; }
  let w = params.width;
  let run = (w + ROW_WG - 1u) / ROW_WG;
  let x0 = min(t * run, w);
  let x1 = min(x0 + run, w);
  let row = y * w;
  var s = 0u;
  for (var x = x0; x < x1; x++) { s += grayAt(row + x); }
  chunkSums[t] = s;
  workgroupBarrier();
  // Inclusive scan (Hillis–Steele) of the runs' sums.
  for (var d = 1u; d < ROW_WG; d <<= 1u) {
    var v = chunkSums[t];
    if (t >= d) { v += chunkSums[t - d]; }
    workgroupBarrier();
    chunkSums[t] = v;
    workgroupBarrier();
  }
  var acc = select(0u, chunkSums[t - 1u], t > 0u);
  let out = y * (w + 1u);
  if (t == 0u) { prefixOut[out] = 0u; }
  for (var x = x0; x < x1; x++) {
    acc += grayAt(row + x);
    prefixOut[out + x + 1u] = acc;
  }
}

@group(0) @binding(2) var<storage, read> prefix: array<u32>;
@group(0) @binding(3) var<storage, read_write> maskBits: array<atomic<u32>>;

// Sum of gray over row y's window around x (clipped).
fn rowWindow(y: u32, x0: u32, x1: u32) -> u32 {
  let base = y * (params.width + 1u);
  return prefix[base + x1 + 1u] - prefix[base + x0];
}

// One invocation per column and chunk of CHUNK rows (neighbours in x side by side, so reads coalesce): the
// window's sum slides down the chunk, adding the row that enters and taking off the row that leaves. Foreground
// pixels are set in the cleared mask with atomicOr (four pixels share a word).
@compute @workgroup_size(WG)
fn adaptive(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let id = linearIndex(gid, nwg);
  let w = params.width;
  let h = params.height;
  if (id >= w * ((h + CHUNK - 1u) / CHUNK)) { return; }
  let x = id % w;
  let ys = (id / w) * CHUNK;
  let ye = min(ys + CHUNK, h);
  let r = params.radius;
  let x0 = select(0u, x - r, x >= r);
  let x1 = min(x + r, w - 1u);
  var s = 0u;
  for (var y = select(0u, ys - r, ys >= r); y <= min(ys + r, h - 1u); y++) { s += rowWindow(y, x0, x1); }
  for (var y = ys; y < ye; y++) {
    let count = i32((x1 - x0 + 1u) * (min(y + r, h - 1u) - select(0u, y - r, y >= r) + 1u));
    let p = y * w + x;
    // gray > mean - offset  <=>  (gray + offset) * count > sum, exact in integers.
    if (((i32(grayAt(p)) + params.offset) * count > i32(s)) != (params.invert != 0u)) {
      let q = params.base + p;
      atomicOr(&maskBits[q >> 2u], 0xffu << (8u * (q & 3u)));
    }
    if (y + r + 1u < h) { s += rowWindow(y + r + 1u, x0, x1); }
    if (y >= r) { s -= rowWindow(y - r, x0, x1); }
  }
}
