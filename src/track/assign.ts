/**
 * Minimum-cost assignment (the Hungarian method, with potentials and shortest augmenting paths: O(n²·m) for an
 * n×m matrix, n <= m, transposed otherwise). Every row is matched when rows <= cols, every column otherwise; the
 * caller drops pairs whose cost says "not allowed" (a large cost), which keeps the matching a true optimum among
 * the allowed pairs as long as that cost exceeds any sum of allowed ones.
 */
import { appendToList, atLeast, doubled } from './scratch.js';

/**
 * The work arrays of `assign`, kept by a caller that solves many small problems (the tracker, several every frame):
 * typed arrays past 64 bytes live outside V8's heap, and allocating them per call cost more than the solving.
 */
export class AssignWork {
  u: Float64Array = new Float64Array(16);
  v: Float64Array = new Float64Array(16);
  minv: Float64Array = new Float64Array(16);
  p: Int32Array = new Int32Array(16);
  way: Int32Array = new Int32Array(16);
  used: Uint8Array = new Uint8Array(16);
  /** A transposed cost matrix (more rows than columns). */
  transposed: Float64Array = new Float64Array(16);

  /** Sized for rows × cols (1-based: one more entry each). */
  reserve(rows: number, cols: number): void {
    this.u = atLeast(this.u, rows + 1);
    this.v = atLeast(this.v, cols + 1);
    this.minv = atLeast(this.minv, cols + 1);
    this.p = atLeast(this.p, cols + 1);
    this.way = atLeast(this.way, cols + 1);
    this.used = atLeast(this.used, cols + 1);
  }
}

/** For each row, its column (or -1), minimising the total cost. `cost[r * cols + c]`. */
export function assign(cost: ArrayLike<number>, rows: number, cols: number, work: AssignWork = new AssignWork()): Int32Array {
  if (rows === 0 || cols === 0) return unmatched(rows);
  if (rows > cols) {
    const t = (work.transposed = atLeast(work.transposed, rows * cols));
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) t[c * rows + r] = cost[r * cols + c];
    const colToRow = assign(t, cols, rows, work);
    const rowToCol = unmatched(rows);
    for (let c = 0; c < cols; c++) if (colToRow[c] >= 0) rowToCol[colToRow[c]] = c;
    return rowToCol;
  }
  const n = rows;
  const m = cols;
  work.reserve(n, m);
  // 1-based: row 0 and column 0 are the algorithm's sentinels.
  const { u, v, p, way, minv, used } = work;
  // Loops rather than TypedArray fill(), whose call costs more than these few entries.
  for (let i = 0; i <= n; i++) u[i] = 0;
  for (let j = 0; j <= m; j++) {
    v[j] = 0;
    p[j] = 0; // row matched to column j (0: none)
  }
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    for (let j = 0; j <= m; j++) {
      minv[j] = Infinity;
      used[j] = 0;
    }
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
  const rowToCol = unmatched(n);
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
  return assignSparse(pairs, rows, cols).slice(0, rows);
}

/** n entries of -1: no column. */
function unmatched(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = -1;
  return a;
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
  /** assignSparse's union-find, group sizes, first / last pair of each group, next pair, local indices. */
  parent: Int32Array = new Int32Array(64);
  size: Int32Array = new Int32Array(64);
  head: Int32Array = new Int32Array(64);
  tail: Int32Array = new Int32Array(64);
  next: Int32Array = new Int32Array(64);
  local: Int32Array = new Int32Array(64);
  groups: Int32Array = new Int32Array(64);
  /** A group's rows and columns, its dense cost matrix, and the dense solver's arrays. */
  groupRows: Int32Array = new Int32Array(64);
  groupCols: Int32Array = new Int32Array(64);
  sub: Float64Array = new Float64Array(64);
  readonly work = new AssignWork();
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

  /** The work arrays sized for `nodes` rows and columns together. */
  reserve(nodes: number): void {
    this.parent = atLeast(this.parent, nodes);
    this.size = atLeast(this.size, nodes);
    this.head = atLeast(this.head, nodes);
    this.tail = atLeast(this.tail, nodes);
    this.local = atLeast(this.local, nodes);
    this.groups = atLeast(this.groups, nodes);
    this.groupRows = atLeast(this.groupRows, nodes);
    this.groupCols = atLeast(this.groupCols, nodes);
    this.next = atLeast(this.next, this.length);
  }
}

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) i = parent[i] = parent[parent[i]];
  return i;
}

/**
 * `assignGated` over a list of allowed pairs (each pair at most once): groups by union-find over the pairs alone, a
 * group of one pair taken as it is (the usual case: objects apart), larger ones solved densely by `assign`, each
 * with its pairs in the list's order. The answer is `pairs.match` (its first `rows` entries), valid until the next
 * call with these pairs.
 */
export function assignSparse(pairs: SparsePairs, rows: number, cols: number): Int32Array {
  const rowToCol = (pairs.match = atLeast(pairs.match, rows));
  for (let r = 0; r < rows; r++) rowToCol[r] = -1;
  const n = pairs.length;
  if (n === 0) return rowToCol;
  const nodes = rows + cols;
  pairs.reserve(nodes);
  const { rows: pr, cols: pc, costs, parent, size, head, tail, next, local, groups, groupRows, groupCols } = pairs;
  // Union-find over rows (0..rows-1) and columns (rows..rows+cols-1).
  for (let i = 0; i < nodes; i++) parent[i] = i;
  for (let k = 0; k < n; k++) {
    const a = find(parent, pr[k]);
    const b = find(parent, rows + pc[k]);
    if (a !== b) parent[a] = b;
  }
  // Pairs per group; a group of one pair is matched outright, larger ones listed (first pair, next pair).
  for (let i = 0; i < nodes; i++) size[i] = 0;
  for (let k = 0; k < n; k++) size[find(parent, pr[k])]++;
  for (let i = 0; i < nodes; i++) head[i] = -1;
  let big = 0;
  for (let k = 0; k < n; k++) {
    const root = find(parent, pr[k]);
    if (size[root] === 1) {
      rowToCol[pr[k]] = pc[k];
      continue;
    }
    big = appendToList(head, tail, next, groups, big, root, k);
  }
  if (big === 0) return rowToCol;
  // Larger groups: local indices for their rows and columns, disallowed pairs at a cost above any allowed sum.
  for (let i = 0; i < nodes; i++) local[i] = -1;
  for (let g = 0; g < big; g++) {
    let nr = 0;
    let m = 0;
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
    }
    const sub = (pairs.sub = atLeast(pairs.sub, nr * m));
    for (let i = 0; i < nr * m; i++) sub[i] = Infinity;
    let limit = 1;
    for (let k = head[groups[g]]; k >= 0; k = next[k]) {
      sub[local[pr[k]] * m + local[rows + pc[k]]] = costs[k];
      limit += Math.abs(costs[k]);
    }
    for (let i = 0; i < nr * m; i++) if (sub[i] === Infinity) sub[i] = limit;
    const match = assign(sub, nr, m, pairs.work);
    for (let i = 0; i < nr; i++) {
      const j = match[i];
      if (j >= 0 && sub[i * m + j] < limit) rowToCol[groupRows[i]] = groupCols[j];
    }
  }
  return rowToCol;
}
