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
  const pairs = new SparsePairs();
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) if (cost[r * cols + c] < limit) pairs.add(r, c, cost[r * cols + c]);
  return assignSparse(pairs, rows, cols);
}

/** The allowed pairs of a gated assignment, listed (the tracker finds them near each other, never all rows × cols). */
export class SparsePairs {
  length = 0;
  rows = new Int32Array(64);
  cols = new Int32Array(64);
  costs = new Float64Array(64);

  clear(): void {
    this.length = 0;
  }

  add(row: number, col: number, cost: number): void {
    if (this.length === this.rows.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.rows = grow(this.rows);
      this.cols = grow(this.cols);
      this.costs = grow(this.costs);
    }
    this.rows[this.length] = row;
    this.cols[this.length] = col;
    this.costs[this.length++] = cost;
  }
}

/**
 * `assignGated` over a list of allowed pairs (each pair at most once): groups by union-find over the pairs alone, a
 * group of one pair taken as it is (the usual case: objects apart), larger ones solved densely by `assign`.
 */
export function assignSparse(pairs: SparsePairs, rows: number, cols: number): Int32Array {
  const rowToCol = new Int32Array(rows).fill(-1);
  const n = pairs.length;
  if (n === 0) return rowToCol;
  // Union-find over rows (0..rows-1) and columns (rows..rows+cols-1).
  const parent = new Int32Array(rows + cols);
  for (let i = 0; i < parent.length; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (let k = 0; k < n; k++) {
    const a = find(pairs.rows[k]);
    const b = find(rows + pairs.cols[k]);
    if (a !== b) parent[a] = b;
  }
  // Pairs per group; a group of one pair is matched outright.
  const size = new Int32Array(rows + cols);
  for (let k = 0; k < n; k++) size[find(pairs.rows[k])]++;
  let big: Map<number, number[]> | null = null;
  for (let k = 0; k < n; k++) {
    const root = find(pairs.rows[k]);
    if (size[root] === 1) {
      rowToCol[pairs.rows[k]] = pairs.cols[k];
      continue;
    }
    big ??= new Map();
    let g = big.get(root);
    if (!g) big.set(root, (g = []));
    g.push(k);
  }
  if (!big) return rowToCol;
  // Larger groups: local indices for their rows and columns, disallowed pairs at a cost above any allowed sum.
  const local = new Int32Array(rows + cols).fill(-1);
  for (const g of big.values()) {
    const groupRows: number[] = [];
    const groupCols: number[] = [];
    for (const k of g) {
      const r = pairs.rows[k];
      const c = rows + pairs.cols[k];
      if (local[r] < 0) local[r] = groupRows.push(r) - 1;
      if (local[c] < 0) local[c] = groupCols.push(pairs.cols[k]) - 1;
    }
    const m = groupCols.length;
    const sub = new Float64Array(groupRows.length * m).fill(Infinity);
    let limit = 1;
    for (const k of g) {
      sub[local[pairs.rows[k]] * m + local[rows + pairs.cols[k]]] = pairs.costs[k];
      limit += Math.abs(pairs.costs[k]);
    }
    for (let i = 0; i < sub.length; i++) if (sub[i] === Infinity) sub[i] = limit;
    assign(sub, groupRows.length, m).forEach((j, i) => {
      if (j >= 0 && sub[i * m + j] < limit) rowToCol[groupRows[i]] = groupCols[j];
    });
  }
  return rowToCol;
}
