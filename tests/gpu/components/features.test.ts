import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { features, label, labelAlgorithms, threshold, InvalidOptionError, InvalidFrameError, type ComponentFeatures, type GpuContext, type PixelImage } from '../../../index.js';
import { labelCpu } from '../../../src/reference/labelCpu.js';
import { featuresCpu } from '../../../src/reference/featuresCpu.js';
import { labelCorpus } from '../../../src/eval/corpus.js';
import { rng } from '../../../src/eval/images.js';
import { run, testContext } from '../../support/gpu.js';

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
      // An orientation is an axis: −π/2 and π/2 are one (a vertical component whose mu11 rounds either side of 0).
      const d = k === 'orientation' ? Math.abs(v - w) % Math.PI : Math.abs(v - w);
      if (Math.min(d, k === 'orientation' ? Math.PI - d : d) > 1e-9 * Math.max(1, Math.abs(w))) throw new Error(`${name}: ${k}[${i}] = ${v}, want ${w}`);
    });
  }
}

describe('features', () => {
  for (const connectivity of [8, 4] as const) {
    it(`from the mask (one labeling, C2FL tiles) equal the CPU reference, ${connectivity}-connectivity`, async () => {
      const results = await run(
        ctx,
        images.map((c): PixelImage => ({ width: c.width, height: c.height, format: 'gray', data: c.gray })),
        threshold({ level }),
        features({ connectivity, maxResults: 1 << 16 }),
      );
      images.forEach((c, i) => {
        const labels = labelCpu(mask(c.gray), c.width, c.height, connectivity).labels;
        const want = featuresCpu(labels, c.gray, c.width, c.height);
        const got = results[i].features!;
        expect(got.count, c.name).toBe(want.count);
        expect(got.passed, c.name).toBe(want.label.length);
        expect(got.truncated || got.overflow).toBe(false);
        expectSame(got, want, c.name);
      });
    });
  }

  it('from the mask: tiles with more parts than workgroup memory holds (4-connected checkerboards), and big sums', async () => {
    // A 4-connected checkerboard has 512 parts per 32×32 tile, 480 past the 32 kept in workgroup memory; an all-white
    // 1500×1400 frame has sums of x² past 2^32.
    const board = (w: number, h: number, cell: number) => Uint8Array.from({ length: w * h }, (_, p) => ((Math.floor((p % w) / cell) + Math.floor(p / w / cell)) % 2 ? 200 : 10));
    const cases = [
      { name: 'checkerboard 97x70', width: 97, height: 70, gray: board(97, 70, 1) },
      { name: 'checkerboard cells 2 130x64', width: 130, height: 64, gray: board(130, 64, 2) },
      { name: 'white 1500x1400', width: 1500, height: 1400, gray: new Uint8Array(1500 * 1400).fill(255) },
    ];
    for (const connectivity of [4, 8] as const) {
      const results = await run(ctx, cases.map((c): PixelImage => ({ ...c, format: 'gray', data: c.gray })), threshold({ level }), features({ connectivity, maxResults: 1 << 16 }));
      cases.forEach((c, i) => {
        const want = featuresCpu(labelCpu(mask(c.gray), c.width, c.height, connectivity).labels, c.gray, c.width, c.height);
        expect(results[i].features!.count, c.name).toBe(want.count);
        expectSame(results[i].features!, want, `${c.name} ${connectivity}`);
      });
    }
  });

  it('from the mask: too many parts for maxComponents sets overflow, and the stream goes on', async () => {
    const img = images.find((c) => c.name.startsWith('random 320x240') && featuresCpu(labelCpu(mask(c.gray), c.width, c.height, 8).labels, c.gray, c.width, c.height).count > 40)!;
    const frame: PixelImage = { width: img.width, height: img.height, format: 'gray', data: img.gray };
    const [small, full] = await Promise.all([
      run(ctx, [frame, frame], threshold({ level }), features({ maxComponents: 10 })),
      run(ctx, [frame], threshold({ level }), features()),
    ]);
    expect(small.map((r) => r.features!.overflow)).toEqual([true, true]);
    // count is the components measured (those whose parts fit), never the frame's total: parts are stored in the
    // order tiles finish, so which ones fit varies; see the next test for the exact count both ways.
    for (const r of small) {
      expect(r.features!.count).toBeGreaterThan(0);
      expect(r.features!.count).toBeLessThanOrEqual(10);
    }
    expect(full[0].features!.overflow).toBe(false);
    expect(full[0].features!.count).toBe(featuresCpu(labelCpu(mask(img.gray), img.width, img.height, 8).labels, img.gray, img.width, img.height).count);
  });

  it('after label(): more components than maxComponents sets overflow, and count is those measured, as from the mask', async () => {
    // 60 separate 2×2 squares, one per 32×32 tile: as many parts as components from the mask.
    const w = 320;
    const h = 192;
    const g = new Uint8Array(w * h);
    for (let t = 0; t < 60; t++) for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) g[((t / 10) | 0) * 32 * w + 5 * w + (t % 10) * 32 + 5 + dy * w + dx] = 200;
    const frame: PixelImage = { width: w, height: h, format: 'gray', data: g };
    const [fromLabels, fromMask] = await Promise.all([
      run(ctx, [frame], threshold({ level }), label({ algorithm: 'c2fl' }), features({ maxComponents: 10 })),
      run(ctx, [frame], threshold({ level }), features({ maxComponents: 10 })),
    ]);
    for (const r of [fromLabels[0], fromMask[0]]) {
      expect(r.features!.overflow).toBe(true);
      expect(r.features!.count).toBe(10);
      expect(r.features!.passed).toBe(10);
    }
    expect(fromLabels[0].labeling!.count).toBe(60);
    expect(Array.from(fromLabels[0].features!.label)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

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
          expect(got.count, c.name).toBe(want.count);
          expect(got.truncated || got.overflow).toBe(false);
          expectSame(got, want, c.name);
        });
      });
    }
  }

  it('after label(): tens of thousands of components (isolated pixels) equal the CPU reference', async () => {
    // Isolated pixels on a 2-pixel lattice: 256 × 144 = 36,864 components, each its own record and result.
    const w = 512;
    const h = 288;
    const r = rng(77);
    const g = new Uint8Array(w * h);
    for (let y = 0; y < h; y += 2) for (let x = 0; x < w; x += 2) g[y * w + x] = 96 + Math.floor(r() * 160);
    const [result] = await run(ctx, [{ width: w, height: h, format: 'gray', data: g }], threshold({ level }), label({ algorithm: 'c2fl' }), features({ maxResults: 1 << 16 }));
    const want = featuresCpu(labelCpu(mask(g), w, h, 8).labels, g, w, h);
    expect(want.count).toBe(36864);
    expect(result.features!.passed).toBe(36864);
    expectSame(result.features!, want, 'lattice');
  });

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

  for (const way of ['after label()', 'one labeling'] as const) it(`filters on the GPU by area, box, aspect and border, and reports truncation (${way})`, async () => {
    const labelling = way === 'after label()' ? [label({ algorithm: 'c2fl' })] : [];
    const filter = { minArea: 3, maxArea: 400, minSide: 2, maxSide: 40, maxAspect: 3, dropBorder: true };
    const some = images.filter((c) => c.width * c.height > 3000);
    const results = await run(
      ctx,
      some.map((c): PixelImage => ({ width: c.width, height: c.height, format: 'gray', data: c.gray })),
      threshold({ level }),
      ...labelling,
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
    const [t] = await run(ctx, [{ width: big.width, height: big.height, format: 'gray', data: big.gray }], threshold({ level }), ...labelling, features({ maxResults: 5 }));
    // The five returned are ones that passed, with their own canonical labels.
    const all = featuresCpu(labelCpu(mask(big.gray), big.width, big.height, 8).labels, big.gray, big.width, big.height);
    for (const [i, l] of t.features!.label.entries()) expect(t.features!.area[i]).toBe(all.area[all.label.indexOf(l)]);
    expect(t.features!.truncated).toBe(true);
    expect(t.features!.label.length).toBe(5);
    expect(t.features!.passed).toBeGreaterThan(5);
  });

  it('gray histograms, plain and spatial, equal the CPU reference on every way in, with a filter, busy tiles and big components', async () => {
    const board = (w: number, h: number, cell: number, r = rng(7)) =>
      Uint8Array.from({ length: w * h }, (_, p) => ((Math.floor((p % w) / cell) + Math.floor(p / w / cell)) % 2 ? 96 + Math.floor(r() * 160) : 10));
    const cases = [
      ...images.filter((_, i) => i % 4 === 0).map((c) => ({ name: c.name, width: c.width, height: c.height, gray: c.gray })),
      // Tiles with more parts than workgroup memory holds (4-connected), and one component across many tiles.
      { name: 'checkerboard 97x70', width: 97, height: 70, gray: board(97, 70, 1) },
      { name: 'gray ramp 700x300', width: 700, height: 300, gray: Uint8Array.from({ length: 700 * 300 }, (_, p) => 96 + ((p % 700) % 160)) },
    ];
    const filter = { minArea: 3, maxAspect: 5 };
    const ways = [
      ['one labeling, 8', [], 8],
      ['one labeling, 4', [], 4],
      ['after label(), runs', [label({ algorithm: 'c2fl', connectivity: 8 })], 8],
      ['after label(), per-pixel', [label({ algorithm: 'buf', connectivity: 8 })], 8],
    ] as const;
    for (const histogram of [true, 'spatial'] as const) {
      for (const [way, labelling, connectivity] of ways) {
        const method = way.endsWith('per-pixel') ? 'per-pixel' : 'runs';
        const results = await run(
          ctx,
          cases.map((c): PixelImage => ({ width: c.width, height: c.height, format: 'gray', data: c.gray })),
          threshold({ level }),
          ...labelling,
          features({ ...filter, connectivity, method, histogram, maxResults: 1 << 16 }),
        );
        let counted = 0;
        let placed = 0;
        cases.forEach((c, i) => {
          const want = featuresCpu(labelCpu(mask(c.gray), c.width, c.height, connectivity).labels, c.gray, c.width, c.height, { ...filter, histogram });
          const got = results[i].features!;
          const what = `${c.name} (${way}, ${histogram})`;
          expectSame(got, want, what);
          expect(got.histogram!.length, what).toBe(16 * got.label.length);
          expect(Array.from(got.histogram!), what).toEqual(Array.from(want.histogram!));
          counted += got.histogram!.reduce((a, b) => a + b, 0);
          if (histogram === 'spatial') {
            // Means of exact integer sums: equal, NaN where a bin is empty.
            expect(Array.from(got.histogramX!), what).toEqual(Array.from(want.histogramX!));
            expect(Array.from(got.histogramY!), what).toEqual(Array.from(want.histogramY!));
            placed += got.histogramX!.filter((v) => !Number.isNaN(v)).length;
          } else {
            expect(got.histogramX, what).toBeUndefined();
          }
        });
        expect(counted).toBeGreaterThan(10000);
        if (histogram === 'spatial') expect(placed).toBeGreaterThan(1000);
      }
    }
    // Without the option there are none.
    const [plain] = await run(ctx, [{ width: cases[0].width, height: cases[0].height, format: 'gray', data: cases[0].gray }], threshold({ level }), features());
    expect(plain.features!.histogram).toBeUndefined();
  });

  it('spatial histograms of a component over 2^32 in Σx carry into their high words, both ways in', async () => {
    // 2100×2100 of one gray: Σx of the one bin is 2100 · (0 + … + 2099) ≈ 4.6e9, past 32 bits.
    const [width, height] = [2100, 2100];
    const gray = new Uint8Array(width * height).fill(200);
    gray[0] = 120; // a second bin, one pixel
    const want = featuresCpu(new Uint32Array(width * height).fill(1), gray, width, height, { histogram: 'spatial' });
    expect(want.histogram![12] * want.histogramX![12]).toBeGreaterThan(2 ** 32);
    for (const labelling of [[], [label({ algorithm: 'c2fl', connectivity: 8 })]]) {
      const [r] = await run(ctx, [{ width, height, format: 'gray', data: gray }], threshold({ level }), ...labelling, features({ histogram: 'spatial' }));
      const got = r.features!;
      expect(Array.from(got.histogram!)).toEqual(Array.from(want.histogram!));
      expect(Array.from(got.histogramX!)).toEqual(Array.from(want.histogramX!));
      expect(Array.from(got.histogramY!)).toEqual(Array.from(want.histogramY!));
    }
  });

  it('rejects bad options, frames without a mask, labels that are not canonical, per-pixel without labels', async () => {
    expect(() => features({ minArea: -1 })).toThrow(InvalidOptionError);
    expect(() => features({ maxAspect: 0.5 })).toThrow(/maxAspect/);
    expect(() => features({ method: 'magic' as 'runs' })).toThrow(/method/);
    expect(() => features({ connectivity: 6 as 8 })).toThrow(/connectivity/);
    expect(() => features({ histogram: 'places' as 'spatial' })).toThrow(/histogram/);
    expect(() => features({ histogram: 'yes' as unknown as boolean })).toThrow(/histogram/);
    const frame = [{ width: 4, height: 4, format: 'gray' as const, data: new Uint8Array(16) }];
    await expect(run(ctx, frame, features())).rejects.toThrow(InvalidFrameError);
    await expect(run(ctx, frame, threshold(), label({ algorithm: 'c2fl', canonical: false }), features())).rejects.toThrow(/canonical/);
    await expect(run(ctx, frame, threshold(), features({ method: 'per-pixel' }))).rejects.toThrow(/needs labels/);
  });
});
