// HA4's segments from subgroup ballots: each subgroup votes on consecutive pixels of the row-padded image and its
// first lane ORs the ballot into the workgroup's words. Nothing assumes a subgroup size (4 on SwiftShader, 32 on
// NVIDIA, 64 on AMD) or which invocations form a subgroup: every subgroup claims its chunk of the workgroup's WG
// pixel slots (WG / 32 words) with an atomic counter. Writes the same packed rows as ha4.wgsl's `pack`.
enable subgroups;
override WG: u32;
#include "common/labeling.wgsl"

@group(0) @binding(5) var<storage, read_write> rowBits: array<u32>;

var<workgroup> nextChunk: atomic<u32>;
var<workgroup> words: array<atomic<u32>, WG / 32u>;

@compute @workgroup_size(WG)
fn packBallot(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) li: u32,
              @builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) sg: u32) {
  // Workgroup memory starts zeroed (WebGPU guarantees it), so the counter and words need no clearing.
  var chunk = 0u;
  if (subgroupElect()) { chunk = atomicAdd(&nextChunk, 1u); }
  chunk = subgroupBroadcastFirst(chunk);
  let wpr = (params.width + 31u) / 32u;
  let group = wid.y * nwg.x + wid.x;
  let local = chunk * sg + lane;
  let slot = group * WG + local;
  let y = slot / (wpr * 32u);
  let x = slot % (wpr * 32u);
  let fg = y < params.height && x < params.width && isFg(y * params.width + x);
  let ballot = subgroupBallot(fg);
  if (subgroupElect()) {
    let first = chunk * sg;
    for (var q = 0u; q * 32u < sg; q++) {
      var bits = ballot[q];
      if (sg < 32u) { bits &= (1u << sg) - 1u; }
      let at = first + q * 32u;
      if (bits != 0u) { atomicOr(&words[at >> 5u], bits << (at & 31u)); }
    }
  }
  workgroupBarrier();
  let wordIndex = group * (WG / 32u) + li;
  if (li < WG / 32u && wordIndex < wpr * params.height) { rowBits[wordIndex] = atomicLoad(&words[li]); }
}
