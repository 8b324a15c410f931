// Linear invocation index for 1D work folded into a 2D dispatch (see src/core/dispatch.ts). Needs WG, the workgroup
// size override, declared by the including shader.
fn linearIndex(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return gid.y * (nwg.x * WG) + gid.x;
}
