// Strip labeling in the manner of Hennequin, Lacassagne, Cabaret and Meunier's HA4. Rows are bit-packed (32
// pixels per word) and segments found with bit operations; a segment is a run of foreground pixels within one
// word, labelled by its first pixel, and only segment starts are ever united. A pack kernel builds the rows' bit
// words (here from byte reads; ha4ballot.wgsl from subgroup ballots), an init kernel points every pixel at its
// segment's start (joining a segment that continues from the previous word); a strip
// kernel, one workgroup per strip of STRIP rows, unites each segment with the segments it touches in the line
// above; a border kernel does the same across strip borders; the shared compress kernel then relabels every
// pixel from its segment start. The packed rows live in the output buffer until canonical labels overwrite it.
override CONN8: bool = true;
const STRIP: u32 = 8u;
override WG: u32;
#include "common/index.wgsl"
#include "common/labeling.wgsl"
#include "common/union.wgsl"

// Packed rows: word j of row y holds pixels 32j..32j+31, bit b = pixel 32j+b. (Binding 5 is `outLabels`.)
@group(0) @binding(5) var<storage, read_write> rowBits: array<u32>;

fn wordsPerRow() -> u32 { return (params.width + 31u) / 32u; }

fn packWord(y: u32, j: u32) -> u32 {
  var bits = 0u;
  let x0 = j * 32u;
  let n = min(32u, params.width - x0);
  let p0 = y * params.width + x0;
  for (var b = 0u; b < n; b++) { if (isFg(p0 + b)) { bits |= 1u << b; } }
  return bits;
}

// First bit of the run of `bits` containing bit x (runs restricted to the word).
fn runStart(bits: u32, x: u32) -> u32 {
  let below = ~bits & ((1u << x) - 1u);
  return select(0u, firstLeadingBit(below) + 1u, below != 0u);
}

// Segments from the mask without subgroups: one invocation per word packs 32 pixels with byte reads.
@compute @workgroup_size(WG)
fn pack(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let wpr = wordsPerRow();
  let i = linearIndex(gid, nwg);
  if (i >= wpr * params.height) { return; }
  rowBits[i] = packWord(i / wpr, i % wpr);
}

// One invocation per word: point each pixel at its segment start. A segment that begins at bit 0 while the
// previous word ends in foreground points at that word's last segment start instead, so a run crossing words is
// one chain of at most width/32 links.
@compute @workgroup_size(WG)
fn init(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let wpr = wordsPerRow();
  let i = linearIndex(gid, nwg);
  if (i >= wpr * params.height) { return; }
  let j = i % wpr;
  let bits = rowBits[i];
  let x0 = j * 32u;
  let n = min(32u, params.width - x0);
  let p0 = (i / wpr) * params.width + x0;
  var prevLast = false;
  var prevStart = 0u;
  if (j > 0u) {
    let prev = rowBits[i - 1u];
    prevLast = (prev >> 31u) != 0u;
    prevStart = p0 - 32u + runStart(prev, 31u);
  }
  for (var b = 0u; b < n; b++) {
    var l = BG;
    if (((bits >> b) & 1u) != 0u) {
      let s = runStart(bits, b);
      l = p0 + s;
      if (b == 0u && prevLast) { l = prevStart; }
    }
    Lplain[p0 + b] = l;
  }
}

fn wordAt(y: u32, j: i32) -> u32 {
  if (j < 0 || u32(j) >= wordsPerRow()) { return 0u; }
  return rowBits[y * wordsPerRow() + u32(j)];
}

// Unites every segment of word j in row y with the segments it touches in row y - 1.
fn uniteAbove(y: u32, j: u32) {
  let bits = wordAt(y, i32(j));
  if (bits == 0u) { return; }
  let above = wordAt(y - 1u, i32(j));
  let aboveLeft = wordAt(y - 1u, i32(j) - 1);
  let aboveRight = wordAt(y - 1u, i32(j) + 1);
  let p0 = y * params.width + j * 32u;
  let q0 = p0 - params.width;
  var starts = bits & ~(bits << 1u);
  loop {
    if (starts == 0u) { break; }
    let s = firstTrailingBit(starts);
    starts &= starts - 1u;
    let rest = ~bits & ~((1u << s) - 1u);
    let e = select(31u, firstTrailingBit(rest) - 1u, rest != 0u);
    var lo = s;
    var hi = e;
    if (CONN8) {
      if (s == 0u) {
        if ((aboveLeft >> 31u) != 0u) { unite(p0 + s, q0 - 32u + runStart(aboveLeft, 31u)); }
      } else { lo = s - 1u; }
      if (e == 31u) {
        if ((aboveRight & 1u) != 0u) { unite(p0 + s, q0 + 32u); }
      } else { hi = e + 1u; }
    }
    let window = select(0xffffffffu, (2u << hi) - 1u, hi < 31u) & ~((1u << lo) - 1u);
    var m = above & window;
    loop {
      if (m == 0u) { break; }
      let pos = firstTrailingBit(m);
      unite(p0 + s, q0 + runStart(above, pos));
      m &= m + (1u << pos);
    }
  }
}

// One workgroup per strip: lines 1..STRIP-1 of the strip, one invocation per word.
@compute @workgroup_size(WG)
fn strips(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
          @builtin(local_invocation_index) li: u32) {
  let strip = wid.y * nwg.x + wid.x;
  let y0 = strip * STRIP;
  if (y0 >= params.height) { return; }
  let wpr = wordsPerRow();
  let lines = min(STRIP, params.height - y0);
  for (var k = li; k < (lines - 1u) * wpr; k += WG) {
    uniteAbove(y0 + 1u + k / wpr, k % wpr);
  }
}

// One invocation per word of the first line of every strip after the first.
@compute @workgroup_size(WG)
fn borders(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let wpr = wordsPerRow();
  let i = linearIndex(gid, nwg);
  let strip = i / wpr + 1u;
  if (strip * STRIP >= params.height) { return; }
  uniteAbove(strip * STRIP, i % wpr);
}
