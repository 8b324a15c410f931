// The tile-local half of C2FL, shared by the labeling kernels (label/c2fl.wgsl) and the fused components kernels
// (components.wgsl), and Shibata's preparation and passes (label/shibata.wgsl). Needs from the including shader:
// `params.width`/`params.height`, `mask`, `isFg`, `Lplain` and `Lquad` (views of the labels), and, for the border
// merge, `joinParts(p, q)`, which joins the parts of two neighbours across a tile border (C2FL unites them;
// Shibata's passes link them a bounded way).
const TS: u32 = 32u;           // tile side
var<workgroup> sl: array<atomic<u32>, 1024>;

fn findLocal(i: u32) -> u32 {
  var x = i;
  loop {
    let n = atomicLoad(&sl[x]);
    if (n == x) { return x; }
    x = n;
  }
}

fn uniteLocal(a: u32, b: u32) {
  var x = findLocal(a);
  var y = findLocal(b);
  loop {
    if (x == y) { return; }
    if (x < y) {
      let old = atomicMin(&sl[y], x);
      if (old == y) { return; }
      y = findLocal(old);
    } else {
      let old = atomicMin(&sl[x], y);
      if (old == x) { return; }
      x = findLocal(old);
    }
  }
}

var<workgroup> rowBits: array<atomic<u32>, 32>;

// First pixel (bit index) of the run of `bits` containing bit x: one past the highest clear bit below x.
fn runStart(bits: u32, x: u32) -> u32 {
  let below = ~bits & ((1u << x) - 1u);
  return select(0u, firstLeadingBit(below) + 1u, below != 0u);
}

// Four mask pixels starting at raster index p as four bits.
fn fgBits4(p: u32, x: u32) -> u32 {
  var b = 0u;
  if (params.width % 4u == 0u) {
    // Rows start on word boundaries: the four pixels are one mask word.
    let word = mask[p >> 2u];
    for (var k = 0u; k < 4u; k++) { if (((word >> (8u * k)) & 0xffu) != 0u) { b |= 1u << k; } }
  } else {
    for (var k = 0u; k < 4u; k++) { if (x + k < params.width && isFg(p + k)) { b |= 1u << k; } }
  }
  return b;
}

// One workgroup per 32×32 tile; invocation (row ly, quad q) owns pixels 4q..4q+3 of tile row ly. Rows become
// 32-bit masks; each run points at its first pixel; runs are united with the runs they touch in the row above
// (C2FL's row then column unification, done with bit operations and workgroup-memory union-find); run starts
// are then compressed so every pixel finds its root in one step, and labels are stored as global indices.
fn labelTile(wid: vec3<u32>, li: u32) -> vec4<u32> {
  let w = params.width;
  let ly = li >> 3u;
  let lx0 = (li & 7u) * 4u;
  let y = wid.y * TS + ly;
  let x0 = wid.x * TS + lx0;
  let inside = y < params.height && x0 < w;
  if (li < 32u) { atomicStore(&rowBits[li], 0u); }
  workgroupBarrier();
  var mine = 0u;
  if (inside) { mine = fgBits4(y * w + x0, x0); }
  if (mine != 0u) { atomicOr(&rowBits[ly], mine << lx0); }
  workgroupBarrier();
  let bits = atomicLoad(&rowBits[ly]);
  // Every pixel starts pointing at its run's first pixel; run starts are roots.
  for (var k = 0u; k < 4u; k++) {
    let lx = lx0 + k;
    let i = ly * TS + lx;
    atomicStore(&sl[i], select(BG, ly * TS + runStart(bits, lx), ((bits >> lx) & 1u) != 0u));
  }
  workgroupBarrier();
  // Each run start unites its run with every run of the row above that it touches.
  if (ly > 0u) {
    let above = atomicLoad(&rowBits[ly - 1u]);
    for (var k = 0u; k < 4u; k++) {
      let lx = lx0 + k;
      if (((bits >> lx) & 1u) == 0u || runStart(bits, lx) != lx) { continue; }
      // This run covers lx..end; with 8-connectivity it touches the row above from lx-1 to end+1.
      let rest = ~bits & ~((1u << lx) - 1u);
      let end = select(31u, firstTrailingBit(rest) - 1u, rest != 0u);
      var lo = lx;
      var hi = end;
      if (CONN8) {
        lo = select(lx, lx - 1u, lx > 0u);
        hi = min(end + 1u, 31u);
      }
      let window = (select(0xffffffffu, (2u << hi) - 1u, hi < 31u)) & ~((1u << lo) - 1u);
      var m = above & window;
      loop {
        if (m == 0u) { break; }
        let pos = firstTrailingBit(m);
        uniteLocal(ly * TS + lx, (ly - 1u) * TS + runStart(above, pos));
        m &= m + (1u << pos); // drop the lowest run of m
      }
    }
  }
  workgroupBarrier();
  // Compress run starts to their roots, then every pixel reads its run start's root.
  for (var k = 0u; k < 4u; k++) {
    let lx = lx0 + k;
    if (((bits >> lx) & 1u) != 0u && runStart(bits, lx) == lx) {
      let i = ly * TS + lx;
      atomicStore(&sl[i], findLocal(i));
    }
  }
  workgroupBarrier();
  var out = vec4<u32>(BG);
  for (var k = 0u; k < 4u; k++) {
    let lx = lx0 + k;
    if (((bits >> lx) & 1u) != 0u) {
      let r = atomicLoad(&sl[ly * TS + runStart(bits, lx)]);
      out[k] = (wid.y * TS + (r >> 5u)) * w + wid.x * TS + (r & 31u);
    }
  }
  return out;
}

// The border merge of one tile, by a workgroup of 64: 32 invocations along the top border, 32 along the left. It
// joins the fewest pairs of neighbours across the borders that connect every part the borders connect: a pair is
// skipped where a link made by another pair, or inside a tile, already covers it.
fn mergeTileBorders(wid: vec3<u32>, li: u32) {
  let w = params.width;
  let h = params.height;
  var x: u32;
  var y: u32;
  let top = li < 32u;
  if (top) {
    x = wid.x * TS + li;
    y = wid.y * TS;
    if (y == 0u) { return; }
  } else {
    x = wid.x * TS;
    y = wid.y * TS + li - 32u;
    if (x == 0u) { return; }
  }
  if (x >= w || y >= h) { return; }
  let p = y * w + x;
  if (!isFg(p)) { return; }
  let hasLeft = x > 0u;
  let leftFg = hasLeft && isFg(p - 1u);
  if (top) {
    let up = p - w;
    if (isFg(up)) {
      // Across the top border the left-to-up-left link may lie in this tile's left border or the tile above:
      // it is made somewhere, so the same skip as inside a tile holds.
      if (!leftFg || !(hasLeft && isFg(up - 1u))) { joinParts(p, up); }
    } else if (CONN8) {
      if (hasLeft && !leftFg && isFg(up - 1u)) { joinParts(p, up - 1u); }
      if (x + 1u < w && isFg(up + 1u) && !isFg(p + 1u)) { joinParts(p, up + 1u); }
    }
  } else {
    if (leftFg) {
      joinParts(p, p - 1u);
    } else if (CONN8) {
      // Diagonals into the left tile that no horizontal or vertical link covers.
      if (y > 0u && isFg(p - w - 1u) && !isFg(p - w)) { joinParts(p, p - w - 1u); }
      if (y + 1u < h && isFg(p + w - 1u) && !isFg(p + w)) { joinParts(p, p + w - 1u); }
    }
  }
}

// A tile's labels (labelTile's) stored in `Lplain`, any width: four scalar stores.
fn storeTileLabels(wid: vec3<u32>, li: u32, labels: vec4<u32>) {
  let w = params.width;
  let y = wid.y * TS + (li >> 3u);
  let x0 = wid.x * TS + (li & 7u) * 4u;
  if (y >= params.height) { return; }
  for (var k = 0u; k < 4u; k++) {
    if (x0 + k < w) { Lplain[y * w + x0 + k] = labels[k]; }
  }
}

// The same in `Lquad`, for widths that are a multiple of 4: each invocation's four pixels are one aligned vec4 store.
fn storeTileLabelsQuad(wid: vec3<u32>, li: u32, labels: vec4<u32>) {
  let y = wid.y * TS + (li >> 3u);
  let x0 = wid.x * TS + (li & 7u) * 4u;
  if (y >= params.height || x0 >= params.width) { return; }
  Lquad[(y * params.width + x0) >> 2u] = labels;
}
