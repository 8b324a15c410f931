// Bindings and helpers shared by the labeling kernels. Labels are raster indices of a pixel in the same
// component, always <= the pixel's own index, so following them ends at a root (label == index) and the root of
// a finished component is its first pixel in raster order. BG marks background.
const BG: u32 = 0xffffffffu;

struct Params {
  width: u32,
  height: u32,
  pixels: u32,
  blocks: u32,    // canonical blocks (workgroups), one root count each
  level: u32,     // tiles: the merge level this uniform buffer belongs to
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> mask: array<u32>;
@group(0) @binding(2) var<storage, read_write> L: array<atomic<u32>>;
// The same buffer without atomics, for kernels that only store labels (plain stores coalesce; atomic ones do
// not). No entry point uses both views.
@group(0) @binding(2) var<storage, read_write> Lplain: array<u32>;
// Four labels at a time, for rows that start on 16-byte boundaries.
@group(0) @binding(2) var<storage, read_write> Lquad: array<vec4<u32>>;
// info (read back as LabelInfo): 1 passes run, 2 pending (the last pass changed something), 3 Shibata's arrivals
// in the current pass, 6 component count. Zero means converged after no passes, which is what every direct algorithm leaves.
@group(0) @binding(3) var<storage, read_write> info: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> blocks: array<u32>;
@group(0) @binding(5) var<storage, read_write> outLabels: array<u32>;

#include "common/mask.wgsl"

#include "common/find.wgsl"
