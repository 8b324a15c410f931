// The features readback's decode puts the GPU's compacted records (in whatever order the GPU appended them) in
// ascending label order, for labels of every size (canonical ones placed by label, others radix-sorted), and keeps
// each record with its own label.
import { describe, expect, it } from 'vitest';
import { decodeFeatures, record } from '../../../nodes/components/features/results.js';
import { rng } from '../../../src/eval/images.js';

/** A results buffer of records for `labels` in the given order; each record's area is derived from its label. */
function results(labels: number[], maxResults: number): ArrayBuffer {
  const stride = record.REC + 1;
  const v = new Uint32Array(record.HEAD + maxResults * stride);
  v[0] = labels.length;
  v[1] = labels.length;
  labels.forEach((l, i) => {
    const at = record.HEAD + i * stride + 1;
    v[at - 1] = l;
    v[at + record.AREA] = (l % 1000) + 1;
  });
  return v.buffer;
}

describe('decodeFeatures', () => {
  const r = rng(7);
  const distinct = (n: number, below: number) => {
    const s = new Set<number>();
    while (s.size < n) s.add(Math.floor(r() * below));
    return [...s];
  };
  const cases: [string, number[]][] = [
    ['none', []],
    ['one', [5]],
    ['canonical labels, shuffled', distinct(1000, 1000).map((l) => l + 1)],
    ['canonical labels, some filtered out', distinct(700, 3000).map((l) => l + 1)],
    ['a label twice (placed labels must be distinct: the radix sort then)', [3, 9, 1, 9]],
    ['labels below 2^11 (one radix pass)', distinct(300, 2048)],
    ['labels near 2^22 (two and three passes)', distinct(500, 1 << 23)],
    ['labels over the whole u32 range', [...distinct(700, 2 ** 32), 0xffffffff, 0]],
    ['labels equal in their low bits', Array.from({ length: 64 }, (_, i) => (i << 11) | 7).reverse()],
  ];
  for (const [name, labels] of cases) {
    it(`sorts by label and keeps each record with its label: ${name}`, () => {
      const f = decodeFeatures(results(labels, labels.length + 3), 640, 480, labels.length + 3);
      expect(Array.from(f.label)).toEqual([...labels].sort((a, b) => a - b));
      f.label.forEach((l, i) => expect(f.area[i]).toBe((l % 1000) + 1));
    });
  }
});
