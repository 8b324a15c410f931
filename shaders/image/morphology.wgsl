// Binary morphology on bit-packed rows: the mask (8 bits a pixel) is packed 32 pixels to a word, row by row (each
// row starts on a word); each erosion or dilation makes one word of output from the words around it with shifts,
// ANDs and ORs (32 pixels at once); the result is unpacked back into a mask. The structuring element is a
// rectangle (a square) or an ellipse (a disk) 2rx + 1 wide and 2ry + 1 tall; the ellipse's row dy spans
// |dx| <= round(rx·sqrt(1 - dy²/ry²)), as OpenCV's MORPH_ELLIPSE of that size (src/reference/morphologyCpu.ts,
// halfWidth). Pixels outside the frame are ignored, as OpenCV's default border does: they never erode and never
// dilate.
override WG: u32;
#include "common/index.wgsl"

struct Params {
  width: u32,
  height: u32,
  pixels: u32,
  words: u32,     // mask words (four pixels each)
  rowWords: u32,  // bit words per row
  radiusX: u32,   // rx of the element, width 2rx + 1 (rx < 32: words shift by up to rx)
  radiusY: u32,   // ry, height 2ry + 1
  disk: u32,      // 1: disk (ellipse), 0: square (rectangle)
  dilate: u32,    // 1: dilation, 0: erosion
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;

// Bits of word i of a row that lie inside the frame.
fn inside(i: u32) -> u32 {
  let n = params.width - i * 32u;
  return select(0xffffffffu, (1u << n) - 1u, n < 32u);
}

// pack: src is the mask, dst the bit rows; one invocation per bit word.
@compute @workgroup_size(WG)
fn pack(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = linearIndex(gid, nwg);
  if (idx >= params.rowWords * params.height) { return; }
  let y = idx / params.rowWords;
  let x0 = (idx % params.rowWords) * 32u;
  var bits = 0u;
  for (var b = 0u; b < 32u; b++) {
    let x = x0 + b;
    if (x >= params.width) { break; }
    let p = y * params.width + x;
    if (((src[p >> 2u] >> (8u * (p & 3u))) & 0xffu) != 0u) { bits |= 1u << b; }
  }
  dst[idx] = bits;
}

// unpack: src is the bit rows, dst the mask (0 or 255 a pixel); one invocation per mask word.
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

// Word i of row y as the operation sees it: outside the frame, all ones for an erosion, zeros for a dilation.
fn rowWord(y: i32, i: i32) -> u32 {
  let fill = select(0xffffffffu, 0u, params.dilate != 0u);
  if (y < 0 || y >= i32(params.height) || i < 0 || i >= i32(params.rowWords)) { return fill; }
  // Bits past the row's end are zero in every bit row (pack and morph write them so).
  return src[u32(y) * params.rowWords + u32(i)] | (fill & ~inside(u32(i)));
}

// morph: src and dst are bit rows; one invocation per bit word.
@compute @workgroup_size(WG)
fn morph(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = linearIndex(gid, nwg);
  if (idx >= params.rowWords * params.height) { return; }
  let y = i32(idx / params.rowWords);
  let i = i32(idx % params.rowWords);
  let rx = i32(params.radiusX);
  let ry = i32(params.radiusY);
  let dilate = params.dilate != 0u;
  var acc = select(0xffffffffu, 0u, dilate);
  for (var dy = -ry; dy <= ry; dy++) {
    var k = u32(rx);
    if (params.disk != 0u && ry > 0) { k = u32(round(f32(rx) * sqrt(f32(ry * ry - dy * dy)) / f32(ry))); }
    let a = rowWord(y + dy, i - 1);
    let b = rowWord(y + dy, i);
    let c = rowWord(y + dy, i + 1);
    // Bit t of the row's run: pixels t - k .. t + k of the row, all set (erosion) or any set (dilation).
    var run = b;
    for (var dx = 1u; dx <= k; dx++) {
      let right = (b >> dx) | (c << (32u - dx));
      let left = (b << dx) | (a >> (32u - dx));
      if (dilate) { run |= right | left; } else { run &= right & left; }
    }
    if (dilate) { acc |= run; } else { acc &= run; }
  }
  dst[idx] = acc & inside(u32(i));
}
