// Marker fit: one workgroup per candidate (markers/candidates.wgsl) finds the quadrilateral its boundary spans,
// refines the four corners to subpixel on the gray image and reads the cells. It does on the GPU what the CPU
// reference does (src/reference/detectMarkersCpu.ts, refineCornersCpu.ts, markerDecodeCpu.ts), step for step, so
// the two can be compared: the quad from integer keys with ties to the first pixel in raster order (the same four
// pixels), float steps in f32 rather than f64. The dictionary lookup stays on the CPU (a few bits per candidate).
//
// Quad (AprilTag 3 also fits quads from unordered boundary points): corners as extreme boundary pixels, p0 farthest
// from the box centre, p2 farthest from p0, pA farthest from the line p0–p2, pB adding the most area to the
// triangle p0 p2 pA; no boundary pixel may stick out of the quad by more than 1 px + 8% of its mean side.
// Refinement (two rounds): up to PROF profiles across each side, a cell away from the corners; each profile's edge
// is the gradient-weighted mean position of the strong part (> 1/5 of the peak) of its rise from the black border
// to the white margin, which a symmetric blur does not move; a total-least-squares line per side, fitted again
// without the points over three times the median distance; corners where neighbouring lines meet. The second round
// is, where every side's profiles reach 2 px or more, a blurred-step fit of each side (Gauss–Newton on all its
// samples: edge offset, slope and blur; under noise it weighs every sample by what it says about the edge, where a
// profile's own gradient is pulled by single noisy samples), else the same gradient round again.
// Reading: the homography of the refined corners maps the (n + 2)² cells and the quiet zone's ring around them; each
// is sampled q×q times away from its edges; black is the border's mean, white the quiet zone's, the threshold their
// middle; too little contrast or a border cell not black is no marker. A grid with an inner cell too near the middle,
// or one that explains the means poorly under every blur tried, is read again with the blur undone (`reread`).
// Several marker sizes (dictionaries of several sizes at once): workgroup_id.z picks the size, so each candidate is
// fitted and read once per size, side by side, as the CPU reference does it.
#include "common/markerList.wgsl"

// Invocations per workgroup: 256 or 512 (markerFit.ts takes 512 where the device allows it). The fit's time is
// the latency of one workgroup (a frame's candidates run side by side), and the profiles are most of it: with 512,
// each of a side's 128 lanes samples one profile instead of two.
override FW: u32 = 256u;
override LANES: u32 = FW / 4u;   // per side during refinement
const RED = 256u;        // entries of the reduction arrays: invocations past them fold their values in first
const PROF: u32 = 128u;      // profiles per side at most (maxProfiles in refineCornersCpu.ts)
const MAX_CELLS = 121u;  // (7 + 2 + 2)²: cells, border and the quiet zone's ring
const OUT: u32 = 16u;        // words per candidate in `out`, after the list's header (copied there by markerFit.ts)
const STEP = 0.1;        // profile sampling step, px
// The step fit's settings, from refineCornersCpu.ts (stepSpacing, stepIterations, minStepReach, stepDamping).
override STEP_SPACING: f32 = 0.5;
override STEP_ITERATIONS: u32 = 2u;
override MIN_STEP_REACH: f32 = 2.0;
override STEP_DAMPING: f32 = 1.0001;
const MAX_STEPS = 80u;   // steps of the widest profile: 2 × 4 px reach / STEP
const INVALID = -1e30;

// Status of a candidate in `out` (markerFit.ts decodes them).
const S_NONE = 0u;
const S_READ = 1u;
const S_NO_QUAD = 2u;
const S_NO_EDGE = 3u;
const S_CONTRAST = 4u;
const S_BORDER = 5u;
const S_DOUBT = 6u;
const S_DEBLURRED = 7u;  // read with the blur undone: the host takes only an exact dictionary match

// Reading a grid again with the blur undone (markerDecodeCpu.ts: deblurredGrid, gridResidual and their constants):
// one slot per blur, 8 side by side.
// Blurs tried (σ in cells), as deblurSigmas and fitSigmas there (arrays cannot be overrides).
const DEBLUR_SIGMAS = array<f32, 8>(0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0);
const FIT_SIGMAS = array<f32, 8>(0.15, 0.25, 0.35, 0.45, 0.55, 0.7, 0.85, 1.0);
// The second read's settings, from markerDecodeCpu.ts (deblurMargin, deblurSteps, deblurStep, blurGate,
// blurSigmaGate, blurRatio; markerFit.ts passes them).
override DEBLUR_MARGIN: f32 = 0.2;   // a solution's inner cells must end this far from the middle
override DEBLUR_STEPS: u32 = 12u;    // damped Jacobi steps ...
override DEBLUR_STEP: f32 = 0.5;     // ... and their damping
override BLUR_GATE: f32 = 0.03;      // a read explaining the means worse than this is read again ...
override BLUR_SIGMA_GATE: f32 = 0.45; // ... where it fits best under a blur this wide ...
override BLUR_RATIO: f32 = 0.5;      // ... and replaced where the new read explains them this much better
const FIT_LANES = 16u;      // invocations per slot summing a misfit
const NO_FIT = 1e30;

struct Params {
  width: u32,
  height: u32,
  maxCandidates: u32,
  // Cells per side, border included (n + 2), of each marker size read (workgroup_id.z picks one; up to 4 sizes).
  cells0: u32,
  cells1: u32,
  cells2: u32,
  cells3: u32,
  samples: u32,        // per cell side
  minContrast: f32,
  cellMargin: f32,     // fraction of a cell left unsampled at its edges
  pushOut: f32,        // px the quad's pixel corners are moved out from the centre to the border's outer edge
  doubt: f32,          // inner cells nearer the middle than this share of white − black: no marker
  // The blur model's reach in cells (2: ±2 cells, 5×5). A uniform rather than a constant so that the compiler keeps
  // the loops over it rolled: unrolled in each inlined copy they made lavapipe's compile of this kernel ~1.4× longer.
  blurReach: i32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> gray: array<u32>;
@group(0) @binding(2) var<storage, read> list: array<u32>;
@group(0) @binding(3) var<storage, read> points: array<u32>;
@group(0) @binding(4) var<storage, read_write> out: array<u32>;

#include "common/gray.wgsl"

// This workgroup's cells per side, border included: params.cells0..3 by workgroup_id.z.
var<private> cells: u32;

var<workgroup> keyV: array<u32, RED>;
var<workgroup> keyI: array<u32, RED>;
var<workgroup> red: array<vec4<f32>, RED>;
var<workgroup> edge: array<vec2<f32>, 512>;   // 4 × PROF
var<workgroup> dist: array<f32, 512>;
var<workgroup> corner: array<vec2<f32>, 4>;
var<workgroup> line: array<vec4<f32>, 4>;     // point, unit direction
var<workgroup> sideInfo: array<vec4<f32>, 4>; // points fitted, median distance, residual (RMS), -
var<workgroup> cellMean: array<f32, MAX_CELLS>;
var<workgroup> readStatus: u32;
var<workgroup> plainBits: vec2<u32>;            // the grid as read
var<workgroup> plainLevels: vec2<f32>;          // its black (the border's mean) and white (the quiet zone's)
// The second read's values live in the refinement's arrays, done with by then (workgroup memory stays under
// WebGPU's guaranteed 16 KB): `red` holds 8 slots × MAX_CELLS printed values, `dist` a Jacobi step's new values
// (8 slots × 49 inner cells), `edge` the misfits' partial sums (8 slots × FIT_LANES × 6).
var<workgroup> dbW: array<f32, 40>;           // 8 slots × 5 one-axis weights
var<workgroup> dbState: array<u32, 8>;        // 1: the slot is in use
var<workgroup> dbBits: array<vec2<u32>, 8>;   // each slot's binary grid
var<workgroup> dbPlain: vec2<f32>;            // the grid as read: its least misfit, and that blur
var<workgroup> dbFit: array<vec4<f32>, 8>;    // each slot's misfit: residual, black, span
var<workgroup> dbChoice: u32;                 // reread's answer
var<workgroup> status: u32;
var<workgroup> stepFailed: u32;
var<workgroup> stepMode: u32;   // 1: the second round is the step fit (stepReaches)

// Bilinear samples along a profile, with the four pixels around the last sample kept: successive samples 0.1 px
// apart mostly fall between the same four pixels, and the loads, not the arithmetic, are what a profile costs.
struct Pixels {
  at: u32,        // raster index of the top-left pixel, or 0xffffffff before the first sample
  a: f32, b: f32, d: f32, e: f32,
}

fn sampleCached(q: vec2<f32>, k: ptr<function, Pixels>) -> f32 {
  let w = params.width;
  let h = params.height;
  let c = clamp(q, vec2<f32>(0.0), vec2<f32>(f32(w - 1u), f32(h - 1u)));
  let x0 = min(w - 2u, u32(floor(c.x)));
  let y0 = min(h - 2u, u32(floor(c.y)));
  let fx = c.x - f32(x0);
  let fy = c.y - f32(y0);
  let p = y0 * w + x0;
  if (p != (*k).at) {
    (*k).at = p;
    (*k).a = f32(grayAt(p));
    (*k).b = f32(grayAt(p + 1u));
    (*k).d = f32(grayAt(p + w));
    (*k).e = f32(grayAt(p + w + 1u));
  }
  return ((*k).a * (1.0 - fx) + (*k).b * fx) * (1.0 - fy) + ((*k).d * (1.0 - fx) + (*k).e * fx) * fy;
}

// One bilinear sample (pixel centres at integers, clamped to the frame).
fn sampleGray(q: vec2<f32>) -> f32 {
  var k = Pixels(0xffffffffu, 0.0, 0.0, 0.0, 0.0);
  return sampleCached(q, &k);
}

// Larger key wins; on a tie, the first pixel in raster order.
fn better(v: u32, i: u32, bv: u32, bi: u32) -> bool { return v > bv || (v == bv && i < bi); }

fn reduceKeys(t: u32) {
  workgroupBarrier();
  for (var s = RED / 2u; s > 0u; s >>= 1u) {
    if (t < s && better(keyV[t + s], keyI[t + s], keyV[t], keyI[t])) {
      keyV[t] = keyV[t + s];
      keyI[t] = keyI[t + s];
    }
    workgroupBarrier();
  }
}

// The sum of `acc` over each side's lanes, for all of them (64 slots per side; lanes past 64 add theirs in first).
fn sumSides(acc: vec4<f32>, side: u32, lane: u32) -> vec4<f32> {
  let slot = side * 64u + lane % 64u;
  workgroupBarrier();
  if (lane < 64u) { red[slot] = acc; }
  for (var f = 1u; f < LANES / 64u; f++) {
    workgroupBarrier();
    if (lane / 64u == f) { red[slot] += acc; }
  }
  workgroupBarrier();
  for (var s = 32u; s > 0u; s >>= 1u) {
    if (lane < s) { red[slot] += red[slot + s]; }
    workgroupBarrier();
  }
  let total = red[side * 64u];
  workgroupBarrier();
  return total;
}

fn pointAt(i: u32) -> vec2<i32> {
  let v = points[i];
  return vec2<i32>(i32(v & 0xffffu), i32(v >> 16u));
}

// Twice the signed area of the triangle a b q: positive when q is clockwise of a → b as seen (y down). Exact in
// i32 for frames up to 16384 pixels a side.
fn cross2(a: vec2<i32>, b: vec2<i32>, q: vec2<i32>) -> i32 { return (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x); }

fn rasterIndex(q: vec2<i32>) -> u32 { return u32(q.y) * params.width + u32(q.x); }

fn pixelOf(i: u32) -> vec2<i32> { return vec2<i32>(i32(i % params.width), i32(i / params.width)); }

// Distance of a point from a side's line (0 for invalid points: they never pass a filter on their own).
fn lineDistance(q: vec2<f32>, l: vec4<f32>) -> f32 {
  let r = q - l.xy;
  return abs(r.x * l.w - r.y * l.z);
}

// Total least squares line through side `side`'s valid edge points within `limit` of line[side] (all of them when
// `limit` is negative). Leaves the count in sideInfo[side].x and, when there are at least `least` points, the line
// in line[side]. Called by all invocations.
fn fitSide(side: u32, lane: u32, limit: f32, least: f32) {
  let base = side * PROF;
  let old = line[side];
  var acc = vec4<f32>(0.0);
  for (var k = lane; k < PROF; k += LANES) {
    let q = edge[base + k];
    if (q.x > INVALID && (limit < 0.0 || lineDistance(q, old) <= limit)) { acc += vec4<f32>(1.0, q.x, q.y, 0.0); }
  }
  let total = sumSides(acc, side, lane);
  let n = total.x;
  let mean = total.yz / max(n, 1.0);
  acc = vec4<f32>(0.0);
  for (var k = lane; k < PROF; k += LANES) {
    let q = edge[base + k];
    if (q.x > INVALID && (limit < 0.0 || lineDistance(q, old) <= limit)) {
      let r = q - mean;
      acc += vec4<f32>(r.x * r.x, r.y * r.y, r.x * r.y, 0.0);
    }
  }
  let m = sumSides(acc, side, lane);
  if (lane == 0u) {
    let angle = 0.5 * atan2(2.0 * m.z, m.x - m.y);
    sideInfo[side].x = n;
    if (n >= least) { line[side] = vec4<f32>(mean, cos(angle), sin(angle)); }
  }
  workgroupBarrier();
}

// Side i of the quad in corner[]: its start, unit direction and outward normal, length, cell, and its profiles'
// reach and count (sideProfiles in refineCornersCpu.ts).
struct Side {
  a: vec2<f32>,
  d: vec2<f32>,
  nrm: vec2<f32>,
  len: f32,
  cell: f32,
  reach: f32,
  count: u32,
}

fn sideFrame(i: u32) -> Side {
  let a = corner[i];
  let b = corner[(i + 1u) % 4u];
  let len = length(b - a);
  let d = (b - a) / len;
  let cell = len / f32(cells);
  // Clockwise as seen (y down): the outward normal is the direction turned a quarter turn anticlockwise.
  return Side(a, d, vec2<f32>(d.y, -d.x), len, cell, min(4.0, max(1.5, cell / 3.0)), min(PROF, max(6u, u32(floor(len)))));
}

// Where profile k of side f crosses it, from its start: spread evenly, a cell away from the corners.
fn profileAt(f: Side, k: u32) -> f32 { return f.cell + (f32(k) + 0.5) / f32(f.count) * (f.len - 2.0 * f.cell); }

// Corner i where line[i − 1] and line[i] meet, with z = 1, or z = 0 where they are parallel (intersect in
// refineCornersCpu.ts).
fn cornerAt(i: u32) -> vec3<f32> {
  let p = line[(i + 3u) % 4u];
  let q = line[i];
  let det = p.z * q.w - p.w * q.z;
  if (abs(det) < 1e-9) { return vec3<f32>(0.0); }
  let r = q.xy - p.xy;
  return vec3<f32>(p.xy + p.zw * ((r.x * q.w - r.y * q.z) / det), 1.0);
}

// One round of refinement: corner[] in, corner[] out; status set when a side has no clear edge.
fn refineRound(t: u32) {
  let side = t / LANES;
  let lane = t % LANES;
  let f = sideFrame(side);
  let steps = u32(floor(2.0 * f.reach / STEP + 1e-4));
  for (var k = lane; k < PROF; k += LANES) {
    var e = vec2<f32>(INVALID);
    if (k < f.count) {
      let at = f.a + f.d * profileAt(f, k);
      // The profile's samples, read once: the gradient's peak first, then its strong part's weighted mean.
      var profile: array<f32, MAX_STEPS + 1u>;
      var px = Pixels(0xffffffffu, 0.0, 0.0, 0.0, 0.0);
      profile[0] = sampleCached(at - f.nrm * f.reach, &px);
      var peak = -1.0;
      for (var j = 1u; j <= steps; j++) {
        profile[j] = sampleCached(at + f.nrm * (-f.reach + f32(j) * STEP), &px);
        peak = max(peak, profile[j] - profile[j - 1u]);
      }
      if (peak > 0.0) {
        var wsum = 0.0;
        var ssum = 0.0;
        for (var j = 1u; j <= steps; j++) {
          let g = profile[j] - profile[j - 1u];
          if (g > 0.2 * peak) {
            wsum += g;
            ssum += g * (-f.reach + (f32(j) - 0.5) * STEP);
          }
        }
        e = at + f.nrm * (ssum / wsum);
      }
    }
    edge[side * PROF + k] = e;
  }
  workgroupBarrier();
  fitSide(side, lane, -1.0, 2.0);
  // The median distance from the first line: points beyond three times it (at least 0.06 px) are dropped.
  let n = u32(sideInfo[side].x);
  let first = line[side];
  for (var k = lane; k < PROF; k += LANES) {
    let q = edge[side * PROF + k];
    dist[side * PROF + k] = select(-1.0, lineDistance(q, first), q.x > INVALID);
  }
  workgroupBarrier();
  for (var k = lane; k < PROF; k += LANES) {
    let v = dist[side * PROF + k];
    if (v >= 0.0) {
      var lt = 0u;
      var le = 0u;
      for (var m = 0u; m < PROF; m++) {
        let o = dist[side * PROF + m];
        if (o >= 0.0) {
          lt += select(0u, 1u, o < v);
          le += select(0u, 1u, o <= v);
        }
      }
      // The element at index n/2 of the sorted distances (the same value whichever invocation writes it).
      if (lt <= n / 2u && n / 2u < le) { sideInfo[side].y = v; }
    }
  }
  workgroupBarrier();
  if (n < 4u && lane == 0u) { status = S_NO_EDGE; }
  let limit = 3.0 * max(0.02, sideInfo[side].y);
  fitSide(side, lane, limit, 4.0);
  // The residual: RMS distance of the kept points from the line fitted to them.
  let kept = line[side];
  var acc = vec4<f32>(0.0);
  for (var k = lane; k < PROF; k += LANES) {
    let q = edge[side * PROF + k];
    if (q.x > INVALID && lineDistance(q, first) <= limit) {
      let r = lineDistance(q, kept);
      acc += vec4<f32>(r * r, 1.0, 0.0, 0.0);
    }
  }
  let r2 = sumSides(acc, side, lane);
  if (lane == 0u) { sideInfo[side].z = sqrt(r2.x / max(r2.y, 1.0)); }
  workgroupBarrier();
  if (t < 4u) {
    let m = cornerAt(t);
    if (m.z == 0.0) { status = S_NO_EDGE; } else { corner[t] = m.xy; }
  }
  workgroupBarrier();
}

// Φ(z) given g = exp(−z²/2), as normalCdf in refineCornersCpu.ts (erf by Abramowitz & Stegun 7.1.26).
fn normalCdf(z: f32, g: f32) -> f32 {
  let t = 1.0 / (1.0 + 0.3275911 * 0.70710678118654752 * abs(z));
  let tail = 0.5 * ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * g;
  return select(tail, 1.0 - tail, z >= 0.0);
}

// Solves the symmetric system [m.x m.y m.z; m.y m.w n.x; m.z n.x n.y] x = r by Cramer's rule, as solveSymmetric3
// in refineCornersCpu.ts; w = 0 when it is singular.
fn solveSymmetric3(m: vec4<f32>, n: vec2<f32>, r: vec3<f32>) -> vec4<f32> {
  let a = m.x; let b = m.y; let c = m.z; let d = m.w; let e = n.x; let f = n.y;
  let c0 = d * f - e * e;
  let c1 = c * e - b * f;
  let c2 = b * e - c * d;
  let det = a * c0 + b * c1 + c * c2;
  if (!(abs(det) > 1e-12 * abs(a * d * f))) { return vec4<f32>(0.0); }
  let x0 = (r.x * c0 + r.y * c1 + r.z * c2) / det;
  let x1 = (r.x * c1 + r.y * (a * f - c * c) + r.z * (b * c - a * e)) / det;
  let x2 = (r.x * c2 + r.y * (b * c - a * e) + r.z * (a * d - b * b)) / det;
  return vec4<f32>(x0, x1, x2, 1.0);
}

// The normal equations of one profile's samples: JᵀJ's upper triangle in a and b.xy, Jᵀr in b.zw and c.x.
struct StepSums {
  a: vec4<f32>,
  b: vec4<f32>,
  c: vec4<f32>,
}

// Adds one profile's samples at offsets stepOffset(j, steps) (j = 0..steps) from `at` along `nrm`, position u on
// the side, to `sums`, for the model lo + amp·Φ((s − e − g·u)/σ) with q = (e, g, log σ). The samples are read again
// in every iteration rather than kept: registers held across the fit slow the whole kernel more than the reads do
// (docs/history/benchmarks-2026-11.md).
fn addProfile(at: vec2<f32>, nrm: vec2<f32>, steps: u32, u: f32, lo: f32, amp: f32, q: vec3<f32>,
              sums: ptr<function, StepSums>) {
  let sigma = exp(q.z);
  let e = q.x + q.y * u;
  var px = Pixels(0xffffffffu, 0.0, 0.0, 0.0, 0.0);
  for (var j = 0u; j <= steps; j++) {
    let s = stepOffset(j, steps);
    let z = (s - e) / sigma;
    let gauss = exp(-0.5 * z * z);
    let cdf = normalCdf(z, gauss);
    let slope = amp * gauss / (2.5066282746310002 * sigma);
    let r = sampleCached(at + nrm * s, &px) - (lo + amp * cdf);
    let jac = vec3<f32>(-slope, -slope * u, -slope * z * sigma);
    (*sums).a += vec4<f32>(jac.x * jac, jac.y * jac.y);
    (*sums).b += vec4<f32>(jac.y * jac.z, jac.z * jac.z, jac.xy * r);
    (*sums).c.x += jac.z * r;
  }
}

// Offset of sample j of a step-fit profile with samples 0..steps, centred (stepOffset in refineCornersCpu.ts).
fn stepOffset(j: u32, steps: u32) -> f32 { return (f32(j) - f32(steps) / 2.0) * STEP_SPACING; }

// The step's levels (lo, hi − lo) for mean end samples `ends` and an edge at offset e with blur σ, as stepLevels in
// refineCornersCpu.ts.
fn stepLevels(ends: vec2<f32>, steps: u32, e: f32, sigma: f32) -> vec2<f32> {
  let z0 = (stepOffset(0u, steps) - e) / sigma;
  let z1 = (stepOffset(steps, steps) - e) / sigma;
  let f0 = normalCdf(z0, exp(-0.5 * z0 * z0));
  let f1 = normalCdf(z1, exp(-0.5 * z1 * z1));
  let amp = (ends.y - ends.x) / max(0.5, f1 - f0);
  return vec2<f32>(ends.x - amp * f0, amp);
}

// Whether every side's profiles reach at least MIN_STEP_REACH px from corner[] (stepReaches in refineCornersCpu.ts).
fn stepReaches() -> bool {
  var ok = true;
  for (var i = 0u; i < 4u; i++) { ok = ok && sideFrame(i).reach >= MIN_STEP_REACH; }
  return ok;
}

// The blurred-step fit of every side from corner[] (stepFitCpu in refineCornersCpu.ts): along the profile at
// relative position u on the side, gray = lo + (hi − lo)·Φ((s − e − g·u)/σ), with e, g and log σ fitted by
// Gauss–Newton to all of the side's samples, lo and hi following from the mean levels at the profiles' ends.
// Every lane of a side solves the same summed system, so nothing is broadcast. corner[] gets the fitted lines' intersections, or stays as
// it is where a side's fit fails. Called by all invocations.
fn stepFit(t: u32) {
  let side = t / LANES;
  let lane = t % LANES;
  let f = sideFrame(side);
  let b = corner[(side + 1u) % 4u];
  let steps = u32(floor(2.0 * f.reach / STEP_SPACING + 1e-4));
  if (t == 0u) { stepFailed = 0u; }
  // At most two profiles per lane (LANES ≥ 64, PROF = 128): lane and lane + LANES.
  let k0 = lane;
  let k1 = lane + LANES;
  let t0 = profileAt(f, k0);
  let t1 = profileAt(f, k1);
  let at0 = f.a + f.d * t0;
  let at1 = f.a + f.d * t1;
  let end = f.nrm * stepOffset(steps, steps);
  var ends = vec4<f32>(0.0);
  if (k0 < f.count) { ends += vec4<f32>(sampleGray(at0 - end), sampleGray(at0 + end), 0.0, 0.0); }
  if (k1 < f.count) { ends += vec4<f32>(sampleGray(at1 - end), sampleGray(at1 + end), 0.0, 0.0); }
  let levels = sumSides(ends, side, lane).xy / f32(f.count);
  var failed = !(levels.y - levels.x > 5.0);
  var q = vec3<f32>(0.0);
  for (var it = 0u; it < STEP_ITERATIONS; it++) {
    var sums = StepSums(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    let lv = stepLevels(levels, steps, q.x, exp(q.z));
    if (!failed && k0 < f.count) { addProfile(at0, f.nrm, steps, (t0 - f.len / 2.0) / f.len, lv.x, lv.y, q, &sums); }
    if (!failed && k1 < f.count) { addProfile(at1, f.nrm, steps, (t1 - f.len / 2.0) / f.len, lv.x, lv.y, q, &sums); }
    // One call in a loop, for lavapipe's compile (see fitMarkers).
    let parts = array<vec4<f32>, 3>(sums.a, sums.b, sums.c);
    var summed: array<vec4<f32>, 3>;
    for (var i = 0u; i < 3u; i++) { summed[i] = sumSides(parts[i], side, lane); }
    let sa = summed[0];
    let sb = summed[1];
    let sc = summed[2];
    let dq = solveSymmetric3(sa * vec4<f32>(STEP_DAMPING, 1.0, 1.0, STEP_DAMPING), vec2<f32>(sb.x, sb.y * STEP_DAMPING),
                             vec3<f32>(sb.zw, sc.x));
    failed = failed || dq.w == 0.0;
    q += dq.xyz;
    q.z = clamp(q.z, log(0.2), log(4.0));
  }
  // A fit that left the profiles is no edge.
  failed = failed || !(abs(q.x) < f.reach && abs(q.y) < f.reach);
  if (lane == 0u) {
    if (failed) { stepFailed = 1u; }
    let p0 = f.a + f.nrm * (q.x - 0.5 * q.y);
    let p1 = b + f.nrm * (q.x + 0.5 * q.y);
    line[side] = vec4<f32>(p0, normalize(p1 - p0));
  }
  if (workgroupUniformLoad(&stepFailed) != 0u) { return; }
  if (t == 0u) {
    var meets: array<vec3<f32>, 4>;
    var all = true;
    for (var i = 0u; i < 4u; i++) {
      meets[i] = cornerAt(i);
      all = all && meets[i].z != 0.0;
    }
    if (all) {
      for (var i = 0u; i < 4u; i++) { corner[i] = meets[i].xy; }
    }
  }
  workgroupBarrier();
}

// The unit square mapped onto corner[0..3] (Heckbert's square-to-quad projective map), at (u, v).
fn squareToQuad(u: f32, v: f32) -> vec2<f32> {
  let p0 = corner[0];
  let p1 = corner[1];
  let p2 = corner[2];
  let p3 = corner[3];
  let s = p0 - p1 + p2 - p3;
  let d1 = p1 - p2;
  let d2 = p3 - p2;
  let den = d1.x * d2.y - d2.x * d1.y;
  let g = (s.x * d2.y - d2.x * s.y) / den;
  let h = (d1.x * s.y - s.x * d1.y) / den;
  let w = g * u + h * v + 1.0;
  let x = (p1.x - p0.x + g * p1.x) * u + (p3.x - p0.x + h * p3.x) * v + p0.x;
  let y = (p1.y - p0.y + g * p1.y) * u + (p3.y - p0.y + h * p3.y) * v + p0.y;
  return vec2<f32>(x, y) / w;
}

// The measures a quad's corners maximise, all integers: squared distance from a doubled point (the box centre),
// squared distance from a point, twice the area of the triangle with a line, and twice the area a point adds to a
// triangle (the most by which it lies outside one of its clockwise edges; negative inside).
const FROM_CENTRE = 0u;
const FROM_POINT = 1u;
const FROM_LINE = 2u;
const FROM_TRIANGLE = 3u;

fn measure(kind: u32, q: vec2<i32>, a: vec2<i32>, b: vec2<i32>, c: vec2<i32>) -> i32 {
  switch kind {
    case 0u: { let r = 2 * q - a; return r.x * r.x + r.y * r.y; }
    case 1u: { let r = q - a; return r.x * r.x + r.y * r.y; }
    case 2u: { return abs(cross2(a, b, q)); }
    default: { return max(-cross2(a, b, q), max(-cross2(b, c, q), -cross2(c, a, q))); }
  }
}

// The candidate's boundary pixel with the largest measure (ties: the first in raster order), by every invocation
// of the workgroup; its value is left in keyV[0] (0 when none is positive) until the next call.
fn farthest(t: u32, offset: u32, count: u32, kind: u32, a: vec2<i32>, b: vec2<i32>, c: vec2<i32>) -> vec2<i32> {
  // Every invocation has read the previous call's winner.
  workgroupBarrier();
  var bv = 0u;
  var bi = 0xffffffffu;
  for (var j = t; j < count; j += FW) {
    let q = pointAt(offset + j);
    let v = measure(kind, q, a, b, c);
    if (v >= 0 && better(u32(v), rasterIndex(q), bv, bi)) { bv = u32(v); bi = rasterIndex(q); }
  }
  if (t < RED) {
    keyV[t] = bv;
    keyI[t] = bi;
  }
  for (var f = 1u; f < FW / RED; f++) {
    workgroupBarrier();
    if (t / RED == f && better(bv, bi, keyV[t % RED], keyI[t % RED])) {
      keyV[t % RED] = bv;
      keyI[t % RED] = bi;
    }
  }
  reduceKeys(t);
  return pixelOf(keyI[0]);
}

@compute @workgroup_size(FW)
fn fitMarkers(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) t: u32) {
  let c = wid.y * nwg.x + wid.x;
  if (c >= min(list[0], params.maxCandidates)) { return; }
  cells = select(select(select(params.cells3, params.cells2, wid.z == 2u), params.cells1, wid.z == 1u), params.cells0, wid.z == 0u);
  let k = HEAD + c * CAND;
  let count = list[k + K_COUNT];
  // Each marker size has its own section of `out`, candidates in list order.
  let o = HEAD + OUT * (wid.z * params.maxCandidates + c);
  if (t == 0u) {
    status = S_NONE;
    out[o] = S_NONE;
    out[o + 1u] = list[k + K_WINDOW];
    out[o + 2u] = list[k + K_LABEL];
  }
  if (count == 0u) { return; }
  let offset = list[k + K_OFFSET];
  let b0 = list[k + K_BOX0];
  let b1 = list[k + K_BOX1];
  let cx2 = i32((b0 & 0xffffu) + (b1 & 0xffffu));
  let cy2 = i32((b0 >> 16u) + (b1 >> 16u));

  // The quad's corners, each the boundary pixel farthest by a measure (see `measure`): p0 from the centre, p2 from
  // p0, pA from the line p0–p2, pB from the triangle of the three, in q4 in that order. One call in a loop rather
  // than four. Every call of a WGSL function is inlined, barriers and all, and lavapipe's compile of this kernel grows
  // with the copies (llvmpipe builds a compute shader with barriers as a coroutine, a suspend point per barrier): the
  // functions with barriers called in several places (farthest, refineRound, stepFit's side sums and reread's misfit
  // rounds) are each called once in a loop, which keeps lavapipe's compile under about two minutes and costs nothing
  // on a GPU (bench/compile.js; BENCHMARKS.md). fitSide's two calls are left as they read best: looping them saves
  // nothing measurable.
  var q4: array<vec2<i32>, 4>;
  var found = true;
  var a = vec2<i32>(cx2, cy2);
  var b = vec2<i32>(0);
  var c3 = vec2<i32>(0);
  for (var kind = FROM_CENTRE; kind <= FROM_TRIANGLE; kind++) {
    q4[kind] = farthest(t, offset, count, kind, a, b, c3);
    if (kind >= FROM_LINE) { found = found && keyV[0] > 0u; }
    if (kind == FROM_CENTRE) {
      a = q4[0];
    } else if (kind == FROM_POINT) {
      b = q4[1];
    } else if (kind == FROM_LINE) {
      // The triangle p0 p2 pA with its edges clockwise (outside is a negative cross product); p0–p2 may be a side
      // of an elongated quad as well as a diagonal.
      b = q4[2];
      c3 = q4[1];
      if (cross2(q4[0], q4[1], q4[2]) > 0) {
        b = q4[1];
        c3 = q4[2];
      }
    }
  }
  let p0 = q4[0];
  // Clockwise from p0: the other three in the order of their turn as seen from p0 (exact for a convex quad).
  for (var i = 1u; i < 4u; i++) {
    for (var j = 1u; j < 4u - i; j++) {
      if (cross2(p0, q4[j], q4[j + 1u]) < 0) {
        let x = q4[j];
        q4[j] = q4[j + 1u];
        q4[j + 1u] = x;
      }
    }
  }
  // Every boundary pixel within the quad, up to 1 px + 8% of the mean side.
  var sides: vec4<f32>;
  for (var i = 0u; i < 4u; i++) { sides[i] = length(vec2<f32>(q4[(i + 1u) % 4u] - q4[i])); }
  let limit = 1.0 + 0.08 * (sides.x + sides.y + sides.z + sides.w) / 4.0;
  var worst = 0.0;
  for (var j = t; j < count; j += FW) {
    let q = pointAt(offset + j);
    for (var i = 0u; i < 4u; i++) {
      let a = q4[i];
      let b = q4[(i + 1u) % 4u];
      worst = max(worst, f32(-cross2(a, b, q)) / sides[i]);
    }
  }
  if (t < RED) { red[t] = vec4<f32>(worst); }
  for (var f = 1u; f < FW / RED; f++) {
    workgroupBarrier();
    if (t / RED == f) { red[t % RED] = max(red[t % RED], vec4<f32>(worst)); }
  }
  workgroupBarrier();
  for (var s = RED / 2u; s > 0u; s >>= 1u) {
    if (t < s) { red[t] = max(red[t], red[t + s]); }
    workgroupBarrier();
  }
  if (t == 0u) {
    if (!found || red[0].x > limit) {
      status = S_NO_QUAD;
    } else {
      // Pixel centres lie half a pixel inside the border's outer edge: push the corners out from the centre.
      let centre = vec2<f32>(q4[0] + q4[1] + q4[2] + q4[3]) / 4.0;
      for (var i = 0u; i < 4u; i++) {
        let p = vec2<f32>(q4[i]);
        corner[i] = p + normalize(p - centre) * params.pushOut;
      }
    }
  }
  if (workgroupUniformLoad(&status) != S_NONE) {
    if (t == 0u) { out[o] = status; }
    return;
  }

  // The first round of gradient profiles, then the step fit, or for small markers (short profiles) a second one:
  // refineRound called once in a loop, not twice, for lavapipe's compile as above.
  for (var round = 0u; round < 2u; round++) {
    if (round == 1u) {
      if (workgroupUniformLoad(&status) != S_NONE) { break; }
      if (workgroupUniformLoad(&stepMode) != 0u) {
        stepFit(t);
        break;
      }
    }
    refineRound(t);
    if (round == 0u && t == 0u) { stepMode = select(0u, 1u, stepReaches()); }
  }
  if (workgroupUniformLoad(&status) != S_NONE) {
    if (t == 0u) { out[o] = status; }
    return;
  }

  // Read the cells, border and quiet zone through the refined corners: cell (r, c) for r, c in -1..S.
  let S = cells;
  let T = S + 2u;
  let q = params.samples;
  let m = params.cellMargin;
  if (t < T * T) {
    let r = f32(t / T) - 1.0;
    let cc = f32(t % T) - 1.0;
    var sum = 0.0;
    for (var ia = 0u; ia < q; ia++) {
      for (var ib = 0u; ib < q; ib++) {
        let u = cc + m + (f32(ib) + 0.5) / f32(q) * (1.0 - 2.0 * m);
        let v = r + m + (f32(ia) + 0.5) / f32(q) * (1.0 - 2.0 * m);
        sum += sampleGray(squareToQuad(u / f32(S), v / f32(S)));
      }
    }
    cellMean[t] = sum / f32(q * q);
  }
  workgroupBarrier();
  var lo = 0u;
  var hi = 0u;
  var threshold = 0.0;
  var contrast = 1e30;
  var plainBlack = 0.0;
  var plainWhite = 0.0;
  if (t == 0u) {
    // Black from the border's cells, white from the quiet zone's (in the CPU reference's order of summation).
    var black = 0.0;
    var white = 0.0;
    for (var i = 0u; i < T * T; i++) {
      let r = i / T;
      let cc = i % T;
      if (r == 0u || cc == 0u || r == T - 1u || cc == T - 1u) {
        white += cellMean[i] / f32(4u * S + 4u);
      } else if (r == 1u || cc == 1u || r == T - 2u || cc == T - 2u) {
        black += cellMean[i] / f32(4u * S - 4u);
      }
    }
    let spread = white - black;
    plainBlack = black;
    plainWhite = white;
    threshold = (black + white) / 2.0;
    var borderBad = false;
    var doubtful = false;
    for (var r = 1u; r <= S; r++) {
      for (var cc = 1u; cc <= S; cc++) {
        let v = cellMean[r * T + cc];
        contrast = min(contrast, abs(v - threshold));
        if (r == 1u || cc == 1u || r == S || cc == S) {
          if (v >= threshold) { borderBad = true; }
        } else {
          if (abs(v - threshold) < params.doubt * spread) { doubtful = true; }
          if (v >= threshold) {
            let bit = (r - 2u) * (S - 2u) + cc - 2u;
            if (bit < 32u) { lo |= 1u << bit; } else { hi |= 1u << (bit - 32u); }
          }
        }
      }
    }
    // The CPU reference's order: contrast, then the border, then doubt.
    readStatus = select(select(select(S_READ, S_DOUBT, doubtful), S_BORDER, borderBad), S_CONTRAST, spread < params.minContrast);
  }
  if (t == 0u) {
    plainBits = vec2<u32>(lo, hi);
    plainLevels = vec2<f32>(plainBlack, plainWhite);
  }
  let plainStatus = workgroupUniformLoad(&readStatus);
  if (plainStatus == S_READ || plainStatus == S_DOUBT) {
    let best = reread(t, T, params.cellMargin, plainStatus == S_DOUBT);
    if (t == 0u && best < 8u) {
      readStatus = S_DEBLURRED;
      lo = dbBits[best].x;
      hi = dbBits[best].y;
    } else if (t == 0u && best == 9u) {
      readStatus = S_DOUBT;
    }
  }
  if (t == 0u) {
    let residual = max(max(sideInfo[0].z, sideInfo[1].z), max(sideInfo[2].z, sideInfo[3].z));
    out[o] = readStatus;
    out[o + 3u] = lo;
    out[o + 4u] = hi;
    out[o + 5u] = bitcast<u32>(threshold);
    out[o + 6u] = bitcast<u32>(contrast);
    out[o + 7u] = bitcast<u32>(residual);
    for (var i = 0u; i < 4u; i++) {
      out[o + 8u + 2u * i] = bitcast<u32>(corner[i].x);
      out[o + 9u + 2u * i] = bitcast<u32>(corner[i].y);
    }
  }
}

// Φ(z), through normalCdf above.
fn phi(z: f32) -> f32 { return normalCdf(z, exp(-0.5 * z * z)); }

fn dbxGet(i: u32) -> f32 { return red[i >> 2u][i & 3u]; }
fn dbxSet(i: u32, v: f32) { red[i >> 2u][i & 3u] = v; }

// The printed value of cell (r, c) of slot k's grid (T×T, ring included); 1 (white) beyond it.
fn printedAt(k: u32, T: i32, r: i32, c: i32) -> f32 {
  if (r < 0 || c < 0 || r >= T || c >= T) { return 1.0; }
  return dbxGet(k * MAX_CELLS + u32(r * T + c));
}

// Cell (r, c)'s mean under slot k's blur (its one-axis weights for offsets −2..2), from the printed values.
fn blurredAt(k: u32, T: i32, r: i32, c: i32) -> f32 {
  var acc = 0.0;
  let reach = params.blurReach;
  for (var a = -reach; a <= reach; a++) {
    for (var b = -reach; b <= reach; b++) { acc += dbW[k * 5u + u32(a + 2)] * dbW[k * 5u + u32(b + 2)] * printedAt(k, T, r + a, c + b); }
  }
  return acc;
}

// Slot k's one-axis weights for a blur of σ cells, averaged over the part of a cell read (blurWeights).
fn setBlurWeights(k: u32, sigma: f32, margin: f32) {
  for (var d = 0; d < 5; d++) {
    var acc = 0.0;
    for (var i = 0; i < 16; i++) {
      let x = margin + (f32(i) + 0.5) / 16.0 * (1.0 - 2.0 * margin);
      acc += phi((f32(d - 2) + 1.0 - x) / sigma) - phi((f32(d - 2) - x) / sigma);
    }
    dbW[k * 5u + u32(d)] = acc / 16.0;
  }
}

// Every slot's printed values (printedGrid): ring white, border black, inner cells from the slot's bits, or
// (`asRead`) the cells' means as read, scaled between the border's black and the quiet zone's white (the second
// read's start). Called by the whole workgroup.
fn fillPrinted(t: u32, Tu: u32, asRead: bool) {
  let T = i32(Tu);
  let cells = Tu * Tu;
  let n = Tu - 4u;
  let levels = plainLevels;
  for (var i = t; i < 8u * cells; i += FW) {
    let k = i / cells;
    let c = i % cells;
    let r = i32(c / Tu);
    let cc = i32(c % Tu);
    let ring = r == 0 || cc == 0 || r == T - 1 || cc == T - 1;
    let border = !ring && (r == 1 || cc == 1 || r == T - 2 || cc == T - 2);
    var v = select(1.0, 0.0, border);
    if (!ring && !border) {
      if (asRead) {
        v = clamp((cellMean[c] - levels.x) / (levels.y - levels.x), -0.5, 1.5);
      } else {
        let bit = u32(r - 2) * n + u32(cc - 2);
        let word = select(dbBits[k].x, dbBits[k].y, bit >= 32u);
        v = f32((word >> (bit & 31u)) & 1u);
      }
    }
    dbxSet(k * MAX_CELLS + c, v);
  }
}

// Each slot's RMS misfit in spans of the cell means against its printed values under its blur, black and span
// fitted by least squares over every cell, or over the ring and border only (`known`), as blurMisfit: into dbFit
// (residual, black, span). Slots whose dbState is 0 are left. FIT_LANES invocations a slot sum parts of the cells
// side by side (their sums in `edge`, done with by now), one then adds the parts in lane order. Called by the whole
// workgroup.
fn misfitAll(t: u32, Tu: u32, known: bool) {
  let T = i32(Tu);
  if (t < 8u * FIT_LANES) {
    let k = t / FIT_LANES;
    var sums = array<f32, 6>(0.0, 0.0, 0.0, 0.0, 0.0, 0.0);   // p, pp, o, oo, po, count
    if (dbState[k] != 0u) {
      for (var i = t % FIT_LANES; i < Tu * Tu; i += FIT_LANES) {
        let r = i32(i / Tu);
        let c = i32(i % Tu);
        if (known && r > 1 && c > 1 && r < T - 2 && c < T - 2) { continue; }
        let p = blurredAt(k, T, r, c);
        let o = cellMean[i];
        sums[0] += p;
        sums[1] += p * p;
        sums[2] += o;
        sums[3] += o * o;
        sums[4] += p * o;
        sums[5] += 1.0;
      }
    }
    for (var j = 0u; j < 6u; j++) {
      let f = t * 6u + j;
      edge[f >> 1u][f & 1u] = sums[j];
    }
  }
  workgroupBarrier();
  if (t < 8u && dbState[t] != 0u) {
    var sp = 0.0;
    var spp = 0.0;
    var so = 0.0;
    var soo = 0.0;
    var spo = 0.0;
    var m = 0.0;
    for (var l = 0u; l < FIT_LANES; l++) {
      let f = (t * FIT_LANES + l) * 6u;
      sp += edge[f >> 1u][f & 1u];
      spp += edge[(f + 1u) >> 1u][(f + 1u) & 1u];
      so += edge[(f + 2u) >> 1u][(f + 2u) & 1u];
      soo += edge[(f + 3u) >> 1u][(f + 3u) & 1u];
      spo += edge[(f + 4u) >> 1u][(f + 4u) & 1u];
      m += edge[(f + 5u) >> 1u][(f + 5u) & 1u];
    }
    let det = m * spp - sp * sp;
    let span = select((m * spo - sp * so) / det, -1.0, abs(det) < 1e-9);
    let black = (so - span * sp) / m;
    let ss = soo - 2.0 * black * so - 2.0 * span * spo + m * black * black + 2.0 * black * span * sp + span * span * spp;
    dbFit[t] = vec4<f32>(sqrt(max(0.0, ss) / m) / span, black, span, 0.0);
  }
  workgroupBarrier();
}

// The grid read again with the blur undone (decodeMarkerCpu's second read, deblurredGrid): unless the plain read is
// doubtful, first how well its grid explains the means under each of 8 blurs; where worse than BLUR_GATE under a
// blur of BLUR_SIGMA_GATE or more (or doubtful), 8 blurs solved side by side — per slot the black and white levels
// fitted to the ring and border, then damped Jacobi steps over the inner cells from the means as read (one invocation
// per slot and cell) — each solution clear of the middle rounded to a binary grid and its misfit measured. Returns
// the slot to read (its bits in dbBits), 8 to keep the plain read, 9 for no marker. Called by the whole workgroup;
// the result is uniform.
fn reread(t: u32, Tu: u32, margin: f32, doubtful: bool) -> u32 {
  let T = i32(Tu);
  let n = Tu - 4u;
  let inner = n * n;
  if (t == 0u) { dbPlain = vec2<f32>(NO_FIT, NO_FIT); }
  if (!doubtful) {
    if (t < 8u) {
      setBlurWeights(t, FIT_SIGMAS[t], margin);
      dbBits[t] = plainBits;
      dbState[t] = 1u;
    }
    workgroupBarrier();
    fillPrinted(t, Tu, false);
    workgroupBarrier();
    misfitAll(t, Tu, false);
    if (t == 0u) {
      // The least misfit (the first of equals, as the CPU reference) and its blur.
      for (var i = 0u; i < 8u; i++) {
        if (dbFit[i].z > 1.0 && dbFit[i].x < dbPlain.x) { dbPlain = vec2<f32>(dbFit[i].x, FIT_SIGMAS[i]); }
      }
    }
  }
  let plain = workgroupUniformLoad(&dbPlain);
  if (!doubtful && (plain.x <= BLUR_GATE || plain.y < BLUR_SIGMA_GATE)) { return 8u; }
  // Two rounds of printed values and their misfits: the means as read under the deblurring blurs (then solved), and
  // the solutions' grids. fillPrinted and misfitAll are called once in this loop rather than twice, for lavapipe's
  // compile (see fitMarkers); the first check above stays apart, as one loop of all three is slower on a real GPU
  // (docs/history/benchmarks-2026-11.md).
  for (var round = 0u; round < 2u; round++) {
    if (round == 0u && t < 8u) {
      setBlurWeights(t, DEBLUR_SIGMAS[t], margin);
      dbState[t] = 1u;
    }
    workgroupBarrier();
    fillPrinted(t, Tu, round == 0u);
    workgroupBarrier();
    misfitAll(t, Tu, round == 0u);
    if (round == 1u) { break; }
    if (t < 8u && !(dbFit[t].z > 1.0)) { dbState[t] = 0u; }
    workgroupBarrier();
    for (var it = 0u; it < DEBLUR_STEPS; it++) {
      for (var i = t; i < 8u * inner; i += FW) {
        let k = i / inner;
        if (dbState[k] == 0u) { continue; }
        let r = i32((i % inner) / n) + 2;
        let c = i32((i % inner) % n) + 2;
        let own = dbW[k * 5u + 2u] * dbW[k * 5u + 2u];
        let was = dbxGet(k * MAX_CELLS + u32(r * T + c));
        let rest = blurredAt(k, T, r, c) - own * was;
        dist[i] = clamp(was + DEBLUR_STEP * (((cellMean[r * T + c] - dbFit[k].y) / dbFit[k].z - rest) / own - was), -0.5, 1.5);
      }
      workgroupBarrier();
      for (var i = t; i < 8u * inner; i += FW) {
        let k = i / inner;
        if (dbState[k] == 0u) { continue; }
        let r = (i % inner) / n + 2u;
        let c = (i % inner) % n + 2u;
        dbxSet(k * MAX_CELLS + r * Tu + c, dist[i]);
      }
      workgroupBarrier();
    }
    // Each solution rounded to its grid, kept if every inner cell ended clear of the middle.
    if (t < 8u) {
      var clear = -1.0;
      var lo = 0u;
      var hi = 0u;
      if (dbState[t] != 0u) {
        clear = 1e30;
        for (var r = 2u; r < Tu - 2u; r++) {
          for (var c = 2u; c < Tu - 2u; c++) {
            let v = dbxGet(t * MAX_CELLS + r * Tu + c);
            clear = min(clear, abs(v - 0.5));
            if (v >= 0.5) {
              let bit = (r - 2u) * n + c - 2u;
              if (bit < 32u) { lo |= 1u << bit; } else { hi |= 1u << (bit - 32u); }
            }
          }
        }
      }
      dbBits[t] = vec2<u32>(lo, hi);
      dbState[t] = select(0u, 1u, clear >= DEBLUR_MARGIN);
    }
  }
  if (t == 0u) {
    // The grid that explains the means best (the first of equals, as the CPU reference).
    var best = 8u;
    var least = NO_FIT;
    for (var i = 0u; i < 8u; i++) {
      if (dbState[i] != 0u && dbFit[i].z > 1.0 && dbFit[i].x < least) {
        best = i;
        least = dbFit[i].x;
      }
    }
    var choice = select(8u, 9u, doubtful);
    if (best < 8u && (doubtful || least < BLUR_RATIO * plain.x)) { choice = best; }
    dbChoice = choice;
  }
  return workgroupUniformLoad(&dbChoice);
}
