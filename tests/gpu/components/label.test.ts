import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { map } from 'rxjs';
import { autoAlgorithm, label, labelAlgorithms, threshold, InvalidFrameError, InvalidOptionError, type GpuContext } from '../../../index.js';
import { labelWith } from '../../../nodes/components/label.js';
import { randomBlocks, zigzagSpiral } from '../../../src/eval/images.js';
import { labelCpu } from '../../../src/reference/labelCpu.js';
import { firstDiff, gray, run, testContext } from '../../support/gpu.js';
import { labelCorpus } from '../../../src/eval/corpus.js';

let ctx: GpuContext;
beforeAll(async () => {
  ctx = await testContext();
});
afterAll(() => ctx?.destroy());

const corpus = labelCorpus();

describe('label', () => {
  it('has over 100 seeded images in the corpus', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(100);
  });

  for (const algorithm of labelAlgorithms) {
    for (const connectivity of [8, 4] as const) {
      it(`${algorithm} equals the CPU reference exactly on the corpus, ${connectivity}-connectivity`, async () => {
        const results = await run(
          ctx,
          corpus.map((c) => gray(c.width, c.height, c.data)),
          threshold(),
          label({ algorithm, connectivity, passes: 'until-converged', readLabels: true }),
        );
        expect(results).toHaveLength(corpus.length);
        corpus.forEach((c, i) => {
          const ref = labelCpu(c.data, c.width, c.height, connectivity);
          const r = results[i];
          expect(r.seq, c.name).toBe(i);
          expect(r.labeling?.converged, c.name).toBe(true);
          expect(r.labeling?.count, c.name).toBe(ref.count);
          const at = firstDiff(r.labels!, ref.labels);
          expect(at, `${c.name}: first differing pixel`).toBe(-1);
        });
      });
    }
  }

  it('reports converged: false when a spiral needs more passes than it was given, and runs exactly that many', async () => {
    // The zigzag spiral crosses every tile border of its frame: the first pass always joins tiles' parts, so it
    // changes something and one pass is never enough; how many more a frame needs depends on timing (the passes
    // are asynchronous), so the exact run checks only that it needed more than one.
    const n = 201;
    const img = zigzagSpiral(n);
    const [fixed1, exact] = await Promise.all([
      run(ctx, [gray(n, n, img)], threshold(), label({ passes: 1, readLabels: true })),
      run(ctx, [gray(n, n, img)], threshold(), label({ passes: 'until-converged', readLabels: true })),
    ]);
    expect(fixed1[0].labeling).toMatchObject({ converged: false, passes: 1 });
    const ref = labelCpu(img, n, n, 8);
    expect(ref.count).toBe(1);
    // One pass joins the tiles only in part: the labels are not yet the reference's.
    expect(firstDiff(fixed1[0].labels!, ref.labels)).toBeGreaterThanOrEqual(0);
    expect(exact[0].labeling).toMatchObject({ converged: true, count: 1 });
    expect(exact[0].labeling!.passes).toBeGreaterThan(1);
    expect(firstDiff(exact[0].labels!, ref.labels)).toBe(-1);
  });

  it('until-converged resumes batch after batch (first batches of one pass) and stays exact', async () => {
    const imgs = corpus.filter((_, i) => i % 4 === 0);
    const results = await run(
      ctx,
      imgs.map((c) => gray(c.width, c.height, c.data)),
      threshold(),
      labelWith({ algorithm: 'shibata', passes: 'until-converged', readLabels: true }, { split: false, repeat: 1, firstBatch: 1 }),
    );
    let resumed = 0;
    imgs.forEach((c, i) => {
      expect(results[i].labeling!.converged, c.name).toBe(true);
      expect(firstDiff(results[i].labels!, labelCpu(c.data, c.width, c.height, 8).labels), c.name).toBe(-1);
      if (results[i].labeling!.passes > 1) resumed++;
    });
    expect(resumed).toBeGreaterThan(5); // frames that took a second batch or more
  });

  it('stops early on the GPU once converged, within a fixed pass budget', async () => {
    const img = new Uint8Array(50 * 40).fill(255);
    const [r] = await run(ctx, [gray(50, 40, img)], threshold(), label({ passes: 64 }));
    expect(r.labeling!.converged).toBe(true);
    expect(r.labeling!.passes).toBeLessThan(64);
    expect(r.labeling!.count).toBe(1);
  });

  it('gives raw root indices when canonical labels are not asked for', async () => {
    const w = 9;
    const h = 4;
    const img = new Uint8Array(w * h);
    img[2] = img[3] = img[w + 3] = 255; // one component rooted at pixel 2
    img[3 * w + 8] = 255; // one rooted at its own index
    const [r] = await run(ctx, [gray(w, h, img)], threshold(), label({ canonical: false, passes: 'until-converged', readLabels: true }));
    const bg = 0xffffffff;
    expect(Array.from(r.labels!)).toEqual(Array.from(img, (v, p) => (v ? (p === 3 * w + 8 ? p : 2) : bg)));
  });

  it('gives the same labels when the kernels are repeated for benchmarking (the internal analysis entry)', async () => {
    const imgs = corpus.filter((c) => c.width * c.height > 5000).slice(0, 6);
    for (const algorithm of labelAlgorithms) {
      const results = await run(
        ctx,
        imgs.map((c) => gray(c.width, c.height, c.data)),
        threshold(),
        labelWith({ algorithm, passes: algorithm === 'shibata' ? 64 : undefined, readLabels: true }, { split: false, repeat: 3 }),
      );
      imgs.forEach((c, i) => expect(firstDiff(results[i].labels!, labelCpu(c.data, c.width, c.height, 8).labels), `${algorithm} ${c.name}`).toBe(-1));
    }
    expect(() => labelWith({ passes: 'until-converged' }, { split: false, repeat: 2 })).toThrow(/repeat/);
  });

  it('labels a 4096×4096 frame exactly (c2fl and union-find)', async () => {
    const n = 4096;
    const img = randomBlocks(n, n, 0.45, 1, 4096);
    const ref = labelCpu(img, n, n, 8);
    for (const algorithm of ['c2fl', 'union-find'] as const) {
      const [r] = await run(ctx, [gray(n, n, img)], threshold(), label({ algorithm, readLabels: true }));
      expect(r.labeling!.count).toBe(ref.count);
      expect(firstDiff(r.labels!, ref.labels), algorithm).toBe(-1);
    }
  });

  it('ha4 finds the same segments from byte reads as from subgroup ballots', async () => {
    const imgs = corpus.filter((_, i) => i % 3 === 0);
    for (const ha4Segments of ['bits', 'ballot'] as const) {
      const results = await run(ctx, imgs.map((c) => gray(c.width, c.height, c.data)), threshold(), label({ algorithm: 'ha4', ha4Segments, readLabels: true }));
      imgs.forEach((c, i) => expect(firstDiff(results[i].labels!, labelCpu(c.data, c.width, c.height, 8).labels), `${ha4Segments} ${c.name}`).toBe(-1));
    }
    expect(() => label({ ha4Segments: 'votes' as 'bits' })).toThrow(/ha4Segments/);
  });

  it("'auto' runs the algorithm the benchmark chose, timed by its pass name on a timed context", async () => {
    const c = corpus[40];
    const timed = await testContext({ profile: true });
    try {
      const [r] = await run(timed, [gray(c.width, c.height, c.data)], threshold(), label({ algorithm: 'auto', readLabels: true }), map((f) => {
        expect(f.labeling?.algorithm).toBe(autoAlgorithm());
        return f;
      }));
      expect(firstDiff(r.labels!, labelCpu(c.data, c.width, c.height, 8).labels)).toBe(-1);
      expect(timed.features.timestamps).toBe(true);
      expect(r.timings.some((t) => t.name === `label:${autoAlgorithm()}`)).toBe(true);
    } finally {
      timed.destroy();
    }
    // Untimed by default: no timestamps asked for, none reported, the same labels.
    const [u] = await run(ctx, [gray(c.width, c.height, c.data)], threshold(), label({ algorithm: 'auto', readLabels: true }));
    expect(ctx.features.timestamps).toBe(false);
    expect(u.timings).toEqual([]);
    expect(firstDiff(u.labels!, labelCpu(c.data, c.width, c.height, 8).labels)).toBe(-1);
  });

  it('errors the stream with InvalidFrameError for a frame without a mask', async () => {
    await expect(run(ctx, [gray(4, 4, new Uint8Array(16))], label())).rejects.toThrow(InvalidFrameError);
  });

  it('rejects bad options synchronously', () => {
    expect(() => label({ connectivity: 6 as 4 })).toThrow(InvalidOptionError);
    expect(() => label({ passes: 0 })).toThrow(/passes/);
    expect(() => label({ algorithm: 'nope' as 'shibata' })).toThrow(/algorithm/);
  });
});
