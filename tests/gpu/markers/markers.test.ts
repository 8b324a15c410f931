// markers() on the GPU against the CPU reference detector (detectMarkersCpu, step for step the same method) and
// against the scenes' exact corners: the same IDs, corners within float rounding of the reference's and within the
// stated tolerance of the truth; nothing in frames without markers; bad options refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markers, markerDictionary, InvalidOptionError, type GpuContext, type DetectedMarker } from '../../../index.js';
import { detectMarkersCpu, markerScene } from '../../../reference.js';
import { gray, run, testContext } from '../../support/gpu.js';
import { markersWith } from '../../../nodes/markers/markers.js';

let ctx: GpuContext;
beforeAll(async () => {
  ctx = await testContext();
});
afterAll(() => ctx?.destroy());

const sortById = <T extends { id: number }>(m: T[]) => [...m].sort((a, b) => a.id - b.id);

function cornerErrors(got: DetectedMarker['corners'], want: [number, number][]): number[] {
  return got.map((c, k) => Math.hypot(c[0] - want[k][0], c[1] - want[k][1]));
}

describe('markers', () => {
  // The fit runs 512 invocations per candidate where the device allows (lavapipe does), else 256: both are tried.
  const cases: [string, 256 | 512 | undefined][] = [['DICT_4X4_50', 256], ['DICT_4X4_50', 512], ['DICT_6X6_250', undefined], ['DICT_APRILTAG_36h11', undefined]];
  for (const [name, fitInvocations] of cases) {
    const how = fitInvocations ? `, ${fitInvocations} invocations per candidate` : '';
    it(`finds what the CPU reference finds, at its corners and at the true ones (${name}; 24–140 px, tilt, blur, noise, clutter${how})`, async () => {
      if (fitInvocations) expect(ctx.limits.maxComputeInvocationsPerWorkgroup).toBeGreaterThanOrEqual(fitInvocations);
      const d = markerDictionary(name);
      const scenes = Array.from({ length: 4 }, (_, f) =>
        markerScene(2100 + f, { width: 480 + 7 * f, height: 360 + 3 * f, markerSize: d.markerSize, bits: (id) => d.bits(id), ids: [f, f + 9, f + 18, f + 27], side: [24, 140], maxTilt: 50, blur: 0.3 * f, noise: 2 * f, clutter: 6 }),
      );
      const results = await run(ctx, scenes.map((s) => gray(s.width, s.height, s.gray)), markersWith({ dictionary: name }, { fitInvocations }));
      const truthErrs: number[] = [];
      results.forEach((r, f) => {
        const s = scenes[f];
        const want = detectMarkersCpu(s.gray, s.width, s.height, d);
        const got = r.markers!.found;
        expect(sortById(got).map((m) => m.id), `frame ${f}`).toEqual(sortById(want).map((m) => m.id));
        expect(got.map((m) => m.id), `frame ${f}: order`).toEqual(want.map((m) => m.id));
        for (const m of got) {
          const ref = want.find((w) => w.id === m.id)!;
          for (const e of cornerErrors(m.corners, ref.corners)) expect(e, `frame ${f} id ${m.id}: against the reference`).toBeLessThan(0.01);
          const truth = s.markers.find((t) => t.id === m.id);
          if (truth) truthErrs.push(...cornerErrors(m.corners, truth.corners));
          expect(m.rotation).toBe(ref.rotation);
          expect(m.residual).toBeGreaterThanOrEqual(0);
        }
        expect(r.markers!.overflow).toBe(false);
      });
      const rmse = Math.sqrt(truthErrs.reduce((a, e) => a + e * e, 0) / truthErrs.length);
      expect(truthErrs.length).toBeGreaterThanOrEqual(4 * 14);
      expect(rmse).toBeLessThan(0.15);
    });
  }

  it('reads small blurred markers with the blur undone as the CPU reference does, never as other markers', async () => {
    // 15–22 px markers (cells of 2.5–3.7 px) blurred by σ 1–1.6 px: lone cells fade into their neighbours, and read
    // as they are many grids are doubtful or another marker's.
    const d = markerDictionary('DICT_4X4_50');
    const scenes = Array.from({ length: 3 }, (_, f) =>
      markerScene(2400 + f, { width: 360, height: 240, markerSize: 4, bits: (id) => d.bits(id), ids: Array.from({ length: 15 }, (_, k) => (7 * k + 3 * f) % 50), side: [15, 22], maxTilt: 30, blur: 1 + 0.3 * f, noise: 2, clutter: 0 }),
    );
    const results = await run(ctx, scenes.map((s) => gray(s.width, s.height, s.gray)), markers({ dictionary: 'DICT_4X4_50' }));
    let found = 0;
    let plain = 0;
    results.forEach((r, f) => {
      const s = scenes[f];
      const want = detectMarkersCpu(s.gray, s.width, s.height, d);
      const got = r.markers!.found;
      expect(got.map((m) => m.id), `frame ${f}`).toEqual(want.map((m) => m.id));
      for (const m of got) {
        const ref = want.find((w) => w.id === m.id)!;
        for (const e of cornerErrors(m.corners, ref.corners)) expect(e, `frame ${f} id ${m.id}`).toBeLessThan(0.01);
      }
      const truth = new Set(s.markers.map((m) => m.id));
      for (const m of got) expect(truth.has(m.id), `frame ${f}: id ${m.id} is not in the scene`).toBe(true);
      found += got.length;
      plain += detectMarkersCpu(s.gray, s.width, s.height, d, { deblur: false }).length;
    });
    // The CPU reference: 44 of 45 found; 12 by the plain reader (deblur: false).
    expect(found).toBeGreaterThanOrEqual(40);
    expect(found).toBeGreaterThanOrEqual(plain + 20);
  });

  it('keeps the largest candidates when there are more than maxCandidates, the same markers every run', async () => {
    // Four 70 px markers in the lower half, under 300 small dark squares (each a candidate) in the upper half: with
    // room for 60 candidates, the squares, first in raster order, would take every slot if slots went by order.
    const d = markerDictionary('DICT_4X4_50');
    const [w, h] = [640, 480];
    const s = markerScene(77, { width: w, height: h, markerSize: 4, bits: (id) => d.bits(id), ids: [3, 11, 19, 27], side: [70, 70], maxTilt: 0, blur: 0.5, noise: 2, clutter: 0, place: (k) => ({ cx: 100 + 145 * k, cy: 380, side: 70, tilt: 0, spin: 0 }) });
    for (let k = 0; k < 300; k++) {
      const [x0, y0] = [8 + (k % 30) * 21, 8 + Math.floor(k / 30) * 21];
      for (let y = y0; y < y0 + 12; y++) for (let x = x0; x < x0 + 12; x++) s.gray[y * w + x] = 15;
    }
    const frame = gray(w, h, s.gray);
    const wanted = (await run(ctx, [frame], markers({ dictionary: 'DICT_4X4_50' })))[0].markers!;
    expect(wanted.overflow).toBe(false);
    expect(sortById(wanted.found).map((m) => m.id)).toEqual([3, 11, 19, 27]);
    const runs = await run(ctx, [frame, frame, frame, frame, frame], markers({ dictionary: 'DICT_4X4_50', maxCandidates: 60 }));
    for (const r of runs) {
      expect(r.markers!.overflow).toBe(true);
      expect(r.markers!.candidates).toBeLessThanOrEqual(60);
      // The markers are the largest candidates: found, at the corners found without the limit.
      expect(JSON.stringify(r.markers!.found)).toBe(JSON.stringify(wanted.found));
    }
  });

  it('reads several dictionaries of three sizes in one pass, as the CPU reference does, each marker naming its own', async () => {
    // Thirds of a frame rendered for DICT_4X4_50, DICT_APRILTAG_36h11 and DICT_5X5_100, two markers in each.
    const names = ['DICT_4X4_50', 'DICT_APRILTAG_36H11', 'DICT_5X5_100'];
    const dicts = names.map((n) => markerDictionary(n));
    const [w, h, third] = [600, 240, 200];
    const frames = [0, 1].map((f) => {
      const parts = dicts.map((d, k) =>
        markerScene(2600 + 3 * f + k, { width: w, height: h, markerSize: d.markerSize, bits: (id) => d.bits(id), ids: [k + 5 * f, k + 5 * f + 11], side: [40, 70], maxTilt: 30, blur: 0.5 * f, noise: 2, clutter: 0, place: (j) => ({ cx: k * third + 50 + 100 * j, cy: 70 + 100 * j }) }),
      );
      const pixels = new Uint8Array(w * h);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) pixels[y * w + x] = parts[Math.min(2, Math.floor(x / third))].gray[y * w + x];
      return { pixels, truth: parts.flatMap((p, k) => p.markers.map((m) => `${names[k]} ${m.id}`)) };
    });
    const results = await run(ctx, frames.map((f) => gray(w, h, f.pixels)), markers({ dictionary: ['dict_4x4_50', dicts[1], 'DICT_5X5_100'] }));
    results.forEach((r, f) => {
      const want = detectMarkersCpu(frames[f].pixels, w, h, dicts);
      const got = r.markers!.found;
      expect(got.map((m) => `${m.dictionary} ${m.id}`), `frame ${f}`).toEqual(want.map((m) => `${m.dictionary} ${m.id}`));
      expect([...got.map((m) => `${m.dictionary} ${m.id}`)].sort(), `frame ${f}: every marker, in its own dictionary`).toEqual([...frames[f].truth].sort());
      for (const m of got) {
        const ref = want.find((x) => x.id === m.id && x.dictionary === m.dictionary)!;
        for (const e of cornerErrors(m.corners, ref.corners)) expect(e, `frame ${f} ${m.dictionary} ${m.id}`).toBeLessThan(0.01);
      }
    });
    // One dictionary alone finds only its own markers in the same frame.
    const alone = await run(ctx, [gray(w, h, frames[0].pixels)], markers({ dictionary: 'DICT_APRILTAG_36h11' }));
    expect(alone[0].markers!.found.map((m) => `${m.dictionary} ${m.id}`).sort()).toEqual(frames[0].truth.filter((t) => t.startsWith('DICT_APRILTAG_36H11')).sort());
  });

  it('reports a marker valid in two dictionaries once, in the first listed (DICT_4X4_50 is the start of DICT_4X4_1000)', async () => {
    const d = markerDictionary('DICT_4X4_50');
    const s = markerScene(2700, { width: 320, height: 200, markerSize: 4, bits: (id) => d.bits(id), ids: [4, 33], side: [50, 60], maxTilt: 20, blur: 0.5, noise: 2, clutter: 2 });
    const frame = gray(s.width, s.height, s.gray);
    const [a, b] = await Promise.all([
      run(ctx, [frame], markers({ dictionary: ['DICT_4X4_50', 'DICT_4X4_1000'] })),
      run(ctx, [frame], markers({ dictionary: ['DICT_4X4_1000', 'DICT_4X4_50'] })),
    ]);
    expect(sortById(a[0].markers!.found).map((m) => `${m.dictionary} ${m.id}`)).toEqual(['DICT_4X4_50 4', 'DICT_4X4_50 33']);
    expect(sortById(b[0].markers!.found).map((m) => `${m.dictionary} ${m.id}`)).toEqual(['DICT_4X4_1000 4', 'DICT_4X4_1000 33']);
    expect(b[0].markers!.found.map((m) => m.corners)).toEqual(a[0].markers!.found.map((m) => m.corners));
  });

  it('finds nothing in frames without markers', async () => {
    const d = markerDictionary('DICT_4X4_50');
    const scenes = Array.from({ length: 4 }, (_, f) => markerScene(2300 + f, { width: 400, height: 300, markerSize: 4, bits: (id) => d.bits(id), ids: [], side: [40, 80], maxTilt: 0, blur: f % 2, noise: 3, clutter: 14 }));
    const results = await run(ctx, scenes.map((s) => gray(s.width, s.height, s.gray)), markers({ dictionary: 'dict_4x4_50' }));
    for (const r of results) expect(r.markers!.found).toEqual([]);
  });

  it('finds nothing, and fails nothing, on frames too small for a marker (1×1, 3×5, 17×1, 1×9, 9×9)', async () => {
    const sizes: [number, number][] = [[1, 1], [3, 5], [17, 1], [1, 9], [9, 9]];
    const results = await run(ctx, sizes.map(([w, h]) => gray(w, h, new Uint8Array(w * h).map((_, i) => (i * 37) % 256))), markers({ dictionary: 'DICT_4X4_50' }));
    expect(results.map((r) => [r.width, r.height, r.markers!.found.length, r.markers!.candidates])).toEqual(sizes.map(([w, h]) => [w, h, 0, 0]));
  });

  it('refuses, on the stream, a frame whose component table would pass the device\'s storage binding limit', async () => {
    const limit = ctx.limits.maxStorageBufferBindingSize;
    // 24 bytes a pixel (six words per root pixel): the smallest square frame over the limit.
    const side = Math.ceil(Math.sqrt(limit / 24 + 1));
    expect(side * side, 'a frame this device accepts that passes the limit (lavapipe: 128 MiB bindings)').toBeLessThanOrEqual(ctx.maxFramePixels);
    await expect(run(ctx, [gray(side, side, new Uint8Array(side * side))], markers({ dictionary: 'DICT_4X4_50' }))).rejects.toThrow(/storage binding limit/);
  });

  it('refuses bad options', () => {
    expect(() => markers({ dictionary: 'DICT_9X9_1' })).toThrow(InvalidOptionError);
    expect(() => markers({ dictionary: 'DICT_4X4_50', windows: [4] })).toThrow(InvalidOptionError);
    expect(() => markers({ dictionary: 'DICT_4X4_50', windows: [] })).toThrow(InvalidOptionError);
    expect(() => markers({ dictionary: 'DICT_4X4_50', correctionRate: 2 })).toThrow(InvalidOptionError);
    expect(() => markers({ dictionary: 'DICT_4X4_50', maxCandidates: 0 })).toThrow(InvalidOptionError);
    expect(() => markers(undefined as never)).toThrow(InvalidOptionError);
    expect(() => markers({ dictionary: [] })).toThrow(/at least one dictionary/);
    expect(() => markers({ dictionary: ['DICT_4X4_50', 'dict_4x4_50'] })).toThrow(/DICT_4X4_50 is listed twice/);
    expect(() => markers({ dictionary: ['DICT_4X4_50', 'DICT_4X4_51'] })).toThrow(/unknown marker dictionary "DICT_4X4_51"/);
    expect(() => markers({ dictionary: ['DICT_4X4_50', 7 as never] })).toThrow(InvalidOptionError);
  });
});
