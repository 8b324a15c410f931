// Binary morphology in one pass: each workgroup packs a tile of the mask (8 bits a pixel) 32 pixels to a word into
// workgroup memory, runs every step of the chain there, and writes the tile's result. A tile is TW words × TH rows
// of output, read with a halo of HX words and HY rows on each side: a step computed over the whole tile is wrong
// only within its element's radius of the tile's edge, so after all steps the halo (HX·32 ≥ the radii across summed,
// HY ≥ the radii down summed) has absorbed every wrong bit. Each erosion or dilation makes one word from the words
// around it with shifts, ANDs and ORs (32 pixels at once). The structuring element is a rectangle (a square) or an
// ellipse (a disk) 2rx + 1 wide and 2ry + 1 tall; the ellipse's row dy spans |dx| <= round(rx·sqrt(1 - dy²/ry²)), as
// OpenCV's MORPH_ELLIPSE of that size (src/reference/morphologyCpu.ts, halfWidth). Pixels outside the frame are
// ignored, as OpenCV's default border does: they never erode and never dilate.
override WG: u32;
override TW: u32;
override TH: u32;
override HX: u32;
override HY: u32;
// The region a workgroup works on, halo included, and its two buffers' words (2·RW·RH, under 16 KiB).
override RW: u32 = TW + 2u * HX;
override RH: u32 = TH + 2u * HY;
override SHARED: u32;
#include "common/index.wgsl"

struct Params {
  width: u32,
  height: u32,
  pixels: u32,
  words: u32,     // mask words (four pixels each)
  rowWords: u32,  // bit words per row
  steps: u32,     // steps in the chain, up to 4
  step0: u32,     // a step: bit 0 dilate (else erode), bit 1 disk (else square), rx at bit 8, ry at bit 16
  step1: u32,
  step2: u32,
  step3: u32,
  direct: u32,    // 1: rows are whole mask words (width % 4 == 0): the tile writes the mask; 0: it writes bit rows
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;

var<workgroup> tiles: array<u32, SHARED>;

// Bits of word i of a row that lie inside the frame.
fn inside(i: u32) -> u32 {
  let n = params.width - i * 32u;
  return select(0xffffffffu, (1u << n) - 1u, n < 32u);
}

// Word i of row y of the frame, packed from the mask; zero past the row's end. Where rows are whole mask words the
// eight are read at once (none hangs on another; those past the row's end are read and left out).
fn packWord(y: u32, i: u32) -> u32 {
  var bits = 0u;
  let x0 = i * 32u;
  if (params.direct != 0u) {
    let m0 = (y * params.width + x0) >> 2u;
    var m: array<u32, 8>;
    for (var j = 0u; j < 8u; j++) { m[j] = src[min(m0 + j, params.words - 1u)]; }
    for (var j = 0u; j < 8u; j++) {
      for (var b = 0u; b < 4u; b++) {
        if (((m[j] >> (8u * b)) & 0xffu) != 0u && x0 + 4u * j < params.width) { bits |= 1u << (4u * j + b); }
      }
    }
    return bits;
  }
  for (var b = 0u; b < 32u && x0 + b < params.width; b++) {
    let p = y * params.width + x0 + b;
    if (((src[p >> 2u] >> (8u * (p & 3u))) & 0xffu) != 0u) { bits |= 1u << b; }
  }
  return bits;
}

@compute @workgroup_size(WG)
fn morph(@builtin(workgroup_id) tile: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  // The tile's region, halo included, starts at frame word i0 of row y0.
  let i0 = i32(tile.x * TW) - i32(HX);
  let y0 = i32(tile.y * TH) - i32(HY);
  let rowWords = i32(params.rowWords);
  let height = i32(params.height);
  for (var r = li; r < RW * RH; r += WG) {
    let y = y0 + i32(r / RW);
    let i = i0 + i32(r % RW);
    var bits = 0u;
    if (y >= 0 && y < height && i >= 0 && i < rowWords) { bits = packWord(u32(y), u32(i)); }
    tiles[r] = bits;
  }
  var cur = 0u;
  for (var s = 0u; s < params.steps; s++) {
    workgroupBarrier();
    var op = params.step0;
    if (s == 1u) { op = params.step1; } else if (s == 2u) { op = params.step2; } else if (s == 3u) { op = params.step3; }
    let dilate = (op & 1u) != 0u;
    let disk = (op & 2u) != 0u;
    let rx = i32((op >> 8u) & 0xffu);
    let ry = i32((op >> 16u) & 0xffu);
    // Outside the frame: all ones for an erosion, zeros for a dilation; past the region, the same (the halo absorbs it).
    let fill = select(0xffffffffu, 0u, dilate);
    let nxt = RW * RH - cur;
    for (var r = li; r < RW * RH; r += WG) {
      let ry0 = i32(r / RW);
      let rc = i32(r % RW);
      var acc = fill;
      for (var dy = -ry; dy <= ry; dy++) {
        var k = u32(rx);
        if (disk && ry > 0) { k = u32(round(f32(rx) * sqrt(f32(ry * ry - dy * dy)) / f32(ry))); }
        var w: array<u32, 3>;
        for (var d = 0; d < 3; d++) {
          let yy = ry0 + dy;
          let cc = rc + d - 1;
          let y = y0 + yy;
          let i = i0 + cc;
          w[d] = fill;
          if (y >= 0 && y < height && i >= 0 && i < rowWords && yy >= 0 && yy < i32(RH) && cc >= 0 && cc < i32(RW)) {
            // Bits past the row's end are zero in every word (packWord and the steps write them so).
            w[d] = tiles[cur + u32(yy) * RW + u32(cc)] | (fill & ~inside(u32(i)));
          }
        }
        // Bit t of the row's run: pixels t - k .. t + k of the row, all set (erosion) or any set (dilation).
        var run = w[1];
        for (var dx = 1u; dx <= k; dx++) {
          let right = (w[1] >> dx) | (w[2] << (32u - dx));
          let left = (w[1] << dx) | (w[0] >> (32u - dx));
          if (dilate) { run |= right | left; } else { run &= right & left; }
        }
        if (dilate) { acc |= run; } else { acc &= run; }
      }
      let i = i0 + rc;
      var out = 0u;
      if (i >= 0 && i < rowWords) { out = acc & inside(u32(i)); }
      tiles[nxt + r] = out;
    }
    cur = nxt;
  }
  workgroupBarrier();
  for (var r = li; r < TW * TH; r += WG) {
    let y = tile.y * TH + r / TW;
    let i = tile.x * TW + r % TW;
    if (y >= params.height || i >= params.rowWords) { continue; }
    let bits = tiles[cur + (r / TW + HY) * RW + r % TW + HX];
    if (params.direct == 0u) {
      dst[y * params.rowWords + i] = bits;
      continue;
    }
    let m0 = (y * params.width + i * 32u) >> 2u;
    for (var j = 0u; j < 8u && i * 32u + 4u * j < params.width; j++) {
      var out = 0u;
      for (var b = 0u; b < 4u; b++) {
        if (((bits >> (4u * j + b)) & 1u) != 0u) { out |= 0xffu << (8u * b); }
      }
      dst[m0 + j] = out;
    }
  }
}

// unpack (where rows are not whole mask words): src is the bit rows, dst the mask (0 or 255 a pixel); one invocation
// per mask word.
@compute @workgroup_size(WG)
fn unpack(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let m = linearIndex(gid, nwg);
  if (m >= params.words) { return; }
  var out = 0u;
  for (var k = 0u; k < 4u; k++) {
    let p = m * 4u + k;
    if (p >= params.pixels) { break; }
    let x = p % params.width;
    let y = p / params.width;
    if (((src[y * params.rowWords + (x >> 5u)] >> (x & 31u)) & 1u) != 0u) { out |= 0xffu << (8u * k); }
  }
  dst[m] = out;
}
