import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { features, label, labelAlgorithms, threshold, InvalidOptionError, InvalidFrameError, type ComponentFeatures, type GpuContext, type PixelImage } from '../../src/index.js';
import { labelCpu } from '../../src/reference/labelCpu.js';
import { featuresCpu } from '../../src/reference/featuresCpu.js';
import { labelCorpus } from '../../src/reference/corpus.js';
import { rng } from '../../src/reference/images.js';
import { run, testContext } from '../support/gpu.js';

let ctx: GpuContext;
beforeAll(async () => {
  ctx = await testContext();
});
afterAll(() => ctx?.destroy());

/** Gray images whose foreground (gray > 95) is a corpus mask, with gray values that vary inside components. */
const level = 95;
const images = labelCorpus()
  .filter((_, i) => i % 2 === 0)
  .map((c, i) => {
    const r = rng(500 + i);
    const g = Uint8Array.from(c.data, (m) => (m ? 96 + Math.floor(r() * 160) : Math.floor(r() * 96)));
    return { ...c, gray: g };
  });
const mask = (g: Uint8Array) => Uint8Array.from(g, (v) => (v > level ? 255 : 0));

const intFields = ['label', 'area', 'x0', 'y0', 'x1', 'y1', 'perimeter', 'minGray', 'maxGray', 'touchesBorder'] as const;
const floatFields = ['cx', 'cy', 'mu20', 'mu02', 'mu11', 'orientation', 'majorAxis', 'minorAxis', 'eccentricity', 'meanGray'] as const;

/** Integers exactly; derived floats within 1e-9 relative (both sides use the same exact sums and formulas). */
function expectSame(got: ComponentFeatures, want: ComponentFeatures, name: string): void {
  for (const k of intFields) expect(Array.from(got[k]), `${name}: ${k}`).toEqual(Array.from(want[k]));
  for (const k of floatFields) {
    got[k].forEach((v, i) => {
      const w = want[k][i];
      if (Math.abs(v - w) > 1e-9 * Math.max(1, Math.abs(w))) throw new Error(`${name}: ${k}[${i}] = ${v}, want ${w}`);
    });
  }
}

describe('features', () => {
  for (const algorithm of labelAlgorithms) {
    for (const connectivity of [8, 4] as const) {
      it(`equal the CPU reference after ${algorithm}, ${connectivity}-connectivity`, async () => {
        const results = await run(
          ctx,
          images.map((c): PixelImage => ({ width: c.width, height: c.height, format: 'gray', data: c.gray })),
          threshold({ level }),
          label({ algorithm, connectivity, passes: 'until-converged' }),
          features({ maxResults: 1 << 16 }),
        );
        images.forEach((c, i) => {
          const labels = labelCpu(mask(c.gray), c.width, c.height, connectivity).labels;
          const want = featuresCpu(labels, c.gray, c.width, c.height);
          const got = results[i].features!;
          expect(got.passed, c.name).toBe(want.label.length);
          expect(got.truncated).toBe(false);
          expectSame(got, want, c.name);
        });
      });
    }
  }

  it('the naive per-pixel pass gives the same features', async () => {
    const some = images.slice(0, 30);
    const results = await run(
      ctx,
      some.map((c): PixelImage => ({ width: c.width, height: c.height, format: 'gray', data: c.gray })),
      threshold({ level }),
      label({ algorithm: 'c2fl' }),
      features({ method: 'per-pixel', maxResults: 1 << 16 }),
    );
    some.forEach((c, i) => expectSame(results[i].features!, featuresCpu(labelCpu(mask(c.gray), c.width, c.height, 8).labels, c.gray, c.width, c.height), c.name));
  });

  it('filters on the GPU by area, box, aspect and border, and reports truncation', async () => {
    const filter = { minArea: 3, maxArea: 400, minSide: 2, maxSide: 40, maxAspect: 3, dropBorder: true };
    const some = images.filter((c) => c.width * c.height > 3000);
    const results = await run(
      ctx,
      some.map((c): PixelImage => ({ width: c.width, height: c.height, format: 'gray', data: c.gray })),
      threshold({ level }),
      label({ algorithm: 'c2fl' }),
      features({ ...filter, maxResults: 1 << 16 }),
    );
    let kept = 0;
    some.forEach((c, i) => {
      const want = featuresCpu(labelCpu(mask(c.gray), c.width, c.height, 8).labels, c.gray, c.width, c.height, filter);
      kept += want.label.length;
      expectSame(results[i].features!, want, c.name);
    });
    expect(kept).toBeGreaterThan(10);
    const big = some.find((c) => featuresCpu(labelCpu(mask(c.gray), c.width, c.height, 8).labels, c.gray, c.width, c.height).label.length > 20)!;
    const [t] = await run(ctx, [{ width: big.width, height: big.height, format: 'gray', data: big.gray }], threshold({ level }), label({ algorithm: 'c2fl' }), features({ maxResults: 5 }));
    expect(t.features!.truncated).toBe(true);
    expect(t.features!.label.length).toBe(5);
    expect(t.features!.passed).toBeGreaterThan(5);
  });

  it('rejects bad options and frames without labels', async () => {
    expect(() => features({ minArea: -1 })).toThrow(InvalidOptionError);
    expect(() => features({ maxAspect: 0.5 })).toThrow(/maxAspect/);
    expect(() => features({ method: 'magic' as 'fused' })).toThrow(/method/);
    await expect(run(ctx, [{ width: 4, height: 4, format: 'gray', data: new Uint8Array(16) }], threshold(), features())).rejects.toThrow(InvalidFrameError);
  });
});
