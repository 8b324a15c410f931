// Needs `L`, the label forest as array<atomic<u32>>, from the including shader.
// Root of x, halving the path on the way: labels only decrease and stay in the component, so the stores are
// safe however threads interleave, and they shorten every later search.
fn find(x0: u32) -> u32 {
  var x = x0;
  loop {
    let n = atomicLoad(&L[x]);
    if (n == x) { return x; }
    let nn = atomicLoad(&L[n]);
    if (nn != n) { atomicMin(&L[x], nn); }
    x = nn;
  }
}
