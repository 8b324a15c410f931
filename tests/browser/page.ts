// Runs in headless Chromium (bundled by tests/browser/chromium.test.ts): the threshold → label pipeline, the
// one-labeling features path, morphology(), background(), markers() and dots() on WebGPU (SwiftShader there), checked against the CPU
// references inside the page, and the tracker's placeByGray (which runs in a page as in Node). Returns a summary for the test.
import { lastValueFrom, toArray, map } from 'rxjs';
import { GpuContext, dots, features, fromPixels, label, labelAlgorithms, markerDictionary, markers, morphology, morphologySteps, background, backgroundSettings, readResults, threshold, type GpuFrame, type MorphologyOptions, type PixelImage } from '../../index.js';
import { withRead } from '../../extend.js';
import { morphologyCpu } from '../../src/reference/morphologyCpu.js';
import { BackgroundModelCpu } from '../../src/reference/backgroundCpu.js';
import { dotsCpu } from '../../src/reference/dotsCpu.js';
import { dotScene } from '../../src/eval/dotScene.js';
import { detectMarkersCpu } from '../../src/reference/detectMarkersCpu.js';
import { markerScene } from '../../src/eval/markerScene.js';
import { featuresCpu } from '../../src/reference/featuresCpu.js';
import { labelCpu } from '../../src/reference/labelCpu.js';
import { otsuLevel, thresholdAdaptive } from '../../src/reference/thresholdCpu.js';
import { grayFromRgba } from '../../src/image/grayFromRgba.js';
import { rng } from '../../src/eval/images.js';
import { labelCorpus } from '../../src/eval/corpus.js';
import { darkStopsInLight } from '../support/placeScene.js';

export interface BrowserSummary {
  adapter: string;
  fallback: boolean;
  subgroups: boolean;
  labelChecks: number;
  featureChecks: number;
  thresholdChecks: number;
  /** Markers found by markers() and compared with the CPU reference's. */
  markerChecks: number;
  /** Dots found by dots() and compared with the CPU reference's. */
  dotChecks: number;
  /** Masks cleaned by morphology() and compared with the CPU reference's. */
  morphologyChecks: number;
  /** Frames of background() compared with the CPU reference of the model. */
  backgroundChecks: number;
  failures: string[];
  inUseAfter: number;
}

async function runFlowmarkTests(): Promise<BrowserSummary> {
  const ctx = await GpuContext.create({ label: 'browser-test' });
  const failures: string[] = [];
  let labelChecks = 0;
  let thresholdChecks = 0;
  let featureChecks = 0;
  // The whole corpus minus the largest frames, which SwiftShader takes long over.
  const corpus = labelCorpus().filter((c) => c.width * c.height <= 320 * 240);
  for (const algorithm of labelAlgorithms) for (const connectivity of [8, 4] as const) {
    const results = await lastValueFrom(
      fromPixels(ctx, corpus.map((c): PixelImage => ({ width: c.width, height: c.height, format: 'gray', data: c.data }))).pipe(
        threshold(),
        label({ algorithm, connectivity, passes: 'until-converged', readLabels: true }),
        readResults(),
        toArray(),
      ),
    );
    corpus.forEach((c, i) => {
      const ref = labelCpu(c.data, c.width, c.height, connectivity);
      const got = results[i].labels!;
      labelChecks++;
      if (results[i].labeling!.count !== ref.count) failures.push(`${algorithm} ${c.name} (${connectivity}): count ${results[i].labeling!.count} != ${ref.count}`);
      else if (got.some((v, p) => v !== ref.labels[p])) failures.push(`${algorithm} ${c.name} (${connectivity}): labels differ`);
    });
  }
  // Features straight from the mask (C2FL tiles accumulating parts), with gray values varying inside components; with
  // 8-connectivity their spatial histograms too (counts and each bin's mean place, exact).
  for (const connectivity of [8, 4] as const) {
    const histogram = connectivity === 8 ? ('spatial' as const) : false;
    const grays = corpus.map((c, i) => Uint8Array.from(c.data, (m, p) => (m ? 96 + ((p * 7 + i) % 160) : (p * 13 + i) % 96)));
    const results = await lastValueFrom(
      fromPixels(ctx, corpus.map((c, i): PixelImage => ({ width: c.width, height: c.height, format: 'gray', data: grays[i] }))).pipe(
        threshold({ level: 95 }),
        features({ connectivity, maxResults: 1 << 16, histogram }),
        readResults(),
        toArray(),
      ),
    );
    corpus.forEach((c, i) => {
      const want = featuresCpu(labelCpu(c.data, c.width, c.height, connectivity).labels, grays[i], c.width, c.height, { histogram });
      const got = results[i].features!;
      featureChecks++;
      const bad = (['label', 'area', 'x0', 'y0', 'x1', 'y1', 'perimeter', 'minGray', 'maxGray'] as const).find((k) => got[k].length !== want[k].length || got[k].some((v, j) => v !== want[k][j]));
      const badSum = (['cx', 'cy', 'mu20', 'mu02', 'mu11', 'meanGray'] as const).find((k) => got[k].some((v, j) => Math.abs(v - want[k][j]) > 1e-9 * Math.max(1, Math.abs(want[k][j]))));
      const badHist = histogram ? (['histogram', 'histogramX', 'histogramY'] as const).find((k) => got[k]?.length !== want[k]!.length || want[k]!.some((v, j) => !Object.is(v, got[k]![j]))) : got.histogram ? 'histogram' : undefined;
      if (got.count !== want.count || bad || badSum || badHist) failures.push(`features ${c.name} (${connectivity}): count ${got.count} vs ${want.count}${bad ? `, ${bad} differs` : ''}${badSum ? `, ${badSum} differs` : ''}${badHist ? `, ${badHist} differs` : ''}`);
    });
  }
  // The tracker with placeByGray (CPU only, as in Node): a dark object stopped in a light one's blob is placed where
  // its grays are (tests/unit/track/placeMembers.test.ts has the same scene).
  const dark = darkStopsInLight(true).find((t) => t.id === 1);
  if (!dark || Math.abs(dark.cx - 133.5) >= 3) failures.push(`placeByGray: the dark object's track at x ${dark?.cx}, not 133.5`);
  // Threshold from RGBA: Otsu and adaptive, on a noisy gradient with dark discs; morphology on the adaptive mask.
  let morphologyChecks = 0;
  const r = rng(77);
  for (const [w, h] of [[97, 61], [160, 120], [5, 3]]) {
    const rgba = new Uint8Array(w * h * 4);
    for (let p = 0; p < w * h; p++) {
      const x = p % w;
      const y = Math.floor(p / w);
      let v = 60 + (150 * x) / w + (r() - 0.5) * 40;
      if ((x - w / 3) ** 2 + (y - h / 2) ** 2 < (h / 5) ** 2) v *= 0.3;
      rgba.set([v * 1.1, v, v * 0.9, 255].map((c) => Math.max(0, Math.min(255, c))), 4 * p);
    }
    const g = grayFromRgba(rgba, w * h);
    const readMask = map((f: GpuFrame) =>
      withRead(f, { key: 'mask' as 'labels', buffer: f.mask!, offset: 0, size: Math.ceil((w * h) / 4) * 4, decode: (b) => new Uint8Array(b, 0, w * h) as unknown as Uint32Array }),
    );
    const img: PixelImage = { width: w, height: h, format: 'rgba', data: rgba };
    const [otsu] = await lastValueFrom(fromPixels(ctx, [img]).pipe(threshold({ method: 'otsu' }), readResults(), toArray()));
    thresholdChecks++;
    if (otsu.threshold!.level !== otsuLevel(g)) failures.push(`otsu ${w}x${h}: level ${otsu.threshold!.level} != ${otsuLevel(g)}`);
    const [adaptive] = await lastValueFrom(
      fromPixels(ctx, [img]).pipe(threshold({ method: 'adaptive', window: 15, offset: 5, invert: true }), readMask, readResults(), toArray()),
    );
    thresholdChecks++;
    const want = thresholdAdaptive(g, w, h, 15, 5, true);
    const mask = (adaptive as unknown as { mask: Uint8Array }).mask;
    if (mask.some((v, p) => v !== want[p])) failures.push(`adaptive ${w}x${h}: mask differs`);
    // Morphology on that mask: an opening and a closing, a rectangle and a disk.
    const options: MorphologyOptions = { open: { size: [5, 3] }, close: { shape: 'disk', size: 7 } };
    const [cleaned] = await lastValueFrom(
      fromPixels(ctx, [img]).pipe(threshold({ method: 'adaptive', window: 15, offset: 5, invert: true }), morphology(options), readMask, readResults(), toArray()),
    );
    morphologyChecks++;
    const wantClean = morphologyCpu(want, w, h, morphologySteps(options));
    if ((cleaned as unknown as { mask: Uint8Array }).mask.some((v, p) => v !== wantClean[p])) failures.push(`morphology ${w}x${h}: mask differs`);
  }
  // Background model: a noisy textured scene with a moving box and its shadow, frame by frame against the reference.
  let backgroundChecks = 0;
  {
    const [w, h] = [64, 48];
    const rb = rng(5);
    const frames: PixelImage[] = Array.from({ length: 24 }, (_, t) => {
      const data = new Uint8Array(w * h);
      for (let p = 0; p < w * h; p++) {
        const x = p % w;
        const y = Math.floor(p / w);
        let v = 80 + 40 * Math.sin(x / 5) * Math.cos(y / 4);
        const bx = 3 * t;
        if (y >= 24 && y < 30 && x >= bx + 8 && x < bx + 16) v *= 0.6;
        if (y >= 16 && y < 24 && x >= bx && x < bx + 8) v = 230;
        data[p] = Math.max(0, Math.min(255, Math.round(v + (rb() - 0.5) * 10)));
      }
      return { width: w, height: h, format: 'gray', data };
    });
    const readPlane = (key: 'mask' | 'shadow') =>
      map((f: GpuFrame) => withRead(f, { key: key as 'labels', buffer: f[key]!, offset: 0, size: (w * h) / 4 * 4, decode: (b) => new Uint8Array(b, 0, w * h) as unknown as Uint32Array }));
    const got = await lastValueFrom(fromPixels(ctx, frames).pipe(background(), readPlane('mask'), readPlane('shadow'), readResults(), toArray()));
    const model = new BackgroundModelCpu(backgroundSettings(), w, h);
    frames.forEach((img, i) => {
      const want = model.apply(img.data);
      const r = got[i] as unknown as { mask: Uint8Array; shadow: Uint8Array };
      let differ = 0;
      for (let p = 0; p < w * h; p++) if (r.mask[p] !== want.mask[p] || r.shadow[p] !== want.shadow[p]) differ++;
      // As the Node tests: at most 0.2 % of a frame's pixels (a last bit of a division can differ between devices).
      if (differ > 0.002 * w * h) failures.push(`background frame ${i}: ${differ} pixels differ`);
      backgroundChecks++;
    });
  }
  // Markers: the same IDs as the CPU reference, corners within float rounding of its.
  let markerChecks = 0;
  const dict = markerDictionary('DICT_4X4_50');
  const scenes = [0, 1].map((f) => markerScene(3100 + f, { width: 320, height: 240, markerSize: 4, bits: (id) => dict.bits(id), ids: [f + 3, f + 12, f + 30], side: [30, 70], maxTilt: 40, blur: 0.5 * f, noise: 2, clutter: 4 }));
  const found = await lastValueFrom(fromPixels(ctx, scenes.map((s): PixelImage => ({ width: s.width, height: s.height, format: 'gray', data: s.gray }))).pipe(markers({ dictionary: dict }), readResults(), toArray()));
  scenes.forEach((s, i) => {
    const want = detectMarkersCpu(s.gray, s.width, s.height, dict);
    const got = found[i].markers!.found;
    if (got.map((m) => m.id).join() !== want.map((m) => m.id).join()) failures.push(`markers scene ${i}: ids ${got.map((m) => m.id)} != ${want.map((m) => m.id)}`);
    got.forEach((m, k) => {
      const far = m.corners.some((c, j) => Math.hypot(c[0] - want[k].corners[j][0], c[1] - want[k].corners[j][1]) > 0.01);
      if (want[k] && far) failures.push(`markers scene ${i} id ${m.id}: corners differ from the reference`);
      markerChecks++;
    });
  });
  // Dots: the same round blobs as the CPU reference, centres within float rounding of its.
  let dotChecks = 0;
  const blobs = dotScene(44, 200, 160, 4, 3);
  const [withDots] = await lastValueFrom(
    fromPixels(ctx, [{ width: blobs.width, height: blobs.height, format: 'gray', data: blobs.data }]).pipe(threshold({ level: 90 }), label({ algorithm: 'c2fl', readLabels: true }), features({ minArea: 12, dropBorder: true, maxResults: 64 }), dots(), readResults(), toArray()),
  );
  const wantDots = dotsCpu(blobs.data, withDots.labels!, blobs.width, blobs.height, withDots.features!);
  if (withDots.dots!.map((d) => d.label).join() !== wantDots.map((d) => d.label).join()) failures.push(`dots: labels ${withDots.dots!.map((d) => d.label)} != ${wantDots.map((d) => d.label)}`);
  withDots.dots!.forEach((d, k) => {
    if (wantDots[k] && Math.abs(d.x - wantDots[k].x) + Math.abs(d.y - wantDots[k].y) > 1e-3) failures.push(`dot ${d.label}: centre differs from the reference`);
    dotChecks++;
  });
  const summary = {
    adapter: ctx.adapterName,
    fallback: ctx.isFallbackAdapter,
    subgroups: ctx.features.subgroups,
    labelChecks,
    featureChecks,
    thresholdChecks,
    markerChecks,
    dotChecks,
    morphologyChecks,
    backgroundChecks,
    failures,
    inUseAfter: ctx.pool.stats().inUse,
  };
  ctx.destroy();
  return summary;
}

(globalThis as unknown as { runFlowmarkTests: typeof runFlowmarkTests }).runFlowmarkTests = runFlowmarkTests;
