// The shared labeling corpus: seeded random images over densities 0–1 and granularities 1/2/4/16 at sizes from
// 1×1 to 1280×720 (odd widths, one-pixel rows and columns), plus worst cases. Every labeling algorithm is checked
// against the CPU reference on all of it.
import { checkerboard, diagonals, randomBlocks, rings, rng, spiral, textImage, zigzag, zigzagSpiral } from './images.js';

export interface CorpusImage {
  name: string;
  width: number;
  height: number;
  data: Uint8Array;
}

const sizes: [number, number][] = [
  [1, 1], [1, 17], [23, 1], [2, 2], [3, 3], [7, 5], [31, 33], [64, 64], [97, 61], [129, 1], [1, 200], [255, 3],
  [100, 100], [333, 17], [320, 240], [641, 9], [1280, 720],
];
const densities = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
const granularities = [1, 2, 4, 16];

export function randomCorpus(): CorpusImage[] {
  const out: CorpusImage[] = [];
  const pick = rng(20261122);
  let seed = 1;
  for (const [w, h] of sizes) {
    // Big frames are slow on a CPU rasterizer: fewer of them, still covering every granularity.
    const count = w * h >= 1280 * 720 ? 4 : 8;
    for (let i = 0; i < count; i++) {
      const d = densities[(seed * 7) % densities.length];
      const g = granularities[(seed + i) % granularities.length];
      const s = seed++;
      out.push({ name: `random ${w}x${h} d=${d} g=${g} seed=${s}`, width: w, height: h, data: randomBlocks(w, h, d, g, s) });
    }
  }
  // Densities near the percolation threshold, where components are largest and most tangled.
  for (let i = 0; i < 6; i++) {
    const d = 0.55 + pick() * 0.2;
    out.push({ name: `percolation 200x150 d=${d.toFixed(3)} g=1`, width: 200, height: 150, data: randomBlocks(200, 150, d, 1, 1000 + i) });
  }
  return out;
}

export function worstCases(): CorpusImage[] {
  const img = (name: string, width: number, height: number, data: Uint8Array) => ({ name, width, height, data });
  return [
    img('spiral 101x99', 101, 99, spiral(101, 99)),
    img('zigzag spiral 201', 201, 201, zigzagSpiral(201)),
    img('zigzag 121x57', 121, 57, zigzag(121, 57)),
    img('checkerboard 64x63', 64, 63, checkerboard(64, 63, 1)),
    img('checkerboard cells 3 50x50', 50, 50, checkerboard(50, 50, 3)),
    img('rings 151x149', 151, 149, rings(151, 149, 3)),
    img('diagonals 130x70', 130, 70, diagonals(130, 70, 4)),
    img('full 77x33', 77, 33, new Uint8Array(77 * 33).fill(255)),
    img('border frame 40x30', 40, 30, borderFrame(40, 30)),
    img('text 1x 203x61', 203, 61, textImage(203, 61, 'FLOWMARK 2026 %', 1, 7)),
    img('text 3x 250x90 touching the border', 250, 90, textImage(250, 90, 'WORK 60% ', 3, 8, true)),
  ];
}

/** A one-pixel frame along the image border: one component touching every edge. */
function borderFrame(w: number, h: number): Uint8Array {
  const m = new Uint8Array(w * h);
  for (let x = 0; x < w; x++) m[x] = m[(h - 1) * w + x] = 255;
  for (let y = 0; y < h; y++) m[y * w] = m[y * w + w - 1] = 255;
  return m;
}

export function labelCorpus(): CorpusImage[] {
  return [...randomCorpus(), ...worstCases()];
}
