/**
 * The median of `values[0 .. n)` (n ≥ 1; the mean of the two middle ones when n is even), found in place by
 * quickselect: the entries are reordered. Linear time on average, where sorting a few hundred slopes for every track
 * that starts coasting would cost the tracker's frame budget (Track.coast).
 */
export function median(values: Float64Array, n: number): number {
  const k = n >> 1;
  let lo = 0;
  let hi = n - 1;
  // Everything before lo is at most everything in [lo, hi], which is at most everything after hi.
  while (hi > lo) {
    const pivot = values[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i] = values[j];
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break; // between j and i every entry equals the pivot
  }
  if (n % 2 === 1) return values[k];
  // The entries before k are at most values[k]: the lower middle one is their largest.
  let lower = values[0];
  for (let i = 1; i < k; i++) if (values[i] > lower) lower = values[i];
  return (lower + values[k]) / 2;
}
