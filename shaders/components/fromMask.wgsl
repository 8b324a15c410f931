// Components and their features in one labeling: the path `features()` takes for a frame without labels.
//
// 1. tileParts: each 32×32 tile is labelled in workgroup memory as in C2FL (common/c2flTile.wgsl). With the
//    tile's runs at hand, each run start adds its run to its tile-local root's record in workgroup memory (HA4's
//    segment accumulation: the count, Σx in closed form, y times the count, …) in tile coordinates, where every
//    sum fits 32 bits. Each local root then writes its part of the component to a compact list of parts: frame
//    coordinates, exact 64-bit sums, its own pixel index last. One atomic per tile allocates the tile's range,
//    and parts are numbered in raster order within the tile. Parts past what workgroup memory holds (SLOTS)
//    accumulate in place in `records` with global atomics.
// 2. mergeTiles: C2FL's border merge unites the tiles' forests.
// 3. resolve: a part whose local root is still a root of the forest is a component's first part (its root is
//    the component's first pixel); it marks its pixel in the row's root bits. Every other part adds its record
//    into its root's part, found by binary search among the parts of the root's tile.
// 4. scanRoots: per band of 32 rows, roots before each row's word of each tile, in raster order.
// 5. compactParts: roots' records pass the filter or not; kept ones are numbered canonically (1 + the roots
//    before them in raster order) and written to the results.
// No kernel relabels the frame, nor even stores every pixel's label: L holds the union-find forest only where the
// later kernels read it (tile borders and local roots).
override CONN8: bool = true;
const BG: u32 = 0xffffffffu;
// Invocations of the tile, resolve and compact kernels: a 32×32 tile at four pixels an invocation.
const TILE_WG: u32 = 256u;
#include "common/math.wgsl"

struct Params {
  width: u32,
  height: u32,
  tilesX: u32,
  tilesY: u32,
  capacity: u32,     // parts `records` holds
  // Where the regions of `book` start (nodes/components/features/fromMask.ts lays them out after BOOK_HEAD).
  bookTiles: u32,    // per tile: first part, parts
  bookBands: u32,    // per band of 32 rows: its roots
  bookRoots: u32,    // per tile and row: a bit word of the roots (a tile's 32 words contiguous)
  bookPrefixes: u32, // per tile and row: the roots before that word in its band, laid out as the root words
#include "common/filterParams.wgsl"
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> mask: array<u32>;
@group(0) @binding(2) var<storage, read> gray: array<u32>;
@group(0) @binding(3) var<storage, read_write> L: array<atomic<u32>>;
// Plain and vec4 views of L for the tile kernels' stores (no entry point uses two views).
@group(0) @binding(3) var<storage, read_write> Lplain: array<u32>;
@group(0) @binding(3) var<storage, read_write> Lquad: array<vec4<u32>>;
// The parts: a features record each, then the pixel index of its local root (PREC words).
@group(0) @binding(4) var<storage, read_write> records: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> book: array<atomic<u32>>;
// A plain view for the scan kernel, whose loads may then be in flight together (atomic loads go one at a time).
@group(0) @binding(5) var<storage, read_write> bookPlain: array<u32>;
@group(0) @binding(6) var<storage, read_write> results: array<atomic<u32>>;
// With HIST: HIST_BINS bins of histWords() words per part, laid out as the parts (otherwise a placeholder never
// touched).
@group(0) @binding(7) var<storage, read_write> hist: array<atomic<u32>>;

#include "common/mask.wgsl"
#include "common/record.wgsl"
// Parts are added into their root's part, which holds the component's first pixel and so its first row.
const MERGE_Y0: bool = false;
#include "common/recordMerge.wgsl"
#include "common/find.wgsl"
#include "common/union.wgsl"
#include "common/c2flTile.wgsl"

// The border merge unites the parts across tile borders.
fn joinParts(p: u32, q: u32) { unite(p, q); }

// A part: the features record, then the pixel index of its local root.
const PREC: u32 = REC + 1u;

// book: its header (parts allocated, overflow flag), then the regions whose offsets Params gives.
const M_PARTS: u32 = 0u;
const M_OVERFLOW: u32 = 1u;
const BOOK_HEAD: u32 = 2u;
fn tileAt(t: u32) -> u32 { return params.bookTiles + 2u * t; }
fn bandAt(b: u32) -> u32 { return params.bookBands + b; }
fn tileRowAt(y: u32, tx: u32) -> u32 { return ((y / TS) * params.tilesX + tx) * TS + y % TS; }
// A tile's 32 root words are contiguous, so the tile kernel clears them with one coalesced store.
fn rootBitsAt(y: u32, tx: u32) -> u32 { return params.bookRoots + tileRowAt(y, tx); }
// Roots before row y's word of tile column tx within its band (raster order).
fn prefixAt(y: u32, tx: u32) -> u32 { return params.bookPrefixes + tileRowAt(y, tx); }

// Per-part record in workgroup memory, tile coordinates (sums fit 32 bits for 1024 pixels): area | Σx << 11,
// Σy | perimeter << 15, Σx², Σy², Σxy, Σgray, columns covered (bits), rows covered (bits), min gray, max gray.
const LW: u32 = 10u;
const W_AREA_SX: u32 = 0u;
const W_SY_PERIM: u32 = 1u;
const W_SXX: u32 = 2u;
const W_SYY: u32 = 3u;
const W_SXY: u32 = 4u;
const W_G: u32 = 5u;
const W_COLS: u32 = 6u;
const W_ROWS: u32 = 7u;
const W_GMIN: u32 = 8u;
const W_GMAX: u32 = 9u;
// Parts of a tile accumulated in workgroup memory; those past SLOTS (tiles of many small components: up to 256
// parts with 8-connectivity, 512 with 4) accumulate in place in `records` with global atomics. Workgroup memory
// is costly (it is zeroed per workgroup and bounds occupancy), so SLOTS is small: more slots made the kernel slower
// at 2048×2048, and taking a busy tile's parts SLOTS at a time in workgroup memory (one address space, no global
// branch) was slower than the global atomics (docs/history/benchmarks-2026-11.md).
const SLOTS: u32 = 32u;
var<workgroup> slotWords: array<atomic<u32>, SLOTS * LW>;
// The first SLOTS parts' histograms; a word a slot without HIST, so that features without them keep their occupancy.
var<workgroup> slotHist: array<atomic<u32>, SLOTS * select(1u, HIST_BINS, HIST)>;
// With SPATIAL, the same bins' places in tile coordinates: Σx in the low half-word, Σy in the high one (a bin of a
// tile's part has at most 1024 pixels, each coordinate under 32: sums under 2^15).
var<workgroup> slotPlace: array<atomic<u32>, SLOTS * select(1u, HIST_BINS, HIST && SPATIAL)>;
var<workgroup> rootRow: array<atomic<u32>, 32>;     // local roots, one bit word per tile row, being built
var<workgroup> rowWords: array<u32, 32>;            // the same once built (plain loads pipeline; atomic ones not)
var<workgroup> rowPrefix: array<u32, 33>;           // local roots in the rows above; [32] = all
var<workgroup> grayWords: array<u32, 256>;          // the tile's gray values, four per word
var<workgroup> edges: array<atomic<u32>, 4>;        // foreground around the tile: row above, row below, left, right column
var<workgroup> wgBase: u32;
var<workgroup> wgKept: u32;

fn localIdentity(w: u32) -> u32 { return select(0u, 0xffffffffu, w == W_GMIN); }

// Adds one run to part `slot`'s record: in workgroup memory, or in place in `records` past SLOTS. Both follow the
// local record's rule (sums, covered columns and rows ORed, gray minimum and maximum); WGSL cannot pass pointers to
// workgroup and storage atomics to one function, so each address space has its branch.
fn addToSlot(slot: u32, areaSx: u32, syPerim: u32, sxx: u32, syy: u32, sxy: u32, g: u32, cols: u32, rows: u32, gmin: u32, gmax: u32) {
  if (slot < SLOTS) {
    let r = slot * LW;
    atomicAdd(&slotWords[r + W_AREA_SX], areaSx);
    atomicAdd(&slotWords[r + W_SY_PERIM], syPerim);
    atomicAdd(&slotWords[r + W_SXX], sxx);
    atomicAdd(&slotWords[r + W_SYY], syy);
    atomicAdd(&slotWords[r + W_SXY], sxy);
    atomicAdd(&slotWords[r + W_G], g);
    atomicOr(&slotWords[r + W_COLS], cols);
    atomicOr(&slotWords[r + W_ROWS], rows);
    atomicMin(&slotWords[r + W_GMIN], gmin);
    atomicMax(&slotWords[r + W_GMAX], gmax);
  } else {
    let r = (wgBase + slot) * PREC;
    atomicAdd(&records[r + W_AREA_SX], areaSx);
    atomicAdd(&records[r + W_SY_PERIM], syPerim);
    atomicAdd(&records[r + W_SXX], sxx);
    atomicAdd(&records[r + W_SYY], syy);
    atomicAdd(&records[r + W_SXY], sxy);
    atomicAdd(&records[r + W_G], g);
    atomicOr(&records[r + W_COLS], cols);
    atomicOr(&records[r + W_ROWS], rows);
    atomicMin(&records[r + W_GMIN], gmin);
    atomicMax(&records[r + W_GMAX], gmax);
  }
}

fn readSlot(slot: u32) -> array<u32, LW> {
  var d: array<u32, LW>;
  for (var w = 0u; w < LW; w++) {
    if (slot < SLOTS) { d[w] = atomicLoad(&slotWords[slot * LW + w]); } else { d[w] = atomicLoad(&records[(wgBase + slot) * PREC + w]); }
  }
  return d;
}

// Sets the first `n` slots' records to their identities (and histograms to zero), one word per invocation.
fn clearSlots(li: u32, n: u32) {
  for (var i = li; i < n * LW; i += TILE_WG) { atomicStore(&slotWords[i], localIdentity(i % LW)); }
  if (HIST) {
    for (var i = li; i < n * HIST_BINS; i += TILE_WG) { atomicStore(&slotHist[i], 0u); }
  }
  if (HIST && SPATIAL) {
    for (var i = li; i < n * HIST_BINS; i += TILE_WG) { atomicStore(&slotPlace[i], 0u); }
  }
}

// Counts one pixel of gray g at tile coordinates (lx, ly) in part `slot`'s histogram: in workgroup memory, or in
// place in `hist` past SLOTS (its place, packed as in slotPlace, in the bin's Σx word until the part is written).
fn addToHist(slot: u32, g: u32, lx: u32, ly: u32) {
  let b = g >> HIST_SHIFT;
  let place = lx | (ly << 16u);
  if (slot < SLOTS) {
    atomicAdd(&slotHist[slot * HIST_BINS + b], 1u);
    if (SPATIAL) { atomicAdd(&slotPlace[slot * HIST_BINS + b], place); }
  } else {
    let at = ((wgBase + slot) * HIST_BINS + b) * histWords();
    atomicAdd(&hist[at], 1u);
    if (SPATIAL) { atomicAdd(&hist[at + 1u], place); }
  }
}

// Writes bin `at` of a part from its count and its packed tile-coordinate place (SPATIAL): frame coordinates, 64 bits.
fn writeBin(at: u32, count: u32, place: u32, ox: u32, oy: u32) {
  atomicStore(&hist[at], count);
  if (SPATIAL) {
    let sx = add64v(mul32(count, ox), vec2<u32>(place & 0xffffu, 0u));
    let sy = add64v(mul32(count, oy), vec2<u32>(place >> 16u, 0u));
    atomicStore(&hist[at + 1u], sx.x);
    atomicStore(&hist[at + 2u], sx.y);
    atomicStore(&hist[at + 3u], sy.x);
    atomicStore(&hist[at + 4u], sy.y);
  }
}

// Adds part i's histogram into part j's.
fn addHist(j: u32, i: u32) {
  let hw = histWords();
  for (var b = 0u; b < HIST_BINS; b++) {
    let src = (i * HIST_BINS + b) * hw;
    let to = (j * HIST_BINS + b) * hw;
    let v = atomicLoad(&hist[src]);
    if (v == 0u) { continue; }
    atomicAdd(&hist[to], v);
    if (SPATIAL) {
      addHist64(to + 1u, vec2<u32>(atomicLoad(&hist[src + 1u]), atomicLoad(&hist[src + 2u])));
      addHist64(to + 3u, vec2<u32>(atomicLoad(&hist[src + 3u]), atomicLoad(&hist[src + 4u])));
    }
  }
}

fn store64(at: u32, v: vec2<u32>) {
  atomicStore(&records[at], v.x);
  atomicStore(&records[at + 1u], v.y);
}

// Σ x² for x in a..b.
fn sumSquares(a: u32, b: u32) -> u32 {
  let s = (b * (b + 1u) * (2u * b + 1u)) / 6u;
  let t = (a * (a + 1u) * (2u * a + 1u)) / 6u;
  return s - t + a * a;
}

// Part `i` from a tile-coordinate record of the tile at (ox, oy): exact 64-bit sums in frame coordinates.
fn writePart(i: u32, root: u32, ox: u32, oy: u32, d: array<u32, LW>) {
  let r = i * PREC;
  let n = d[W_AREA_SX] & 0x7ffu;
  let sx = d[W_AREA_SX] >> 11u;
  let sy = d[W_SY_PERIM] & 0x7fffu;
  atomicStore(&records[r + AREA], n);
  store64(r + SX, add64v(mul32(n, ox), vec2<u32>(sx, 0u)));
  store64(r + SY, add64v(mul32(n, oy), vec2<u32>(sy, 0u)));
  // Σ(ox+x)² = n·ox² + 2·ox·Σx + Σx², and the same for y.
  store64(r + SXX, add64v(add64v(mul64x32(mul32(ox, ox), n), mul32(ox, 2u * sx)), vec2<u32>(d[W_SXX], 0u)));
  store64(r + SYY, add64v(add64v(mul64x32(mul32(oy, oy), n), mul32(oy, 2u * sy)), vec2<u32>(d[W_SYY], 0u)));
  // Σ(ox+x)(oy+y) = n·ox·oy + ox·Σy + oy·Σx + Σxy.
  store64(r + SXY, add64v(add64v(mul64x32(mul32(ox, oy), n), mul32(ox, sy)), add64v(mul32(oy, sx), vec2<u32>(d[W_SXY], 0u))));
  atomicStore(&records[r + X0], ox + firstTrailingBit(d[W_COLS]));
  atomicStore(&records[r + X1], ox + firstLeadingBit(d[W_COLS]));
  atomicStore(&records[r + Y0], oy + firstTrailingBit(d[W_ROWS]));
  atomicStore(&records[r + Y1], oy + firstLeadingBit(d[W_ROWS]));
  atomicStore(&records[r + PERIM], d[W_SY_PERIM] >> 15u);
  store64(r + SG, vec2<u32>(d[W_G], 0u));
  atomicStore(&records[r + GMIN], d[W_GMIN]);
  atomicStore(&records[r + GMAX], d[W_GMAX]);
  atomicStore(&records[r + REC], root);
}

// Four gray values starting at pixel p (column x) as one word, the first in the low byte.
fn grayWord(p: u32, x: u32) -> u32 {
  if (params.width % 4u == 0u) { return gray[p >> 2u]; }
  var v = 0u;
  for (var k = 0u; k < 4u; k++) {
    if (x + k < params.width) { v |= ((gray[(p + k) >> 2u] >> (8u * ((p + k) & 3u))) & 0xffu) << (8u * k); }
  }
  return v;
}

// Whether pixel `k` (0..31) of the tile's surroundings `e` (0 above, 1 below, 2 left, 3 right) is foreground.
fn edgeFg(wid: vec3<u32>, e: u32, k: u32) -> bool {
  let ox = wid.x * TS;
  let oy = wid.y * TS;
  var x = ox + k;
  var y = oy + k;
  if (e == 0u) { if (oy == 0u) { return false; } y = oy - 1u; }
  if (e == 1u) { y = oy + TS; }
  if (e == 2u) { if (ox == 0u) { return false; } x = ox - 1u; }
  if (e == 3u) { x = ox + TS; }
  return x < params.width && y < params.height && isFg(y * params.width + x);
}

struct TileLabels {
  labels: vec4<u32>,   // C2FL's labels of this invocation's four pixels
  store: bool,         // later kernels read some of them
}

// Labels the tile and writes its parts.
fn tileParts(wid: vec3<u32>, li: u32) -> TileLabels {
  let w = params.width;
  let h = params.height;
  let ox = wid.x * TS;
  let oy = wid.y * TS;
  let ly = li >> 3u;
  let lx0 = (li & 7u) * 4u;
  let y = oy + ly;
  let x0 = ox + lx0;
  // Global reads issued before the labeling's barriers: this invocation's four gray values and, for the first 128
  // invocations, one pixel around the tile (for the perimeter).
  var g4 = 0u;
  if (y < h && x0 < w) { g4 = grayWord(y * w + x0, x0); }
  let e = li >> 5u;
  var edgeBit = 0u;
  if (e < 4u && edgeFg(wid, e, li & 31u)) { edgeBit = 1u << (li & 31u); }
  if (li < 4u) { atomicStore(&edges[li], 0u); }
  if (li < 32u) { atomicStore(&rootRow[li], 0u); }
  // (labelTile's first barrier orders these stores before any use.)
  let labels = labelTile(wid, li);
  // The merge reads labels on tile borders (first and last row and column); resolve and compact read roots.
  var out = TileLabels(labels, ly == 0u || ly == TS - 1u || lx0 == 0u || lx0 + 4u == TS);
  grayWords[li] = g4;
  if (edgeBit != 0u) { atomicOr(&edges[e], edgeBit); }
  // Local roots: run starts that are their own root (labelTile leaves every run start pointing at its root).
  let bits = atomicLoad(&rowBits[ly]);
  var roots = 0u;
  for (var k = 0u; k < 4u; k++) {
    let lx = lx0 + k;
    let i = ly * TS + lx;
    if (((bits >> lx) & 1u) != 0u && runStart(bits, lx) == lx && atomicLoad(&sl[i]) == i) { roots |= 1u << lx; }
  }
  if (roots != 0u) {
    atomicOr(&rootRow[ly], roots);
    out.store = true;
  }
  workgroupBarrier();
  if (li < 32u) { rowWords[li] = atomicLoad(&rootRow[li]); }
  workgroupBarrier();
  if (li <= 32u) {
    var s = 0u;
    for (var j = 0u; j < li; j++) { s += countOneBits(rowWords[j]); }
    rowPrefix[li] = s;
  }
  workgroupBarrier();
  let n = rowPrefix[32];
  let t = wid.y * params.tilesX + wid.x;
  if (li == 0u) {
    var base = 0u;
    if (n > 0u) { base = atomicAdd(&book[M_PARTS], n); }
    let kept = select(0u, min(n, params.capacity - base), base < params.capacity);
    if (kept < n) { atomicStore(&book[M_OVERFLOW], 1u); }
    atomicStore(&book[tileAt(t)], base);
    atomicStore(&book[tileAt(t) + 1u], kept);
    wgBase = base;
    wgKept = kept;
  }
  // This frame's root words start empty (rows past the frame too, which the scan reads); resolve fills them.
  if (li < 32u) {
    atomicStore(&book[rootBitsAt(oy + li, wid.x)], 0u);
  }
  // Records start at their identities: in workgroup memory for the first SLOTS parts (while invocation 0
  // allocates; the load below orders both), in place in `records` beyond (which needs the allocation first).
  clearSlots(li, min(n, SLOTS));
  let kept = workgroupUniformLoad(&wgKept);
  let base = wgBase;
  if (kept > SLOTS) {
    for (var s = SLOTS + li; s < kept; s += TILE_WG) {
      for (var f = 0u; f < LW; f++) { atomicStore(&records[(base + s) * PREC + f], localIdentity(f)); }
      if (HIST) {
        for (var b = 0u; b < HIST_BINS * histWords(); b++) { atomicStore(&hist[(base + s) * HIST_BINS * histWords() + b], 0u); }
      }
    }
    storageBarrier();
    workgroupBarrier();
  }
  // Each run start adds its run (within the tile row) to its local root's record.
  var up = 0u;
  var down = 0u;
  if (ly > 0u) { up = atomicLoad(&rowBits[ly - 1u]); } else { up = atomicLoad(&edges[0]); }
  if (ly < TS - 1u) { down = atomicLoad(&rowBits[ly + 1u]); } else { down = atomicLoad(&edges[1]); }
  let left = (bits << 1u) | ((atomicLoad(&edges[2]) >> ly) & 1u);
  let right = (bits >> 1u) | (((atomicLoad(&edges[3]) >> ly) & 1u) << 31u);
  // Perimeter pixels: foreground with a background 4-neighbour (outside the frame counts as background).
  let perim = bits & ~(up & down & left & right);
  for (var k = 0u; k < 4u; k++) {
    let lx = lx0 + k;
    if (((bits >> lx) & 1u) == 0u || runStart(bits, lx) != lx) { continue; }
    let rest = ~bits & ~((1u << lx) - 1u);
    let end = select(31u, firstTrailingBit(rest) - 1u, rest != 0u);
    let run = select(0xffffffffu, (2u << end) - 1u, end < 31u) & ~((1u << lx) - 1u);
    let r = atomicLoad(&sl[ly * TS + lx]);
    let slot = rowPrefix[r >> 5u] + countOneBits(rowWords[r >> 5u] & ((1u << (r & 31u)) - 1u));
    if (slot >= kept) { continue; }
    let len = end - lx + 1u;
    let sx = (len * (lx + end)) >> 1u;
    var gs = 0u;
    var gmin = 255u;
    var gmax = 0u;
    for (var x = lx; x <= end; x++) {
      let g = (grayWords[ly * 8u + (x >> 2u)] >> (8u * (x & 3u))) & 0xffu;
      gs += g;
      gmin = min(gmin, g);
      gmax = max(gmax, g);
      if (HIST) { addToHist(slot, g, x, ly); }
    }
    addToSlot(slot, len | (sx << 11u), (len * ly) | (countOneBits(perim & run) << 15u), sumSquares(lx, end), len * ly * ly, ly * sx, gs, run, 1u << ly, gmin, gmax);
  }
  storageBarrier();
  workgroupBarrier();
  // Each local root writes its part.
  for (var k = 0u; k < 4u; k++) {
    let lx = lx0 + k;
    if (((roots >> lx) & 1u) == 0u) { continue; }
    let slot = rowPrefix[ly] + countOneBits(rowWords[ly] & ((1u << lx) - 1u));
    if (slot < kept) { writePart(base + slot, y * w + ox + lx, ox, oy, readSlot(slot)); }
    if (HIST && slot < min(kept, SLOTS)) {
      for (var b = 0u; b < HIST_BINS; b++) {
        var place = 0u;
        if (SPATIAL) { place = atomicLoad(&slotPlace[slot * HIST_BINS + b]); }
        writeBin(((base + slot) * HIST_BINS + b) * histWords(), atomicLoad(&slotHist[slot * HIST_BINS + b]), place, ox, oy);
      }
    } else if (HIST && SPATIAL && slot < kept) {
      // Past SLOTS: the count and packed place accumulated in place.
      for (var b = 0u; b < HIST_BINS; b++) {
        let at = ((base + slot) * HIST_BINS + b) * histWords();
        writeBin(at, atomicLoad(&hist[at]), atomicLoad(&hist[at + 1u]), ox, oy);
      }
    }
  }
  return out;
}

// Any width: four scalar label stores.
@compute @workgroup_size(256)
fn tilePartsScalar(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let t = tileParts(wid, li);
  let w = params.width;
  let y = wid.y * TS + (li >> 3u);
  let x0 = wid.x * TS + (li & 7u) * 4u;
  if (y >= params.height || !t.store) { return; }
  for (var k = 0u; k < 4u; k++) {
    if (x0 + k < w) { Lplain[y * w + x0 + k] = t.labels[k]; }
  }
}

// Widths that are a multiple of 4: one aligned vec4 store per invocation.
@compute @workgroup_size(256)
fn tilePartsQuad(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let t = tileParts(wid, li);
  let y = wid.y * TS + (li >> 3u);
  let x0 = wid.x * TS + (li & 7u) * 4u;
  if (y >= params.height || x0 >= params.width || !t.store) { return; }
  Lquad[(y * params.width + x0) >> 2u] = t.labels;
}

@compute @workgroup_size(64)
fn mergeTiles(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  mergeTileBorders(wid, li);
}

// The part whose local root is pixel g (a root of the forest, so the first pixel of a part), or BG when it was
// not stored (the parts buffer overflowed).
fn partOf(g: u32) -> u32 {
  let w = params.width;
  let t = (g / w / TS) * params.tilesX + (g % w) / TS;
  let base = atomicLoad(&book[tileAt(t)]);
  var lo = 0u;
  var hi = atomicLoad(&book[tileAt(t) + 1u]);
  // Parts of a tile are in raster order of their roots.
  while (lo < hi) {
    let mid = (lo + hi) >> 1u;
    let v = atomicLoad(&records[(base + mid) * PREC + REC]);
    if (v == g) { return base + mid; }
    if (v < g) { lo = mid + 1u; } else { hi = mid; }
  }
  return BG;
}

// Part i's record.
fn partRecord(i: u32) -> array<u32, REC> {
  var d: array<u32, REC>;
  for (var f = 0u; f < REC; f++) { d[f] = atomicLoad(&records[i * PREC + f]); }
  return d;
}

// resolve and compact: one workgroup of 256 per group of GROUP×GROUP tiles, 16 invocations per tile.
const GROUP: u32 = 4u;

// The tile this invocation serves and its rank among the tile's 16 invocations, or tile BG when outside the frame.
fn groupTile(wid: vec3<u32>, li: u32) -> vec2<u32> {
  let tx = wid.x * GROUP + (li >> 4u) % GROUP;
  let ty = wid.y * GROUP + (li >> 4u) / GROUP;
  if (tx >= params.tilesX || ty >= params.tilesY) { return vec2<u32>(BG, 0u); }
  return vec2<u32>(ty * params.tilesX + tx, li & 15u);
}

// Parts of a large component cross many tiles and would all add into one record: the workgroup's CANDIDATES
// (common/recordMerge.wgsl) are the roots of the first parts of four of its tiles.

@compute @workgroup_size(256)
fn resolve(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let w = params.width;
  if (wid.x == 0u && wid.y == 0u && li == 0u) {
    // The tile kernel is done with the allocator and the overflow flag: report and reset them for next frame.
    atomicStore(&results[0], 0u);
    atomicStore(&results[2], atomicLoad(&book[M_OVERFLOW]));
    atomicStore(&book[M_OVERFLOW], 0u);
    atomicStore(&book[M_PARTS], 0u);
  }
  clearShared(li);
  let mine = groupTile(wid, li);
  var base = 0u;
  var kept = 0u;
  if (mine.x != BG) {
    base = atomicLoad(&book[tileAt(mine.x)]);
    kept = atomicLoad(&book[tileAt(mine.x) + 1u]);
  }
  // Candidates: the roots of the first parts of tiles 0, 5, 10 and 15 of the group (a diagonal).
  if (mine.y == 0u && (li >> 4u) % 5u == 0u) {
    var c = BG;
    if (kept > 0u) { c = find(atomicLoad(&records[base * PREC + REC])); }
    atomicStore(&candidate[(li >> 4u) / 5u], c);
  }
  workgroupBarrier();
  for (var s = mine.y; s < kept; s += 16u) {
    let i = base + s;
    let q = atomicLoad(&records[i * PREC + REC]);
    let g = find(q);
    if (g == q) {
      let y = q / w;
      let x = q % w;
      atomicOr(&book[rootBitsAt(y, x / TS)], 1u << (x % TS));
      continue;
    }
    // Histograms go straight to the root's part: only pipelines with HIST pay for them.
    if (HIST) {
      let j = partOf(g);
      if (j != BG) { addHist(j, i); }
    }
    var k = 0u;
    while (k < CANDIDATES && atomicLoad(&candidate[k]) != g) { k++; }
    if (k < CANDIDATES) {
      addShared(k, partRecord(i));
    } else {
      let j = partOf(g);
      if (j != BG) { addRecord(j * PREC, partRecord(i)); }
    }
  }
  workgroupBarrier();
  // A root chosen twice gathered everything in its first record.
  if (li < CANDIDATES && flushesCandidate(li, BG)) {
    let j = partOf(atomicLoad(&candidate[li]));
    if (j != BG) { addRecord(j * PREC, sharedRecord(li)); }
  }
}

// One workgroup per band of 32 rows: an exclusive scan, in raster order, of the roots in each (row, tile column)
// word of the band, and the band's total. Ranks then take three loads instead of a walk over the rows before.
var<workgroup> scanSums: array<u32, 256>;

@compute @workgroup_size(256)
fn scanRoots(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let band = wid.x;
  let words = TS * params.tilesX;
  let per = (words + 255u) / 256u;
  let first = min(li * per, words);
  let last = min(first + per, words);
  // Word e of the band in raster order is row e / tilesX, tile column e % tilesX.
  var sum = 0u;
  for (var e = first; e < last; e++) { sum += countOneBits(bookPlain[rootBitsAt(band * TS + e / params.tilesX, e % params.tilesX)]); }
  scanSums[li] = sum;
  workgroupBarrier();
  for (var d = 1u; d < 256u; d <<= 1u) {
    var v = scanSums[li];
    if (li >= d) { v += scanSums[li - d]; }
    workgroupBarrier();
    scanSums[li] = v;
    workgroupBarrier();
  }
  var run = scanSums[li] - sum;
  for (var e = first; e < last; e++) {
    let y = band * TS + e / params.tilesX;
    let tx = e % params.tilesX;
    bookPlain[prefixAt(y, tx)] = run;
    run += countOneBits(bookPlain[rootBitsAt(y, tx)]);
  }
  if (li == 255u) { bookPlain[bandAt(band)] = scanSums[255]; }
}

// Canonical label of root q, given the roots in the bands above its own.
fn rank(q: u32, bandsAbove: u32) -> u32 {
  let w = params.width;
  let y = q / w;
  let x = q % w;
  let below = countOneBits(atomicLoad(&book[rootBitsAt(y, x / TS)]) & ((1u << (x % TS)) - 1u));
  return 1u + bandsAbove + atomicLoad(&book[prefixAt(y, x / TS)]) + below;
}

// Components of the workgroup that pass the filter, so results[0] takes one atomic per workgroup rather than one per component.
var<workgroup> wgKeep: atomic<u32>;
var<workgroup> wgFirst: u32;

fn passes(i: u32) -> bool {
  let q = atomicLoad(&records[i * PREC + REC]);
  return atomicLoad(&L[q]) == q && keep(partRecord(i));
}

// Roots in the bands above each of the workgroup's GROUP bands, and in all bands (the component count).
var<workgroup> bandsAbove: array<atomic<u32>, 5>;

@compute @workgroup_size(256)
fn compactParts(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  for (var b = li; b < params.tilesY; b += 256u) {
    let n = atomicLoad(&book[bandAt(b)]);
    for (var k = 0u; k < GROUP; k++) { if (b < wid.y * GROUP + k) { atomicAdd(&bandsAbove[k], n); } }
    atomicAdd(&bandsAbove[GROUP], n);
  }
  let mine = groupTile(wid, li);
  var base = 0u;
  var count = 0u;
  if (mine.x != BG) {
    base = atomicLoad(&book[tileAt(mine.x)]);
    count = atomicLoad(&book[tileAt(mine.x) + 1u]);
  }
  // Twice over this invocation's parts: mark the kept ones (bit s / 16: a tile has at most 512 parts), then write
  // them after the workgroup's first slot.
  var marks = 0u;
  for (var s = mine.y; s < count; s += 16u) { if (passes(base + s)) { marks |= 1u << (s / 16u); } }
  let n = countOneBits(marks);
  var slot = 0u;
  if (n != 0u) { slot = atomicAdd(&wgKeep, n); }
  workgroupBarrier();
  if (li == 0u) {
    let all = atomicLoad(&wgKeep);
    wgFirst = select(0u, atomicAdd(&results[0], all), all != 0u);
    if (wid.x == 0u && wid.y == 0u) { atomicStore(&results[1], atomicLoad(&bandsAbove[GROUP])); }
  }
  slot += workgroupUniformLoad(&wgFirst);
  let above = atomicLoad(&bandsAbove[(li >> 4u) / GROUP]);
  while (marks != 0u && slot < params.maxResults) {
    let i = base + mine.y + 16u * firstTrailingBit(marks);
    marks &= marks - 1u;
    let out = HEAD + slot * (REC + 1u);
    atomicStore(&results[out], rank(atomicLoad(&records[i * PREC + REC]), above));
    for (var f = 0u; f < REC; f++) { atomicStore(&results[out + 1u + f], atomicLoad(&records[i * PREC + f])); }
    if (HIST) {
      let words = HIST_BINS * histWords();
      for (var k = 0u; k < words; k++) { atomicStore(&results[histResultAt(slot) + k], atomicLoad(&hist[i * words + k])); }
    }
    slot++;
  }
}
