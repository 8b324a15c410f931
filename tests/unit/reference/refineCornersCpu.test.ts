// Subpixel corners on the CPU (the oracle for the GPU refinement): from corners off by up to a pixel, back to the
// true ones (exact by construction in the synthetic frames) within a few hundredths of a pixel on clean frames and a
// tenth with blur and noise, with no bias, for markers from 24 to 180 pixels tilted up to 60°. The blurred and noisy
// large markers are the step fit's cases: two gradient rounds alone gave 0.148 px (σ 2, noise 8) and 0.104 px
// (σ 1.5, noise 5) on these frames.
import { describe, expect, it } from 'vitest';
import { markerDictionary } from '../../../index.js';
import { markerScene, normalCdf, refineCornersCpu, rng, solveSymmetric3, stepFitCpu } from '../../../reference.js';
import { type Point } from '../../../src/markers/centreOf.js';

function errors(blur: number, noise: number, side: [number, number], seed: number) {
  const d = markerDictionary('DICT_4X4_50');
  const r = rng(seed);
  const errs: number[] = [];
  const dx: number[] = [];
  const dy: number[] = [];
  for (let f = 0; f < 8; f++) {
    const s = markerScene(seed * 100 + f, { width: 640, height: 480, markerSize: 4, bits: (id) => d.bits(id), ids: [1, 2, 3, 4], side, maxTilt: 60, blur, noise, clutter: 5 });
    for (const m of s.markers) {
      const approx = m.corners.map(([x, y]): Point => [x + (r() - 0.5) * 2, y + (r() - 0.5) * 2]);
      const got = refineCornersCpu(s.gray, s.width, s.height, approx, { cells: 6 });
      expect(got, `frame ${f} id ${m.id}`).not.toBeNull();
      got!.forEach((c, k) => {
        errs.push(Math.hypot(c[0] - m.corners[k][0], c[1] - m.corners[k][1]));
        dx.push(c[0] - m.corners[k][0]);
        dy.push(c[1] - m.corners[k][1]);
      });
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return { rmse: Math.sqrt(mean(errs.map((e) => e * e))), biasX: mean(dx), biasY: mean(dy), worst: Math.max(...errs) };
}

describe('refineCornersCpu', () => {
  for (const [blur, noise, side, rmse] of [
    [0, 0, [100, 180], 0.04],
    [0, 0, [48, 90], 0.04],
    [0, 0, [24, 46], 0.08],
    [1, 3, [100, 180], 0.08],
    [1, 3, [48, 90], 0.1],
    [2, 0, [100, 180], 0.06],
    [2, 8, [100, 180], 0.1],
    [1.5, 5, [60, 120], 0.075],
  ] as const) {
    it(`blur σ ${blur}, noise σ ${noise}, sides ${side[0]}–${side[1]} px: corner RMSE ≤ ${rmse} px, no bias`, () => {
      const e = errors(blur, noise, [...side] as [number, number], 11 + side[0] + 7 * blur);
      expect(e.rmse).toBeLessThanOrEqual(rmse);
      expect(Math.abs(e.biasX)).toBeLessThan(rmse / 2);
      expect(Math.abs(e.biasY)).toBeLessThan(rmse / 2);
    });
  }

  it('step fit: the lines of a blurred, tilted square drawn from the model itself, within 0.005 px', () => {
    // A black square on white, each side lo + (hi − lo)·Φ(distance / σ), side 120 px, turned 20°, σ 1.6 px.
    const w = 240;
    const centre: Point = [118.3, 121.7];
    const turn = (20 * Math.PI) / 180;
    const truth = [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([x, y]): Point => [
      centre[0] + 60 * (x * Math.cos(turn) - y * Math.sin(turn)),
      centre[1] + 60 * (x * Math.sin(turn) + y * Math.cos(turn)),
    ]);
    const gray = new Float64Array(w * w);
    for (let y = 0; y < w; y++) {
      for (let x = 0; x < w; x++) {
        const rx = (x - centre[0]) * Math.cos(turn) + (y - centre[1]) * Math.sin(turn);
        const ry = -(x - centre[0]) * Math.sin(turn) + (y - centre[1]) * Math.cos(turn);
        // Outside distance to the nearest side (the sides' middles are all the fit looks at).
        const out = Math.max(Math.abs(rx), Math.abs(ry)) - 60;
        gray[y * w + x] = 30 + 180 * normalCdf(out / 1.6, Math.exp(-0.5 * (out / 1.6) ** 2));
      }
    }
    // Off by about what the first gradient round leaves.
    const start = truth.map(([x, y], i): Point => [x + (i % 2 ? 0.1 : -0.08), y + (i < 2 ? 0.06 : -0.1)]);
    const lines = stepFitCpu(gray, w, w, start, { cells: 6 });
    expect(lines).not.toBeNull();
    lines!.forEach((l, i) => {
      // Both true corners of side i lie on its fitted line.
      for (const c of [truth[i], truth[(i + 1) % 4]]) expect(Math.abs((c[0] - l.p[0]) * l.d[1] - (c[1] - l.p[1]) * l.d[0])).toBeLessThan(0.005);
    });
  });

  it('normalCdf and solveSymmetric3 against known values', () => {
    for (const [z, want] of [[0, 0.5], [1, 0.841344746], [-2, 0.022750132], [3.5, 0.999767371]]) {
      expect(Math.abs(normalCdf(z, Math.exp(-0.5 * z * z)) - want)).toBeLessThan(2e-7);
    }
    const r = rng(5);
    for (let n = 0; n < 20; n++) {
      // A symmetric positive definite system from a random 3×3 B: BᵀB + I.
      const b = Array.from({ length: 9 }, () => r() * 2 - 1);
      const at = (i: number, j: number) => b[i] * b[j] + b[3 + i] * b[3 + j] + b[6 + i] * b[6 + j] + (i === j ? 1 : 0);
      const x = [r() - 0.5, r() - 0.5, r() - 0.5];
      const rhs = [0, 1, 2].map((i) => at(i, 0) * x[0] + at(i, 1) * x[1] + at(i, 2) * x[2]);
      const got = solveSymmetric3([at(0, 0), at(0, 1), at(0, 2), at(1, 1), at(1, 2), at(2, 2)], rhs)!;
      got.forEach((v, i) => expect(v).toBeCloseTo(x[i], 9));
    }
    expect(solveSymmetric3([1, 2, 3, 4, 6, 9], [1, 1, 1])).toBeNull();
  });

  it('gives up (null) where a side has no edge', () => {
    const flat = new Uint8Array(200 * 200).fill(128);
    expect(refineCornersCpu(flat, 200, 200, [[50, 50], [150, 50], [150, 150], [50, 150]], { cells: 6 })).toBeNull();
  });
});
