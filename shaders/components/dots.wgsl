// Dots: for each component `features()` kept, one workgroup measures it again over its box with the gray image
// and the canonical labels: the gray-weighted centre (weights: gray above the component's darkest pixel, so the
// rim, half covered, counts less than the core), the second moments of its pixels (the ellipse), and how far its
// boundary pixels stray from that ellipse (the spread of their normalised radius, ~0 for a disc or an ellipse,
// 0.11 for a square). Sums are per invocation in f32 over coordinates relative to the box, then reduced in
// workgroup memory. The host keeps the round ones (nodes/components/dots.ts); the CPU reference is src/reference/dotsCpu.ts.
const FW = 256u;
const OUT: u32 = 8u;   // words per component in `out`, after one word (the features' count of kept components, copied there)

struct Params {
  width: u32,
  height: u32,
  maxResults: u32,
  head: u32,           // the features results' header words
  stride: u32,         // words per (label, record) entry
  fx0: u32,            // record field offsets (shaders/common/record.wgsl)
  fy0: u32,
  fx1: u32,
  fy1: u32,
  fgmin: u32,
  maxSide: u32,        // boxes with a longer side are not measured
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> gray: array<u32>;
@group(0) @binding(2) var<storage, read> labels: array<u32>;
@group(0) @binding(3) var<storage, read> results: array<u32>;
@group(0) @binding(4) var<storage, read_write> out: array<u32>;

#include "common/gray.wgsl"

var<workgroup> red: array<vec4<f32>, FW>;
var<workgroup> red2: array<vec4<f32>, FW>;

fn reduce2(t: u32) {
  workgroupBarrier();
  for (var s = FW / 2u; s > 0u; s >>= 1u) {
    if (t < s) {
      red[t] += red[t + s];
      red2[t] += red2[t + s];
    }
    workgroupBarrier();
  }
}

@compute @workgroup_size(FW)
fn measureDots(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let e = wid.y * nwg.x + wid.x;
  if (e >= min(results[0], params.maxResults)) { return; }
  let r = params.head + e * params.stride;
  let l = results[r];
  let x0 = results[r + 1u + params.fx0];
  let y0 = results[r + 1u + params.fy0];
  let bw = results[r + 1u + params.fx1] - x0 + 1u;
  let bh = results[r + 1u + params.fy1] - y0 + 1u;
  let gmin = results[r + 1u + params.fgmin];
  if (t == 0u) {
    out[1u + e * OUT] = l;
    out[2u + e * OUT] = 0u;
  }
  if (max(bw, bh) > params.maxSide) { return; }
  let n = bw * bh;
  // Area and pixel sums; weight and weighted sums.
  var a = vec4<f32>(0.0);
  var b = vec4<f32>(0.0);
  for (var i = t; i < n; i += FW) {
    let x = x0 + i % bw;
    let y = y0 + i / bw;
    let p = y * params.width + x;
    if (labels[p] != l) { continue; }
    let d = vec2<f32>(f32(i % bw), f32(i / bw));
    let w = f32(grayAt(p) - gmin);
    a += vec4<f32>(1.0, d.x, d.y, 0.0);
    b += vec4<f32>(w, w * d.x, w * d.y, 0.0);
  }
  red[t] = a;
  red2[t] = b;
  reduce2(t);
  let area = red[0].x;
  let mean = red[0].yz / area;
  let wsum = red2[0].x;
  // A component of one gray level has no weights: its centre is its pixels' mean.
  let centre = select(mean, red2[0].yz / wsum, wsum > 0.0);
  workgroupBarrier();
  // Central second moments.
  a = vec4<f32>(0.0);
  for (var i = t; i < n; i += FW) {
    let p = (y0 + i / bw) * params.width + x0 + i % bw;
    if (labels[p] != l) { continue; }
    let q = vec2<f32>(f32(i % bw), f32(i / bw)) - mean;
    a += vec4<f32>(q.x * q.x, q.y * q.y, q.x * q.y, 0.0);
  }
  red[t] = a;
  red2[t] = vec4<f32>(0.0);
  reduce2(t);
  let mu = red[0].xyz / area;
  workgroupBarrier();
  // The boundary pixels' normalised radius sqrt(qᵀ Σ⁻¹ q): its mean and mean square.
  let det = mu.x * mu.y - mu.z * mu.z;
  a = vec4<f32>(0.0);
  if (det > 0.0) {
    for (var i = t; i < n; i += FW) {
      let x = x0 + i % bw;
      let y = y0 + i / bw;
      let p = y * params.width + x;
      if (labels[p] != l) { continue; }
      let edge = x == 0u || y == 0u || x == params.width - 1u || y == params.height - 1u ||
        labels[p - 1u] != l || labels[p + 1u] != l || labels[p - params.width] != l || labels[p + params.width] != l;
      if (!edge) { continue; }
      let q = vec2<f32>(f32(i % bw), f32(i / bw)) - mean;
      let rr = sqrt(max(0.0, (mu.y * q.x * q.x + mu.x * q.y * q.y - 2.0 * mu.z * q.x * q.y) / det));
      a += vec4<f32>(1.0, rr, rr * rr, 0.0);
    }
  }
  red[t] = a;
  reduce2(t);
  if (t == 0u) {
    let m = red[0].y / max(red[0].x, 1.0);
    let spread = select(1.0, sqrt(max(0.0, red[0].z / red[0].x - m * m)) / m, red[0].x > 0.0 && m > 0.0);
    let o = 1u + e * OUT;
    out[o + 1u] = u32(area);
    out[o + 2u] = bitcast<u32>(f32(x0) + centre.x);
    out[o + 3u] = bitcast<u32>(f32(y0) + centre.y);
    out[o + 4u] = bitcast<u32>(mu.x);
    out[o + 5u] = bitcast<u32>(mu.y);
    out[o + 6u] = bitcast<u32>(mu.z);
    out[o + 7u] = bitcast<u32>(spread);
  }
}
