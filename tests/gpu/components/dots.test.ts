// dots() on the GPU against the CPU reference (dotsCpu: the same measurements in f64) and against the true centres of
// supersampled discs and ellipses: round blobs kept with their gray-weighted centres, squares and bars left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dots, features, label, threshold, InvalidOptionError, InvalidFrameError, type GpuContext } from '../../../index.js';
import { dotScene as scene, dotsCpu } from '../../../reference.js';
import { gray, run, testContext } from '../../support/gpu.js';

let ctx: GpuContext;
beforeAll(async () => {
  ctx = await testContext();
});
afterAll(() => ctx?.destroy());

describe('dots', () => {
  it('keeps the discs and ellipses with their gray-weighted centres, as the CPU reference, near the true centres; not the squares', async () => {
    const scenes = [scene(41, 320, 240), scene(42, 333, 251)];
    const results = await run(
      ctx,
      scenes.map((s) => gray(s.width, s.height, s.data)),
      threshold({ level: 90 }),
      label({ algorithm: 'c2fl', readLabels: true }),
      features({ minArea: 12, dropBorder: true, maxResults: 64 }),
      dots(),
    );
    const errs: number[] = [];
    results.forEach((r, i) => {
      const s = scenes[i];
      const want = dotsCpu(s.data, r.labels!, s.width, s.height, r.features!);
      const got = r.dots!;
      expect(got.map((d) => d.label)).toEqual(want.map((d) => d.label));
      got.forEach((d, k) => {
        const w = want[k];
        expect(Math.abs(d.x - w.x) + Math.abs(d.y - w.y), `scene ${i} dot ${d.label}: centre`).toBeLessThan(1e-3);
        expect(Math.abs(d.spread - w.spread), 'spread').toBeLessThan(1e-3);
        expect(Math.abs(d.majorAxis - w.majorAxis) / w.majorAxis, 'major axis').toBeLessThan(1e-4);
        expect(d.area).toBe(w.area);
      });
      // Every round blob found once, at its true centre; no square.
      for (const b of s.blobs) {
        const near = got.filter((d) => Math.hypot(d.x - b.cx, d.y - b.cy) < b.a);
        expect(near.length, `scene ${i}: ${b.round ? 'round' : 'square'} blob at ${b.cx.toFixed(1)},${b.cy.toFixed(1)}, a ${b.a.toFixed(1)}`).toBe(b.round ? 1 : 0);
        if (b.round) {
          errs.push(Math.hypot(near[0].x - b.cx, near[0].y - b.cy));
          // The moment ellipse of a filled ellipse has its axes, 2a and 2b; the thresholded pixels reach about 0.2 px
          // past the edge (level 90 is 30% coverage) and whole pixels add 1/12 px² of variance: up to ~0.6 px more.
          expect(Math.abs(near[0].majorAxis - 2 * Math.max(b.a, b.b))).toBeLessThan(1);
          expect(Math.abs(near[0].minorAxis - 2 * Math.min(b.a, b.b))).toBeLessThan(1);
        }
      }
    });
    expect(errs.length).toBe(2 * 15);
    console.log(`dot centre errors: max ${Math.max(...errs).toFixed(4)} px, RMS ${Math.sqrt(errs.reduce((t, e) => t + e * e, 0) / errs.length).toFixed(4)} px`);
    // Whole rim pixels are not symmetric around a disc of 3 px: a few hundredths of a pixel, up to 0.1 at worst.
    expect(Math.max(...errs)).toBeLessThan(0.1);
    expect(Math.sqrt(errs.reduce((t, e) => t + e * e, 0) / errs.length)).toBeLessThan(0.04);
  });

  it('refuses bad options, and frames without labels or features', async () => {
    expect(() => dots({ maxSide: 0 })).toThrow(InvalidOptionError);
    expect(() => dots({ maxSpread: -1 })).toThrow(InvalidOptionError);
    expect(() => dots({ maxEccentricity: 2 })).toThrow(InvalidOptionError);
    const s = scene(43, 64, 48);
    await expect(run(ctx, [gray(64, 48, s.data)], threshold({ level: 90 }), features(), dots())).rejects.toThrow(InvalidFrameError);
  });
});
