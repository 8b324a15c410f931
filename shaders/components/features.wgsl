// Component features (CCA) from canonical labels (`label() → features()`), accumulated exactly in integers. The
// run-piece kernel (`accumulate`) gives each invocation PPI pixels of a row and flushes one set of atomics per
// piece (a run of equal labels within them: HA4's segment accumulation, Σx in closed form), and pieces of
// the workgroup's likeliest labels meet in workgroup memory first, so a large component costs one set of global
// atomics per workgroup; the naive kernel (`accumulatePixels`, `method: 'per-pixel'`) does every atomic for every
// pixel. Sums that can pass 32 bits are two u32 words added with an exact carry. A last kernel filters components
// on the GPU and compacts those that pass, so readback stays small.
override WG: u32;
// Pixels per invocation of `accumulate`. 16 rather than a 32-pixel word: twice the invocations keep more of the
// GPU's warps busy while each walks its pixels (about 30 % less time at 720p); 8 splits runs into so many pieces
// that the atomics cost more at mid densities.
const PPI: u32 = 16u;
#include "common/index.wgsl"
#include "common/math.wgsl"

struct Params {
  width: u32,
  height: u32,
  pixels: u32,
  capacity: u32,     // records held (labels 1..capacity-1)
#include "common/filterParams.wgsl"
}

#include "common/record.wgsl"

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> labels: array<u32>;
@group(0) @binding(2) var<storage, read> mask: array<u32>;
@group(0) @binding(3) var<storage, read> gray: array<u32>;
@group(0) @binding(4) var<storage, read_write> records: array<atomic<u32>>;  // one per label, 0..capacity-1
@group(0) @binding(5) var<storage, read> info: array<u32>;
@group(0) @binding(6) var<storage, read_write> results: array<atomic<u32>>;
// HIST_BINS bins of histWords() words per label, 0..capacity-1 (with HIST; otherwise a placeholder never touched).
@group(0) @binding(7) var<storage, read_write> hist: array<atomic<u32>>;

fn count() -> u32 { return min(info[6], params.capacity - 1u); }

// The results header for this frame: nothing passed yet, the components measured (every one, unless some did
// not fit: then those that did, as the one labeling reports), and whether some did not fit.
fn resetResults() {
  atomicStore(&results[0], 0u);
  atomicStore(&results[1], count());
  atomicStore(&results[2], select(0u, 1u, info[6] >= params.capacity));
}
#include "common/mask.wgsl"
#include "common/gray.wgsl"
// Pieces arrive from any row: the first row is a minimum like the others.
const MERGE_Y0: bool = true;
#include "common/recordMerge.wgsl"

// Sets every record to its identity values; run once when the accumulators are (re)allocated. After that the
// compact kernel puts back each record it reads, so no frame pays for clearing.
@compute @workgroup_size(WG)
fn clear(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linearIndex(gid, nwg);
  // The histograms too (nodes/components/features/fromLabels.ts runs enough invocations for the larger of the two).
  if (HIST && i < params.capacity * HIST_BINS * histWords()) { atomicStore(&hist[i], 0u); }
  if (i >= params.capacity * REC) { return; }
  atomicStore(&records[i], identity(i % REC));
}

// A piece's contribution (n pixels of one label on row y, columns xa..xb), laid out like a record.
fn piece(y: u32, xa: u32, xb: u32, perim: u32, gsum: u32, gmin: u32, gmax: u32) -> array<u32, REC> {
  var d: array<u32, REC>;
  let n = xb - xa + 1u;
  d[AREA] = n;
  // Σx over xa..xb = n(xa+xb)/2 (n(xa+xb) is even), Σx² by pixels (at most 32), each kept in 64 bits.
  let sx = mul32(n, xa + xb);
  let sxLo = (sx.x >> 1u) | (sx.y << 31u);
  d[SX] = sxLo;
  d[SX + 1u] = sx.y >> 1u;
  let sy = mul32(n, y);
  d[SY] = sy.x;
  d[SY + 1u] = sy.y;
  var sxx = vec2<u32>(0u, 0u);
  for (var x = xa; x <= xb; x++) { sxx = add64v(sxx, mul32(x, x)); }
  d[SXX] = sxx.x;
  d[SXX + 1u] = sxx.y;
  // n·y² in 64 bits: y² itself can pass 32 bits on very tall frames.
  let yy = mul32(y, y);
  let syy = mul32(yy.x, n);
  d[SYY] = syy.x;
  d[SYY + 1u] = syy.y + yy.y * n;
  // Σx of a piece is under 2^32 (at most 32 pixels, x < 2^26).
  let sxy = mul32(sxLo, y);
  d[SXY] = sxy.x;
  d[SXY + 1u] = sxy.y;
  d[X0] = xa;
  d[X1] = xb;
  d[Y0] = y;
  d[Y1] = y;
  d[PERIM] = perim;
  d[SG] = gsum;
  d[SG + 1u] = 0u;
  d[GMIN] = gmin;
  d[GMAX] = gmax;
  return d;
}

// The first candidate that is label l, or CANDIDATES: a label chosen twice gathers in its first record.
fn candidateOf(l: u32) -> u32 {
  for (var k = 0u; k < CANDIDATES; k++) { if (l == atomicLoad(&candidate[k])) { return k; } }
  return CANDIDATES;
}

// Adds the piece of label l (candidate k of the workgroup, or CANDIDATES) into its record.
fn flush(l: u32, k: u32, y: u32, xa: u32, xb: u32, perim: u32, gsum: u32, gmin: u32, gmax: u32) {
  if (l == 0u || l > count()) { return; }
  let d = piece(y, xa, xb, perim, gsum, gmin, gmax);
  if (k < CANDIDATES) { addShared(k, d); } else { addRecord(l * REC, d); }
}

// The candidates' histograms in workgroup memory, as their records (a word without HIST).
var<workgroup> wgHist: array<atomic<u32>, select(1u, CANDIDATES * HIST_BINS, HIST)>;

// With SPATIAL, the candidates' bins' Σx and Σy (interleaved): a workgroup's pixels (WG × PPI) times a coordinate
// under 2^16 stay under 2^32, so the workgroup sums in 32 bits and adds them into the 64-bit sums once.
var<workgroup> wgPlace: array<atomic<u32>, select(1u, 2u * CANDIDATES * HIST_BINS, HIST && SPATIAL)>;

// Counts a pixel (x, y) of gray g of label l (candidate k of the workgroup, or CANDIDATES) in its histogram: a
// candidate's in workgroup memory (a large component's pixels would otherwise all contend for its bins' global
// words, and a frame of one large component would serialise on them), any other label's in `hist`.
fn countGray(l: u32, k: u32, g: u32, x: u32, y: u32) {
  let b = g >> HIST_SHIFT;
  if (k < CANDIDATES) {
    atomicAdd(&wgHist[k * HIST_BINS + b], 1u);
    if (SPATIAL) {
      atomicAdd(&wgPlace[2u * (k * HIST_BINS + b)], x);
      atomicAdd(&wgPlace[2u * (k * HIST_BINS + b) + 1u], y);
    }
    return;
  }
  let at = (l * HIST_BINS + b) * histWords();
  atomicAdd(&hist[at], 1u);
  if (SPATIAL) {
    addHist64(at + 1u, vec2<u32>(x, 0u));
    addHist64(at + 3u, vec2<u32>(y, 0u));
  }
}

fn onPerimeter(p: u32, x: u32, y: u32) -> bool {
  let w = params.width;
  if (x == 0u || y == 0u || x + 1u == w || y + 1u == params.height) { return true; }
  return !isFg(p - 1u) || !isFg(p + 1u) || !isFg(p - w) || !isFg(p + w);
}

// Naive, for comparison: every field of every pixel is an atomic of its own.
@compute @workgroup_size(WG)
fn accumulatePixels(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let w = params.width;
  let i = linearIndex(gid, nwg);
  if (i == 0u) { resetResults(); }
  if (i >= params.pixels) { return; }
  let l = labels[i];
  if (l == 0u || l > count()) { return; }
  let x = i % w;
  let y = i / w;
  let g = grayAt(i);
  addRecord(l * REC, piece(y, x, x, select(0u, 1u, onPerimeter(i, x, y)), g, g, g));
  if (HIST) { countGray(l, CANDIDATES, g, x, y); }
}

@compute @workgroup_size(WG)
fn accumulate(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) li: u32) {
  let w = params.width;
  let i = linearIndex(gid, nwg);
  if (i == 0u) { resetResults(); }
  let wpr = (w + PPI - 1u) / PPI;
  let inRange = i < wpr * params.height;
  let y = i / wpr;
  let x0 = (i % wpr) * PPI;
  let xe = min(x0 + PPI, w);
  let row = y * w;
  // Candidates: the first label in the pixels of the middle invocation of each quarter of the workgroup.
  clearShared(li);
  if (HIST && li < CANDIDATES * HIST_BINS) { atomicStore(&wgHist[li], 0u); }
  if (HIST && SPATIAL && li < 2u * CANDIDATES * HIST_BINS) { atomicStore(&wgPlace[li], 0u); }
  let quarter = WG / CANDIDATES;
  if (li % quarter == quarter / 2u) {
    var c = 0u;
    if (inRange) {
      for (var x = x0; x < xe; x++) {
        let l = labels[row + x];
        if (l != 0u) { c = l; break; }
      }
    }
    atomicStore(&candidate[li / quarter], c);
  }
  workgroupBarrier();
  if (inRange) {
    var cur = 0u;
    var curCandidate = CANDIDATES;
    var start = x0;
    var perim = 0u;
    var gsum = 0u;
    var gmin = 255u;
    var gmax = 0u;
    for (var x = x0; x < xe; x++) {
      let p = row + x;
      let l = labels[p];
      if (l != cur) {
        flush(cur, curCandidate, y, start, x - 1u, perim, gsum, gmin, gmax);
        cur = l;
        // Looked up once per run, for its histogram's pixels and its record's flush.
        if (l != 0u) { curCandidate = candidateOf(l); }
        start = x;
        perim = 0u;
        gsum = 0u;
        gmin = 255u;
        gmax = 0u;
      }
      if (l != 0u) {
        let g = grayAt(p);
        gsum += g;
        gmin = min(gmin, g);
        gmax = max(gmax, g);
        if (onPerimeter(p, x, y)) { perim += 1u; }
        // One atomic per pixel (a piece's 16 bins would not fit in registers), in workgroup memory for the
        // candidates: a large component's pixels would otherwise all contend for its 16 global words.
        if (HIST && l <= count()) { countGray(l, curCandidate, g, x, y); }
      }
    }
    flush(cur, curCandidate, y, start, xe - 1u, perim, gsum, gmin, gmax);
  }
  workgroupBarrier();
  // A label chosen twice gathered everything in its first record.
  if (li < CANDIDATES && flushesCandidate(li, 0u)) { addRecord(atomicLoad(&candidate[li]) * REC, sharedRecord(li)); }
  if (HIST && li < CANDIDATES * HIST_BINS && flushesCandidate(li / HIST_BINS, 0u)) {
    let v = atomicLoad(&wgHist[li]);
    if (v != 0u) {
      let at = (atomicLoad(&candidate[li / HIST_BINS]) * HIST_BINS + li % HIST_BINS) * histWords();
      atomicAdd(&hist[at], v);
      if (SPATIAL) {
        addHist64(at + 1u, vec2<u32>(atomicLoad(&wgPlace[2u * li]), 0u));
        addHist64(at + 3u, vec2<u32>(atomicLoad(&wgPlace[2u * li + 1u]), 0u));
      }
    }
  }
}

// Keeps the components that pass the filter, putting every record (and histogram) it reads back to identity for the
// next frame:
// the header (HEAD words: passed, count, overflow), then each kept
// component's label followed by its record, in no particular order (the host sorts by label).
@compute @workgroup_size(WG)
fn compact(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let l = linearIndex(gid, nwg) + 1u;
  if (l > count()) { return; }
  let r = l * REC;
  var rec: array<u32, REC>;
  for (var f = 0u; f < REC; f++) {
    rec[f] = atomicLoad(&records[r + f]);
    atomicStore(&records[r + f], identity(f));
  }
  var slot = params.maxResults;
  if (keep(rec)) { slot = atomicAdd(&results[0], 1u); }
  // The histogram's words are cleared whether kept or not, and copied straight to the results where kept.
  if (HIST) {
    let words = HIST_BINS * histWords();
    for (var k = 0u; k < words; k++) {
      let v = atomicExchange(&hist[l * words + k], 0u);
      if (slot < params.maxResults) { atomicStore(&results[histResultAt(slot) + k], v); }
    }
  }
  if (slot >= params.maxResults) { return; }
  let out = HEAD + slot * (REC + 1u);
  atomicStore(&results[out], l);
  for (var f = 0u; f < REC; f++) { atomicStore(&results[out + 1u + f], rec[f]); }
}
