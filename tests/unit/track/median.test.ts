// src/track/median.ts against the middle of a sorted copy, on seeded arrays with repeats, odd and even lengths.
import { describe, expect, it } from 'vitest';
import { median } from '../../../src/track/median.js';

function sortedMedian(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const k = s.length >> 1;
  return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2;
}

describe('median', () => {
  it('equals the middle of the sorted values, in place, for lengths 1 to 60 with and without repeats', () => {
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let n = 1; n <= 60; n++) {
      for (const levels of [3, 1000]) {
        const xs = Array.from({ length: n }, () => Math.floor(random() * levels) - levels / 2 + random() * (levels > 3 ? 1 : 0));
        const a = new Float64Array(64).fill(Number.NaN);
        a.set(xs);
        expect(median(a, n)).toBe(sortedMedian(xs));
        // Reordered, not changed; the entries past n untouched.
        expect([...a.subarray(0, n)].sort((p, q) => p - q)).toEqual([...xs].sort((p, q) => p - q));
        expect(Number.isNaN(a[n] ?? Number.NaN)).toBe(true);
      }
    }
  });

  it('takes sorted, reversed and constant runs', () => {
    const n = 41;
    expect(median(Float64Array.from({ length: n }, (_, i) => i), n)).toBe(20);
    expect(median(Float64Array.from({ length: n }, (_, i) => n - i), n)).toBe(21);
    expect(median(new Float64Array(n).fill(7), n)).toBe(7);
    expect(median(Float64Array.from([5, 1]), 2)).toBe(3);
  });
});
