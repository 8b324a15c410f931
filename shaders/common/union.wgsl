// Lock-free union of two label trees in L (Playne & Hawick; Komura): link the larger root under the smaller with
// an atomic minimum, retrying from the new roots when another thread got there first. Linking always toward the
// smaller index keeps every root the first pixel (in raster order) of what it represents.
fn unite(a: u32, b: u32) {
  var x = find(a);
  var y = find(b);
  loop {
    if (x == y) { return; }
    if (x < y) {
      let old = atomicMin(&L[y], x);
      if (old == y) { return; }
      y = find(old);
    } else {
      let old = atomicMin(&L[x], y);
      if (old == x) { return; }
      x = find(old);
    }
  }
}
