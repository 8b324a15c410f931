// The oracle is tested too: against an independent breadth-first flood fill, and on images whose answers are known.
import { describe, expect, it } from 'vitest';
import { labelCpu, canonicalize } from '../../../src/reference/labelCpu.js';
import { checkerboard, diagonals, randomBlocks, spiral, zigzag, zigzagSpiral } from '../../../src/eval/images.js';

function floodFill(mask: Uint8Array, w: number, h: number, conn: 4 | 8): { labels: Uint32Array; count: number } {
  const labels = new Uint32Array(w * h);
  let count = 0;
  const offs = conn === 8 ? [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]] : [[0, -1], [-1, 0], [1, 0], [0, 1]];
  for (let s = 0; s < w * h; s++) {
    if (!mask[s] || labels[s]) continue;
    labels[s] = ++count;
    const stack = [s];
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w;
      const y = (p - x) / w;
      for (const [dx, dy] of offs) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const q = ny * w + nx;
        if (mask[q] && !labels[q]) {
          labels[q] = count;
          stack.push(q);
        }
      }
    }
  }
  return { labels, count };
}

describe('labelCpu (the oracle)', () => {
  it('agrees with a flood fill on random images', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const w = 1 + ((seed * 37) % 90);
      const h = 1 + ((seed * 53) % 70);
      const m = randomBlocks(w, h, (seed % 11) / 10, [1, 2, 4, 16][seed % 4], seed);
      for (const conn of [4, 8] as const) {
        const a = labelCpu(m, w, h, conn);
        const b = floodFill(m, w, h, conn);
        expect(a.count).toBe(b.count);
        // A flood fill started in raster order numbers components by first pixel too: labels must be identical.
        expect(Array.from(a.labels)).toEqual(Array.from(b.labels));
      }
    }
  });

  it('knows the answers for structured images', () => {
    expect(labelCpu(checkerboard(8, 8), 8, 8, 8).count).toBe(1);
    expect(labelCpu(checkerboard(8, 8), 8, 8, 4).count).toBe(32);
    expect(labelCpu(diagonals(12, 12, 4), 12, 12, 4).count).toBe(Array.from(diagonals(12, 12, 4)).filter(Boolean).length);
    expect(labelCpu(spiral(51, 49), 51, 49, 4).count).toBe(1);
    expect(labelCpu(zigzag(31, 9), 31, 9, 4).count).toBe(1);
    expect(labelCpu(zigzagSpiral(101), 101, 101, 4).count).toBe(1);
    expect(labelCpu(new Uint8Array(10), 5, 2).count).toBe(0);
  });

  it('canonicalize renumbers in raster order of first appearance', () => {
    expect(Array.from(canonicalize([0, 7, 7, 3, 0, 3, 9]))).toEqual([0, 1, 1, 2, 0, 2, 3]);
  });
});
