/**
 * Minimum-cost assignment (the Hungarian method, with potentials and shortest augmenting paths: O(n²·m) for an
 * n×m matrix, n <= m, transposed otherwise). Every row is matched when rows <= cols, every column otherwise; the
 * caller drops pairs whose cost says "not allowed" (a large cost), which keeps the matching a true optimum among
 * the allowed pairs as long as that cost exceeds any sum of allowed ones.
 */
import { appendToList, atLeast, doubled } from './scratch.js';
import { SparseHungarian } from './SparseHungarian.js';

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
 * connect are solved apart, and disallowed pairs are never returned (-1). Equal to `assign` followed by dropping
 * disallowed pairs (but between matchings of exactly equal cost), since no group's choice changes another's.
 */
export function assignGated(cost: ArrayLike<number>, rows: number, cols: number, limit: number): Int32Array {
  const pairs = new SparsePairs();
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) if (cost[r * cols + c] < limit) pairs.add(r, c, cost[r * cols + c]);
  return assignSparse(pairs, rows, cols).slice(0, rows);
}

/**
 * The allowed pairs of a gated assignment, listed (the tracker finds them near each other, never all rows × cols),
 * with the work arrays `assignSparse` needs: one list serves every frame, so a frame allocates none of them.
 */
export class SparsePairs {
  length = 0;
  rows: Int32Array = new Int32Array(64);
  cols: Int32Array = new Int32Array(64);
  costs: Float64Array = new Float64Array(64);
  /** assignSparse's union-find, first / last pair of each group, next pair, local indices. */
  parent: Int32Array = new Int32Array(64);
  head: Int32Array = new Int32Array(64);
  tail: Int32Array = new Int32Array(64);
  next: Int32Array = new Int32Array(64);
  local: Int32Array = new Int32Array(64);
  groups: Int32Array = new Int32Array(64);
  /** A group's rows and columns, and its solver (pairs by row and work arrays). */
  groupRows: Int32Array = new Int32Array(64);
  groupCols: Int32Array = new Int32Array(64);
  /** Where a group's row writes its next pair. */
  fill: Int32Array = new Int32Array(64);
  readonly solver = new SparseHungarian();
  /** assignSparse's answer, per row (valid until it runs again on this list). */
  match: Int32Array = new Int32Array(64);

  clear(): void {
    this.length = 0;
  }

  add(row: number, col: number, cost: number): void {
    if (this.length === this.rows.length) {
      this.rows = doubled(this.rows);
      this.cols = doubled(this.cols);
      this.costs = doubled(this.costs);
    }
    this.rows[this.length] = row;
    this.cols[this.length] = col;
    this.costs[this.length++] = cost;
  }

  /** Rows and columns, and pairs, the work arrays hold (reserve). */
  #nodes = 0;
  #pairs = 0;

  /**
   * The work arrays sized for `nodes` rows and columns together and this list's pairs. Most calls need no more than
   * the last: two comparisons then, not ten calls that each look at an array's length.
   */
  reserve(nodes: number): void {
    if (nodes <= this.#nodes && this.length <= this.#pairs) return;
    this.#nodes = Math.max(this.#nodes, nodes);
    this.#pairs = Math.max(this.#pairs, this.length);
    this.parent = atLeast(this.parent, nodes);
    this.head = atLeast(this.head, nodes);
    this.tail = atLeast(this.tail, nodes);
    this.local = atLeast(this.local, nodes);
    this.groups = atLeast(this.groups, nodes);
    this.groupRows = atLeast(this.groupRows, nodes);
    this.groupCols = atLeast(this.groupCols, nodes);
    this.fill = atLeast(this.fill, nodes);
    this.next = atLeast(this.next, this.length);
  }
}

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) i = parent[i] = parent[parent[i]];
  return i;
}

/**
 * `assignGated` over a list of allowed pairs (each pair at most once): groups by union-find over the pairs alone, a
 * group of one pair taken as it is (the usual case: objects apart), larger ones solved over their own pairs
 * (SparseHungarian), each with its pairs in the list's order. The answer is `pairs.match` (its first `rows`
 * entries), valid until the next call with these pairs.
 */
export function assignSparse(pairs: SparsePairs, rows: number, cols: number): Int32Array {
  const rowToCol = (pairs.match = atLeast(pairs.match, rows));
  for (let r = 0; r < rows; r++) rowToCol[r] = -1;
  const n = pairs.length;
  if (n === 0) return rowToCol;
  const nodes = rows + cols;
  pairs.reserve(nodes);
  const { rows: pr, cols: pc, costs, parent, head, tail, next, local, groups, groupRows, groupCols, fill } = pairs;
  // Union-find over rows (0..rows-1) and columns (rows..rows+cols-1).
  for (let i = 0; i < nodes; i++) parent[i] = i;
  for (let k = 0; k < n; k++) {
    const a = find(parent, pr[k]);
    const b = find(parent, rows + pc[k]);
    if (a !== b) parent[a] = b;
  }
  // Each group's pairs listed once its roots are known (one find a pair); a group of one pair (its first pair its
  // last) is matched outright, larger ones solved below.
  for (let i = 0; i < nodes; i++) head[i] = -1;
  let listed = 0;
  for (let k = 0; k < n; k++) listed = appendToList(head, tail, next, groups, listed, find(parent, pr[k]), k);
  let big = 0;
  for (let g = 0; g < listed; g++) {
    const root = groups[g];
    const k = head[root];
    if (next[k] < 0) rowToCol[pr[k]] = pc[k];
    else groups[big++] = root;
  }
  if (big === 0) return rowToCol;
  // Larger groups: local indices for their rows and columns, each row's pairs in the list's order.
  for (let i = 0; i < nodes; i++) local[i] = -1;
  const solver = pairs.solver;
  for (let g = 0; g < big; g++) {
    let nr = 0;
    let m = 0;
    let count = 0;
    let limit = 1;
    for (let k = head[groups[g]]; k >= 0; k = next[k]) {
      const r = pr[k];
      const c = rows + pc[k];
      if (local[r] < 0) {
        local[r] = nr;
        groupRows[nr++] = r;
      }
      if (local[c] < 0) {
        local[c] = m;
        groupCols[m++] = pc[k];
      }
      count++;
      limit += Math.abs(costs[k]);
    }
    solver.reserve(nr, m, count);
    const { start, col, cost } = solver;
    for (let i = 0; i <= nr; i++) start[i] = 0;
    for (let k = head[groups[g]]; k >= 0; k = next[k]) start[local[pr[k]] + 1]++;
    for (let i = 0; i < nr; i++) start[i + 1] += start[i];
    for (let i = 0; i < nr; i++) fill[i] = start[i];
    for (let k = head[groups[g]]; k >= 0; k = next[k]) {
      const at = fill[local[pr[k]]]++;
      col[at] = local[rows + pc[k]];
      cost[at] = costs[k];
    }
    solver.solve(nr, m, limit);
    for (let i = 0; i < nr; i++) {
      const j = solver.rowCol[i];
      if (j < m) rowToCol[groupRows[i]] = groupCols[j];
    }
  }
  return rowToCol;
}
