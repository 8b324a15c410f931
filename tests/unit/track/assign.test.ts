// The Hungarian assignment against brute force over every permutation, square and rectangular, with ties and
// forbidden pairs; the gated one (groups solved over their allowed pairs alone) against brute force and the dense one.
import { describe, expect, it } from 'vitest';
import { assign, assignGated, assignSparse, SparsePairs } from '../../../src/track/assign.js';
import { rng } from '../../../src/eval/images.js';

/** The least total cost over all matchings that match min(rows, cols) pairs. */
function brute(cost: number[], rows: number, cols: number): number {
  let best = Infinity;
  const used = new Array<boolean>(cols).fill(false);
  const go = (r: number, skipped: number, sum: number) => {
    if (r === rows) {
      best = Math.min(best, sum);
      return;
    }
    for (let c = 0; c < cols; c++) {
      if (used[c]) continue;
      used[c] = true;
      go(r + 1, skipped, sum + cost[r * cols + c]);
      used[c] = false;
    }
    // More rows than columns: some rows stay unmatched.
    if (skipped < rows - cols) go(r + 1, skipped + 1, sum);
  };
  go(0, 0, 0);
  return best;
}

describe('assign', () => {
  const r = rng(12);
  it('finds the least total cost, for every shape up to 6×6', () => {
    for (let rows = 1; rows <= 6; rows++) {
      for (let cols = 1; cols <= 6; cols++) {
        for (let k = 0; k < 6; k++) {
          // Integers with ties, and sometimes a forbidden pair.
          const cost = Array.from({ length: rows * cols }, () => (r() < 0.1 ? 1e9 : Math.floor(r() * 10)));
          const match = assign(cost, rows, cols);
          const cols_ = [...match].filter((c) => c >= 0);
          expect(cols_.length, `${rows}×${cols}`).toBe(Math.min(rows, cols));
          expect(new Set(cols_).size).toBe(cols_.length);
          const total = [...match].reduce((s, c, row) => s + (c >= 0 ? cost[row * cols + c] : 0), 0);
          expect(total, `${rows}×${cols} #${k}`).toBe(brute(cost, rows, cols));
        }
      }
    }
  });

  it('assignGated gives the pairs assign gives among allowed ones, group by group', () => {
    for (let k = 0; k < 300; k++) {
      const rows = 1 + Math.floor(r() * 9);
      const cols = 1 + Math.floor(r() * 9);
      // Mostly forbidden, distinct costs (no ties, so the optimum is one matching).
      const cost = Array.from({ length: rows * cols }, () => (r() < 0.7 ? 1e9 : r()));
      const full = [...assign(cost, rows, cols)].map((c, row) => (c >= 0 && cost[row * cols + c] < 1e9 ? c : -1));
      expect([...assignGated(cost, rows, cols, 1e9)], `#${k}`).toEqual(full);
    }
  });

  it('assignSparse matches as many rows as the allowed pairs allow, at the least total among those (ties too)', () => {
    // Brute force over every matching of allowed pairs: the most pairs first, then the least total.
    const best = (allowed: [number, number, number][][], cols: number) => {
      let top = { pairs: 0, total: 0 };
      const used = new Array<boolean>(cols).fill(false);
      const go = (row: number, pairs: number, total: number) => {
        if (row === allowed.length) {
          if (pairs > top.pairs || (pairs === top.pairs && total < top.total)) top = { pairs, total };
          return;
        }
        go(row + 1, pairs, total);
        for (const [, c, cost] of allowed[row]) {
          if (used[c]) continue;
          used[c] = true;
          go(row + 1, pairs + 1, total + cost);
          used[c] = false;
        }
      };
      go(0, 0, 0);
      return top;
    };
    const pairs = new SparsePairs();
    for (let k = 0; k < 400; k++) {
      const rows = 1 + Math.floor(r() * 7);
      const cols = 1 + Math.floor(r() * 7);
      // Few pairs, small integer costs (many ties), and rows competing for the same columns.
      const allowed = Array.from({ length: rows }, (_, row) =>
        Array.from({ length: cols }, (_, c) => [row, c, Math.floor(r() * 4)] as [number, number, number]).filter(() => r() < 0.35),
      );
      pairs.clear();
      for (const list of allowed) for (const [row, c, cost] of list) pairs.add(row, c, cost);
      const match = assignSparse(pairs, rows, cols).subarray(0, rows);
      const taken = [...match].filter((c) => c >= 0);
      expect(new Set(taken).size, `#${k}`).toBe(taken.length);
      let total = 0;
      match.forEach((c, row) => {
        if (c < 0) return;
        const pair = allowed[row].find(([, cc]) => cc === c);
        expect(pair, `#${k}: row ${row} took column ${c}, not an allowed pair`).toBeDefined();
        total += pair![2];
      });
      expect({ pairs: taken.length, total }, `#${k} ${rows}×${cols}`).toEqual(best(allowed, cols));
    }
  });

  it('gives the same answers with one pair list reused for problems of every size', () => {
    // The tracker keeps its pair list and work arrays from frame to frame: stale entries of a larger problem must
    // never leak into a smaller one (sizes go up and down), nor a grown array lose what it holds. Distinct costs:
    // one optimum, which the dense solve gives too.
    const pairs = new SparsePairs();
    for (let k = 0; k < 400; k++) {
      const rows = 1 + Math.floor(r() * (k % 3 === 0 ? 40 : 8));
      const cols = 1 + Math.floor(r() * (k % 5 === 0 ? 40 : 8));
      const cost = Array.from({ length: rows * cols }, () => (r() < 0.8 ? 1e9 : r()));
      pairs.clear();
      for (let row = 0; row < rows; row++) for (let c = 0; c < cols; c++) if (cost[row * cols + c] < 1e9) pairs.add(row, c, cost[row * cols + c]);
      const dense = [...assign(cost, rows, cols)].map((c, row) => (c >= 0 && cost[row * cols + c] < 1e9 ? c : -1));
      expect([...assignSparse(pairs, rows, cols).subarray(0, rows)], `#${k} ${rows}×${cols}`).toEqual(dense);
    }
  });

  it('handles empty matrices', () => {
    expect([...assign([], 0, 3)]).toEqual([]);
    expect([...assign([], 2, 0)]).toEqual([-1, -1]);
  });
});
