// Shibata-style fixed-pass labeling: a preparation kernel points each foreground pixel at its smallest earlier
// neighbour; each propagation pass takes the minimum over the neighbourhood and a few pointer jumps, lowers both
// the pixel and its old label to it with atomic minima, and where two trees meet hooks one under the other. The
// last workgroup to finish a pass counts it and clears `pending` when no workgroup changed anything; every later
// pass returns at once: a fixed pass count costs no host round trip and stops early on the GPU. The passes are
// direct dispatches, not indirect ones sized on the GPU: Dawn validates every indirect dispatch with a dispatch of
// its own, which cost far more than a pass that returns at once (BENCHMARKS.md); and the control is in the pass,
// not a kernel of its own after it.
override WG: u32;
override CONN8: bool = true;
override JUMPS: u32 = 6u;
#include "common/index.wgsl"
#include "common/labeling.wgsl"

@compute @workgroup_size(WG)
fn prepare(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = linearIndex(gid, nwg);
  if (p >= params.pixels) { return; }
  if (!isFg(p)) { Lplain[p] = BG; return; }
  let w = params.width;
  let x = p % w;
  let y = p / w;
  var m = p;
  if (x > 0u && isFg(p - 1u)) { m = p - 1u; }
  if (y > 0u) {
    let up = p - w;
    if (CONN8 && x + 1u < w && isFg(up + 1u)) { m = up + 1u; }
    if (isFg(up)) { m = up; }
    if (CONN8 && x > 0u && isFg(up - 1u)) { m = up - 1u; }
  }
  Lplain[p] = m;
}

var<workgroup> wgPending: u32;
var<workgroup> wgChanged: atomic<u32>;

// One propagation pass with O(1) work per pixel, so a pass has bounded latency whatever the image: each pixel takes
// the minimum of its neighbourhood's labels, then up to JUMPS pointer jumps from it (stopping at a root), and lowers
// itself and its old label to the result; where a neighbour's label was lower, its old label's parent is hooked
// too. At a fixed point every label points at a root and neighbours agree, so "nothing changed" means the labels
// are exact.
//
// Workgroups stride over tiles of TW×TH pixels, one invocation each (a bounded grid, so a pass after convergence,
// which returns at once, launches few workgroups). A tile's labels, with a one-pixel halo, are first loaded into
// workgroup memory with one coalesced atomic load per pixel, and neighbourhoods are read from there rather than with
// eight scattered loads each (about 10% off a pass in steady state on an H100). A snapshot is enough: labels only
// decrease, so a neighbour read a little early is a larger, still valid, label.
//
// The pass's control is its last workgroup: each adds to one word of `info` its arrival (low 16 bits) and whether
// it changed anything (high bits) with a single atomic, so the last to arrive sees every other's contribution in
// the value it gets back, and counts the pass, clears `pending` if nothing changed, and resets the word for the
// next pass. (Grids stay under 2^16 workgroups.)
const TW: u32 = 32u;
const TH: u32 = 8u;
const HW: u32 = TW + 2u; // a row of the tile with its halo
var<workgroup> tileLabels: array<u32, (TW + 2u) * (TH + 2u)>;

// Up to JUMPS pointer jumps from label l, stopping at a root.
fn jump(l: u32) -> u32 {
  var m = l;
  for (var j = 0u; j < JUMPS; j++) {
    let n = atomicLoad(&L[m]);
    if (n == m) { break; }
    m = n;
  }
  return m;
}

@compute @workgroup_size(TW * TH)
fn propagate(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) li: u32) {
  if (li == 0u) {
    wgPending = atomicLoad(&info[2]);
    atomicStore(&wgChanged, 0u);
  }
  if (workgroupUniformLoad(&wgPending) == 0u) { return; }
  let w = params.width;
  let h = params.height;
  let tilesX = (w + TW - 1u) / TW;
  let tiles = tilesX * ((h + TH - 1u) / TH);
  let groups = nwg.x * nwg.y;
  var changed = false;
  for (var t = wid.y * nwg.x + wid.x; t < tiles; t += groups) {
    let x0 = (t % tilesX) * TW;
    let y0 = (t / tilesX) * TH;
    for (var i = li; i < HW * (TH + 2u); i += TW * TH) {
      let x = i32(x0 + i % HW) - 1;
      let y = i32(y0 + i / HW) - 1;
      var v = BG;
      if (x >= 0 && y >= 0 && u32(x) < w && u32(y) < h) { v = atomicLoad(&L[u32(y) * w + u32(x)]); }
      tileLabels[i] = v;
    }
    workgroupBarrier();
    let lx = li % TW;
    let ly = li / TW;
    let x = x0 + lx;
    let y = y0 + ly;
    let c = (ly + 1u) * HW + lx + 1u;
    let lp = tileLabels[c];
    if (x < w && y < h && lp != BG) {
      // Outside the frame the halo holds BG, never a minimum.
      var m = min(lp, min(min(tileLabels[c - HW], tileLabels[c + HW]), min(tileLabels[c - 1u], tileLabels[c + 1u])));
      if (CONN8) {
        m = min(m, min(min(tileLabels[c - HW - 1u], tileLabels[c - HW + 1u]), min(tileLabels[c + HW - 1u], tileLabels[c + HW + 1u])));
      }
      let lower = m < lp;
      m = jump(m);
      if (lower) {
        // A neighbour in another tree: also hook this pixel's parent under the lower of the two (or the other way
        // round), as a union would, so trees join near their roots rather than one branch at a time: a pass or two
        // fewer to converge on random images. One more load, not a second walk (a walk of up to JUMPS cost more at
        // high density than the passes it saved), and the atomic only where the load says it would lower something
        // (many pixels along a seam hook the same pair); BENCHMARKS.md.
        let r = atomicLoad(&L[lp]);
        if (r != m) {
          let hi = max(r, m);
          let lo = min(r, m);
          if (atomicLoad(&L[hi]) > lo && atomicMin(&L[hi], lo) > lo) { changed = true; }
          m = lo;
        }
      }
      if (m < lp) {
        atomicMin(&L[lp], m);
        atomicMin(&L[y * w + x], m);
        changed = true;
      }
    }
    workgroupBarrier();
  }
  if (changed) { atomicStore(&wgChanged, 1u); }
  workgroupBarrier();
  if (li != 0u) { return; }
  let mine = atomicLoad(&wgChanged);
  let before = atomicAdd(&info[3], 1u | (mine << 16u));
  if ((before & 0xffffu) + 1u < groups) { return; }
  atomicAdd(&info[1], 1u);
  if ((before >> 16u) + mine == 0u) { atomicStore(&info[2], 0u); }
  atomicStore(&info[3], 0u);
}

@compute @workgroup_size(1)
fn reset() {
  for (var i = 0u; i < 8u; i++) { atomicStore(&info[i], 0u); }
  atomicStore(&info[2], 1u); // pending until a pass changes nothing
}
