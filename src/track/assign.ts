/**
 * Minimum-cost assignment (the Hungarian method, with potentials and shortest augmenting paths: O(n²·m) for an
 * n×m matrix, n <= m, transposed otherwise). Every row is matched when rows <= cols, every column otherwise; the
 * caller drops pairs whose cost says "not allowed" (a large cost), which keeps the matching a true optimum among
 * the allowed pairs as long as that cost exceeds any sum of allowed ones.
 */

/** For each row, its column (or -1), minimising the total cost. `cost[r * cols + c]`. */
export function assign(cost: ArrayLike<number>, rows: number, cols: number): Int32Array {
  if (rows === 0 || cols === 0) return new Int32Array(rows).fill(-1);
  if (rows > cols) {
    const t = new Float64Array(rows * cols);
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) t[c * rows + r] = cost[r * cols + c];
    const colToRow = assign(t, cols, rows);
    const rowToCol = new Int32Array(rows).fill(-1);
    colToRow.forEach((r, c) => r >= 0 && (rowToCol[r] = c));
    return rowToCol;
  }
  const n = rows;
  const m = cols;
  // 1-based: row 0 and column 0 are the algorithm's sentinels.
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1); // row matched to column j (0: none)
  const way = new Int32Array(m + 1);
  const minv = new Float64Array(m + 1);
  const used = new Uint8Array(m + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = p[j0];
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = cost[(i0 - 1) * m + (j - 1)] - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0 !== 0);
  }
  const rowToCol = new Int32Array(n).fill(-1);
  for (let j = 1; j <= m; j++) if (p[j] !== 0) rowToCol[p[j] - 1] = j - 1;
  return rowToCol;
}

/**
 * The same matching when most pairs are not allowed (cost >= `limit`): the rows and columns that allowed pairs
 * connect are solved apart, each group as a small dense problem, and disallowed pairs are never returned (-1).
 * Equal to `assign` followed by dropping disallowed pairs, since no group's choice changes another's.
 */
export function assignGated(cost: ArrayLike<number>, rows: number, cols: number, limit: number): Int32Array {
  // Union-find over rows (0..rows-1) and columns (rows..rows+cols-1).
  const parent = Int32Array.from({ length: rows + cols }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (cost[r * cols + c] >= limit) continue;
      const a = find(r);
      const b = find(rows + c);
      if (a !== b) parent[a] = b;
    }
  }
  const groups = new Map<number, { rows: number[]; cols: number[] }>();
  const group = (i: number) => {
    const root = find(i);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = { rows: [], cols: [] }));
    return g;
  };
  for (let r = 0; r < rows; r++) group(r).rows.push(r);
  for (let c = 0; c < cols; c++) group(rows + c).cols.push(c);
  const rowToCol = new Int32Array(rows).fill(-1);
  for (const g of groups.values()) {
    if (g.rows.length === 0 || g.cols.length === 0) continue;
    const sub = new Float64Array(g.rows.length * g.cols.length);
    g.rows.forEach((r, i) => g.cols.forEach((c, j) => (sub[i * g.cols.length + j] = cost[r * cols + c])));
    assign(sub, g.rows.length, g.cols.length).forEach((j, i) => {
      if (j >= 0 && sub[i * g.cols.length + j] < limit) rowToCol[g.rows[i]] = g.cols[j];
    });
  }
  return rowToCol;
}
