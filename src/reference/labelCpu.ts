/**
 * CPU reference labeling: classic two-pass union-find (raster scan, then resolve). The oracle for every GPU
 * labeling algorithm: output is canonical (0 background, 1..N in raster order of first pixel).
 */
export interface LabelResult {
  labels: Uint32Array;
  count: number;
}

/** `mask[i] != 0` is foreground. */
export function labelCpu(mask: ArrayLike<number>, width: number, height: number, connectivity: 4 | 8 = 8): LabelResult {
  const n = width * height;
  const parent = new Int32Array(n).fill(-1);
  const find = (x: number): number => {
    let r = x;
    while (parent[r] !== r) r = parent[r];
    while (parent[x] !== r) {
      const next = parent[x];
      parent[x] = r;
      x = next;
    }
    return r;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    // Keep the smaller index as root: the root is then the component's first pixel.
    if (ra < rb) parent[rb] = ra;
    else if (rb < ra) parent[ra] = rb;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (!mask[p]) continue;
      parent[p] = p;
      if (x > 0 && mask[p - 1]) union(p, p - 1);
      if (y > 0) {
        const up = p - width;
        if (mask[up]) union(p, up);
        if (connectivity === 8) {
          if (x > 0 && mask[up - 1]) union(p, up - 1);
          if (x + 1 < width && mask[up + 1]) union(p, up + 1);
        }
      }
    }
  }
  const labels = new Uint32Array(n);
  let count = 0;
  for (let p = 0; p < n; p++) {
    if (parent[p] < 0) continue;
    const r = find(p);
    labels[p] = r === p ? ++count : labels[r];
  }
  return { labels, count };
}

/** Renumbers any labeling (0 background) canonically; for comparing labelings that differ only in numbering. */
export function canonicalize(labels: ArrayLike<number>, background = 0): Uint32Array {
  const map = new Map<number, number>();
  const out = new Uint32Array(labels.length);
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i];
    if (l === background) continue;
    let c = map.get(l);
    if (c === undefined) map.set(l, (c = map.size + 1));
    out[i] = c;
  }
  return out;
}
