/**
 * The minimum-cost assignment of one group of `assignSparse` over its allowed pairs alone: the Hungarian method with
 * potentials and shortest augmenting paths (Dijkstra on reduced costs), where a row looks only at its own pairs.
 * The dense solve it replaced scanned every column for every row it visited (O(n²·m) on a group's n × m matrix, most
 * of whose entries are disallowed); in a crowd the gated pairs chain tracks into groups of 40 × 40 with two or three
 * pairs a row, and the dense solve was the tracker's largest cost.
 *
 * Each row also has a column of its own at cost `limit` (more than any sum of allowed costs): a row left unmatched
 * takes it. The least total then matches as many rows as the allowed pairs can, and among those matchings takes the
 * least cost, as the dense matrix with `limit` in its disallowed entries does; the two differ only between matchings
 * of exactly equal cost.
 */
import { atLeast } from './scratch.js';

export class SparseHungarian {
  /** Pairs by row: row r's columns and costs at [start[r], start[r + 1]). */
  start: Int32Array = new Int32Array(16);
  col: Int32Array = new Int32Array(16);
  cost: Float64Array = new Float64Array(16);
  /** Potentials of rows and of columns. */
  #u: Float64Array = new Float64Array(16);
  #v: Float64Array = new Float64Array(16);
  /** Per column: its distance in the current search, the row it was reached from, its row (-1: free), settled. */
  #dist: Float64Array = new Float64Array(16);
  #way: Int32Array = new Int32Array(16);
  #colRow: Int32Array = new Int32Array(16);
  #settled: Uint8Array = new Uint8Array(16);
  /** Columns the current search reached, in the order reached. */
  #reached: Int32Array = new Int32Array(16);
  /** The answer: each row's column (>= m: its own, i.e. unmatched). */
  rowCol: Int32Array = new Int32Array(16);

  /** Rows, columns and pairs the arrays hold (reserve). */
  #rows = 0;
  #cols = 0;
  #pairs = 0;

  /**
   * Sized for n rows, m columns and `pairs` pairs; `start`, `col` and `cost` are then filled by the caller. Called
   * for every group of every frame, most needing no more than the largest before: three comparisons then.
   */
  reserve(n: number, m: number, pairs: number): void {
    if (n <= this.#rows && m <= this.#cols && pairs <= this.#pairs) return;
    this.#rows = Math.max(this.#rows, n);
    this.#cols = Math.max(this.#cols, m);
    this.#pairs = Math.max(this.#pairs, pairs);
    this.start = atLeast(this.start, n + 1);
    this.col = atLeast(this.col, pairs);
    this.cost = atLeast(this.cost, pairs);
    this.#u = atLeast(this.#u, n);
    this.#v = atLeast(this.#v, m);
    this.#dist = atLeast(this.#dist, m);
    this.#way = atLeast(this.#way, m);
    this.#colRow = atLeast(this.#colRow, m);
    this.#settled = atLeast(this.#settled, m);
    this.#reached = atLeast(this.#reached, m);
    this.rowCol = atLeast(this.rowCol, n);
  }

  /** Solves rows 0..n-1 against columns 0..m-1 over the pairs in `start` / `col` / `cost`; answer in `rowCol`. */
  solve(n: number, m: number, limit: number): void {
    const { start, col, cost, rowCol } = this;
    const u = this.#u;
    const v = this.#v;
    const dist = this.#dist;
    const way = this.#way;
    const colRow = this.#colRow;
    const settled = this.#settled;
    const reached = this.#reached;
    for (let r = 0; r < n; r++) u[r] = 0;
    for (let c = 0; c < m; c++) {
      v[c] = 0;
      colRow[c] = -1;
      dist[c] = Infinity;
      settled[c] = 0;
    }
    for (let r0 = 0; r0 < n; r0++) {
      // Dijkstra from row r0 on reduced costs (cost - u - v, never negative) until a free column is settled. A row's
      // own column is free whenever the search reaches the row (a row matched to its own is reached by no other), so
      // the nearest of them is kept as one candidate; their potentials stay 0.
      let found = 0;
      let r = r0;
      let base = 0;
      let own = Infinity;
      let ownRow = -1;
      let end = -1;
      let total = 0;
      for (;;) {
        for (let e = start[r], last = start[r + 1]; e < last; e++) {
          const c = col[e];
          if (settled[c]) continue;
          const d = base + cost[e] - u[r] - v[c];
          if (d < dist[c]) {
            if (dist[c] === Infinity) reached[found++] = c;
            dist[c] = d;
            way[c] = r;
          }
        }
        if (base + limit - u[r] < own) {
          own = base + limit - u[r];
          ownRow = r;
        }
        let best = own;
        let next = -1;
        for (let k = 0; k < found; k++) {
          const c = reached[k];
          if (!settled[c] && dist[c] < best) {
            best = dist[c];
            next = c;
          }
        }
        total = best;
        if (next < 0) break; // a row's own column is nearest: that row goes unmatched
        settled[next] = 1;
        if (colRow[next] < 0) {
          end = next;
          break;
        }
        r = colRow[next];
        base = best;
      }
      // Potentials: reduced costs stay non-negative and the path's pairs (and every matched pair) tight.
      u[r0] += total;
      for (let k = 0; k < found; k++) {
        const c = reached[k];
        if (!settled[c] || c === end) continue;
        u[colRow[c]] += total - dist[c];
        v[c] -= total - dist[c];
      }
      // Augment along the path back to r0: from the free column found, or from the row whose own column it was.
      let c = end;
      if (end < 0) {
        const row = ownRow;
        c = row === r0 ? -1 : rowCol[row];
        rowCol[row] = m + row;
      }
      while (c >= 0) {
        const row = way[c];
        const before = row === r0 ? -1 : rowCol[row];
        rowCol[row] = c;
        colRow[c] = row;
        c = before;
      }
      for (let k = 0; k < found; k++) {
        const c = reached[k];
        dist[c] = Infinity;
        settled[c] = 0;
      }
    }
  }
}
