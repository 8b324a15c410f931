// background() on the GPU against the CPU reference of the same model (MOG2 in f32 steps), over synthetic
// fixed-camera sequences: textured background, sensor noise, moving objects with cast shadows, a lighting ramp;
// then what the masks mean (objects found, background quiet, shadows apart), options, size changes, bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastValueFrom, toArray } from 'rxjs';
import { background, backgroundSettings, features, fromPixels, medianImage, morphology, readResults, InvalidFrameError, InvalidOptionError, type BackgroundOptions, type GpuContext, type PixelImage } from '../../../index.js';
import { BackgroundModelCpu } from '../../../src/reference/backgroundCpu.js';
import { rng } from '../../../src/eval/images.js';
import { gray, maskOf, readBytes, run, shadowOf, testContext } from '../../support/gpu.js';

let ctx: GpuContext;
beforeAll(async () => {
  ctx = await testContext();
});
afterAll(() => ctx?.destroy());

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * A fixed camera: a textured background, Gaussian-ish noise, a bright box moving right and a dark one moving
 * down, the bright box casting a shadow (the background at 0.7) beside it, light rising `ramp` per frame, and the
 * whole scene's brightness times `gainAt(frame)` (exposure). With `color`, RGBA frames: the background tinted
 * per pixel, the bright box warm white, the dark one `dark` (an RGB color), each channel with its own noise.
 */
function sequence(w: number, h: number, frames: number, seed: number, ramp = 0, gainAt = (_t: number) => 1, color: { dark: [number, number, number] } | null = null): { images: PixelImage[]; boxes: Box[][]; shadows: Box[] } {
  const r = rng(seed);
  const texture = Float64Array.from({ length: w * h }, (_, p) => 70 + 60 * Math.sin((p % w) / 7) * Math.cos(Math.floor(p / w) / 5) + 20 * r());
  const tint = color ? Array.from({ length: w * h }, (_, p) => [1.1 - 0.15 * Math.sin((p % w) / 11), 1, 0.85 + 0.15 * Math.cos(Math.floor(p / w) / 9)]) : [];
  const images: PixelImage[] = [];
  const boxes: Box[][] = [];
  const shadows: Box[] = [];
  for (let t = 0; t < frames; t++) {
    // Each object covers a pixel for at most about five frames: longer, and the model (learning at 1/(2·frame) in
    // the first frames, as OpenCV's) would start taking it for background.
    const a: Box = { x: Math.round(2 + t * 4) % w, y: Math.round(h / 4), w: Math.max(2, Math.round(w / 8)), h: Math.max(2, Math.round(h / 6)) };
    const b: Box = { x: Math.round(w / 2), y: Math.round(1 + t * 3) % h, w: Math.max(2, Math.round(w / 10)), h: Math.max(2, Math.round(h / 8)) };
    const s: Box = { x: a.x + a.w, y: a.y + a.h, w: a.w, h: Math.max(1, Math.round(a.h / 2)) };
    // Objects enter after eight frames of background alone (where an object stood in the first frames, the model
    // keeps a mode of it that can later pass for background: a ghost, in OpenCV's MOG2 as here).
    const inside = (q: Box, x: number, y: number) => t >= 8 && x >= q.x && x < q.x + q.w && y >= q.y && y < q.y + q.h;
    const data = new Uint8Array(w * h * (color ? 4 : 1));
    const byte = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let v = texture[y * w + x] + ramp * t;
        if (inside(s, x, y)) v *= 0.7;
        if (!color) {
          if (inside(a, x, y)) v = 230;
          if (inside(b, x, y)) v = 15;
          v = v * gainAt(t) + (r() + r() + r() - 1.5) * 4;
          data[y * w + x] = byte(v);
          continue;
        }
        const c = inside(a, x, y) ? [235, 225, 200] : inside(b, x, y) ? color.dark : tint[y * w + x].map((k) => k * v);
        for (let ch = 0; ch < 3; ch++) data[4 * (y * w + x) + ch] = byte(c[ch] * gainAt(t) + (r() + r() + r() - 1.5) * 4);
        data[4 * (y * w + x) + 3] = 255;
      }
    }
    images.push(color ? { width: w, height: h, format: 'rgba', data, timeUs: t * 33_333 } : gray(w, h, data, t * 33_333));
    boxes.push(t >= 8 ? [a, b] : []);
    shadows.push(s);
  }
  return { images, boxes, shadows };
}

/**
 * RGBA pixels with their color as a video stores it (4:2:0): luma (Rec. 601) kept per pixel, the color differences
 * (B − Y, R − Y) averaged over 2×2 pixels and interpolated back bilinearly, as decoders do.
 */
function halfResolutionColor(rgba: ArrayLike<number>, w: number, h: number): Uint8Array {
  const [hw, hh] = [Math.ceil(w / 2), Math.ceil(h / 2)];
  const luma = (p: number) => 0.299 * rgba[4 * p] + 0.587 * rgba[4 * p + 1] + 0.114 * rgba[4 * p + 2];
  const cb = new Float64Array(hw * hh);
  const cr = new Float64Array(hw * hh);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const q = (y >> 1) * hw + (x >> 1);
      cb[q] += (rgba[4 * p + 2] - luma(p)) / 4;
      cr[q] += (rgba[4 * p] - luma(p)) / 4;
    }
  }
  const at = (plane: Float64Array, x: number, y: number) => {
    const [sx, sy] = [Math.min(hw - 1, Math.max(0, (x + 0.5) / 2 - 0.5)), Math.min(hh - 1, Math.max(0, (y + 0.5) / 2 - 0.5))];
    const [x0, y0] = [Math.floor(sx), Math.floor(sy)];
    const [x1, y1] = [Math.min(hw - 1, x0 + 1), Math.min(hh - 1, y0 + 1)];
    const [fx, fy] = [sx - x0, sy - y0];
    const top = plane[y0 * hw + x0] * (1 - fx) + plane[y0 * hw + x1] * fx;
    const bottom = plane[y1 * hw + x0] * (1 - fx) + plane[y1 * hw + x1] * fx;
    return top * (1 - fy) + bottom * fy;
  };
  const out = new Uint8Array(rgba.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const Y = luma(p);
      const [r, b] = [Y + at(cr, x, y), Y + at(cb, x, y)];
      const g = (Y - 0.299 * r - 0.114 * b) / 0.587;
      out.set([r, g, b].map((v) => Math.max(0, Math.min(255, Math.round(v)))), 4 * p);
      out[4 * p + 3] = 255;
    }
  }
  return out;
}

/** Runs the GPU model and the CPU reference over `images`; per frame, the pixels whose mask or shadow differ. */
async function compare(images: PixelImage[], options: BackgroundOptions) {
  const results = await run(ctx, images, background(options), readBytes('mask'), readBytes('shadow'));
  const cpu = new BackgroundModelCpu(backgroundSettings(options), images[0].width, images[0].height);
  return images.map((img, i) => {
    const want = cpu.apply(img.data);
    const got = { mask: maskOf(results[i]), shadow: shadowOf(results[i]) };
    let differ = 0;
    for (let p = 0; p < want.mask.length; p++) if (got.mask[p] !== want.mask[p] || got.shadow[p] !== want.shadow[p]) differ++;
    return { differ, pixels: want.mask.length, got, want };
  });
}

/** Fraction of a box's pixels set in a mask. */
function cover(m: Uint8Array, w: number, h: number, q: Box): number {
  let n = 0;
  let set = 0;
  for (let y = q.y; y < Math.min(h, q.y + q.h); y++) for (let x = q.x; x < Math.min(w, q.x + q.w); x++, n++) if (m[y * w + x]) set++;
  return n ? set / n : 0;
}

// The GPU computes in f32 as the reference does, but the last bit of a division may differ between devices and a
// pixel near a decision can go the other way and stay there: at most 0.2 % of the pixels of any frame may differ.
const tolerance = 0.002;

describe('background', () => {
  const cases: [string, number, number, BackgroundOptions, number][] = [
    ['defaults', 97, 61, {}, 0],
    ['a lighting ramp, 3 mixtures, fixed learning rate, no shadows', 160, 120, { mixtures: 3, learningRate: 0.02, detectShadows: false }, 0.6],
    ['short history, one mixture', 33, 9, { history: 20, mixtures: 1 }, 0],
    ['foreground learning at a tenth of the rate', 64, 48, { foregroundLearning: 0.1 }, 0],
    ['lighting compensated through a ramp and steps', 83, 57, { compensateLighting: true }, 0.4],
    ['a fixed rate after a warmup of 25 frames, foreground learning at half the rate', 71, 40, { learningRate: 0.002, warmup: 25, foregroundLearning: 0.5 }, 0],
  ];
  // Exposure steps at frames 20 and 30 (brighter, then darker than at first), for every case.
  const exposure = (t: number) => (t < 20 ? 1 : t < 30 ? 1.3 : 0.85);
  // In color, the dark box is dark blue: on gray its luma would be a darker copy of parts of the scene.
  const blue = { dark: [40, 60, 120] as [number, number, number] };
  cases.push(['color', 90, 50, { color: true }, 0], ['color, lighting compensated through a ramp and steps, 3 mixtures', 75, 64, { color: true, compensateLighting: true, mixtures: 3 }, 0.4]);
  cases.push(["color for shadows only ('shadows'), lighting compensated", 70, 46, { color: 'shadows', compensateLighting: true }, 0.4]);
  for (const [name, w, h, options, ramp] of cases) {
    it(`equals the CPU reference of the model within ${tolerance * 100} % of the pixels: ${name}`, async () => {
      const { images } = sequence(w, h, 40, 5 + w, ramp, exposure, options.color ? blue : null);
      const frames = await compare(images, options);
      frames.forEach((fr, i) => expect(fr.differ / fr.pixels, `frame ${i}`).toBeLessThanOrEqual(tolerance));
      // Nothing of the first frame is background (nothing learnt yet): foreground, or with shadows on, all shadow
      // (each pixel is its own only mode, a "darker copy" at ratio 1), as OpenCV's first mask is.
      const shadows = options.detectShadows ?? true;
      expect(frames[0].got.mask.every((v) => v === (shadows ? 0 : 255)), 'first mask').toBe(true);
      expect(frames[0].got.shadow.every((v) => v === (shadows ? 255 : 0)), 'first shadow').toBe(true);
    });
  }

  // A model started from a prime: the median of the eight frames before the objects enter; the stream starts with
  // the objects in view. Gray, RGBA frames on a gray model (the prime taken as its gray), color and 'shadows'.
  const primed: [string, number, number, BackgroundOptions, boolean][] = [
    // (At OpenCV's rate for a second frame, 1/4, the first frame's own new modes weigh enough to pass for shadow.)
    ['gray, the rate from history (the stream counting from the second frame), no shadows', 81, 47, { detectShadows: false }, false],
    ['gray, a fixed rate, foreground learning at half of it, lighting compensated', 66, 52, { learningRate: 0.002, foregroundLearning: 0.5, compensateLighting: true }, false],
    ['color', 70, 45, { color: true, learningRate: 0.002 }, true],
    ["color for shadows only ('shadows'), lighting compensated", 62, 50, { color: 'shadows', compensateLighting: true, learningRate: 0.002 }, true],
  ];
  for (const [name, w, h, options, color] of primed) {
    it(`starts from a prime as the CPU reference does, within ${tolerance * 100} % of the pixels, and finds what stands in the first frame: ${name}`, async () => {
      const { images, boxes } = sequence(w, h, 36, 3 + w, 0, () => 1, color ? blue : null);
      const prime = medianImage(images.slice(0, 8));
      const frames = await compare(images.slice(8), { ...options, prime });
      frames.forEach((fr, i) => expect(fr.differ / fr.pixels, `frame ${i}`).toBeLessThanOrEqual(tolerance));
      // The first frame is compared with the scene: its objects found (not background) as well as by a model that saw
      // the empty scene's eight frames first (the dark box, on gray, is as dark as parts of the scene), the scene away
      // from them quiet.
      const found = (m: { mask: Uint8Array; shadow: Uint8Array }) => m.mask.map((v, p) => v | m.shadow[p]);
      const learnt = new BackgroundModelCpu(backgroundSettings(options), w, h);
      images.slice(0, 8).forEach((img) => learnt.apply(img.data));
      const byLearnt = found(learnt.apply(images[8].data));
      for (const q of boxes[8]) {
        expect(cover(found(frames[0].got), w, h, q), `object at ${q.x},${q.y}`).toBeGreaterThanOrEqual(Math.min(0.95, cover(byLearnt, w, h, q) - 0.02));
        expect(cover(found(frames[0].got), w, h, q), `object at ${q.x},${q.y}`).toBeGreaterThan(0.6);
      }
      expect(cover(frames[0].got.mask, w, h, { x: 0, y: h - 8, w: Math.round(w / 3), h: 8 }), 'background').toBeLessThan(0.02);
    });
  }

  it('finds the moving objects, keeps the background quiet and tells the cast shadow apart', async () => {
    const w = 160;
    const h = 120;
    const { images, boxes, shadows } = sequence(w, h, 60, 9);
    // A fixed, slow learning rate: with OpenCV's default 1/(2·frame) the first seconds learn fast enough to take in
    // part of an object that covers a pixel for five frames (a fifth of the box at frame 24 here).
    const results = await run(ctx, images, background({ learningRate: 0.005 }), readBytes('mask'), readBytes('shadow'));
    for (const i of [24, 28, 32]) {
      const m = maskOf(results[i]);
      for (const q of boxes[i]) expect(cover(m, w, h, q), `frame ${i} object at ${q.x},${q.y}`).toBeGreaterThan(0.9);
      expect(cover(shadowOf(results[i]), w, h, shadows[i]), `frame ${i} shadow`).toBeGreaterThan(0.8);
      expect(cover(m, w, h, shadows[i]), `frame ${i} shadow as foreground`).toBeLessThan(0.1);
      // Far from both objects' paths and the shadow's: quiet.
      expect(cover(m, w, h, { x: 0, y: h - 20, w: 60, h: 20 }), `frame ${i} background`).toBeLessThan(0.01);
    }
  });

  it("takes a change of the whole scene's brightness for light, not foreground, with compensateLighting", async () => {
    const [w, h] = [160, 120];
    // Brighter by 35 % at frame 30, then darker by 30 % at frame 45 (exposure, clouds, lights switched on).
    const gainAt = (t: number) => (t < 30 ? 1 : t < 45 ? 1.35 : 0.95);
    const { images, boxes } = sequence(w, h, 60, 9, 0, gainAt);
    const options = { learningRate: 0.005, detectShadows: false };
    const colorImages = sequence(w, h, 60, 9, 0, gainAt, blue).images;
    const [plain, compensated, color] = await Promise.all([
      run(ctx, images, background(options), readBytes('mask')),
      run(ctx, images, background({ ...options, compensateLighting: true }), readBytes('mask')),
      run(ctx, colorImages, background({ ...options, compensateLighting: true, color: true }), readBytes('mask')),
    ]);
    const quiet: Box = { x: 0, y: h - 20, w: 60, h: 20 };
    for (const i of [30, 31, 40, 45, 46, 59]) {
      // Without compensation the step up is foreground everywhere (the step back down to 0.95 matches the old
      // background again); with it the background stays quiet and the objects are still found.
      if (i < 45) expect(cover(maskOf(plain[i]), w, h, quiet), `frame ${i} plain`).toBeGreaterThan(0.5);
      for (const [m, how] of [[maskOf(compensated[i]), 'gray'], [maskOf(color[i]), 'color']] as const) {
        expect(cover(m, w, h, quiet), `frame ${i} compensated background, ${how}`).toBeLessThan(0.01);
        for (const q of boxes[i]) expect(cover(m, w, h, q), `frame ${i} object at ${q.x},${q.y}, ${how}`).toBeGreaterThan(0.9);
      }
    }
    // The gain the CPU reference finds for the steps.
    const cpu = new BackgroundModelCpu(backgroundSettings({ ...options, compensateLighting: true }), w, h);
    const gains = images.map((img) => {
      const g = cpu.gain(img.data);
      cpu.apply(img.data);
      return g;
    });
    // In color, from the channels' sums.
    const cpuColor = new BackgroundModelCpu(backgroundSettings({ ...options, compensateLighting: true, color: true }), w, h);
    const colorGains = colorImages.map((img) => {
      const g = cpuColor.gain(img.data);
      cpuColor.apply(img.data);
      return g;
    });
    for (const g of [gains, colorGains]) {
      expect(g[0]).toBe(1);
      expect(Math.abs(g[29] - 1)).toBeLessThan(0.01);
      expect(Math.abs(g[30] - 1.35)).toBeLessThan(0.02);
      expect(Math.abs(g[50] - 0.95)).toBeLessThan(0.02);
    }
  });

  it('with a warmup, learns away the ghost of what stood in the first frame and left; at a slow fixed rate alone it stays; primed, there is none, at the rate from history too', async () => {
    // A textured scene; a dark box stands in view from the first frame, then walks out of it from frame 10 on; a
    // bright one walks in at frame 35, past the warmup, and stops at frame 40.
    const [w, h] = [64, 48];
    const r = rng(9);
    const scene = Float64Array.from({ length: w * h }, (_, p) => 120 + 30 * Math.sin((p % w) / 5) + 10 * r());
    const frames = Array.from({ length: 60 }, (_, t) => {
      const x0 = 10 + 4 * Math.max(0, t - 10);
      const x1 = 64 - 4 * (Math.min(t, 40) - 35);
      return gray(w, h, Uint8Array.from(scene, (v, p) => {
        const [x, y] = [p % w, Math.floor(p / w)];
        const inBox = x >= x0 && x < x0 + 10 && y >= 15 && y < 35;
        const inLater = t >= 35 && x >= x1 && x < x1 + 10 && y >= 2 && y < 12;
        return Math.max(0, Math.min(255, Math.round((inBox ? 30 : inLater ? 230 : v) + (r() - 0.5) * 6)));
      }), t * 33_333);
    });
    // Where it stood, clear of it from frame 13 on.
    const stood: Box = { x: 10, y: 15, w: 10, h: 20 };
    const slow = { learningRate: 1 / 500, foregroundLearning: 0.5, detectShadows: false };
    const [plain, warm] = await Promise.all([
      run(ctx, frames, background(slow), readBytes('mask')),
      run(ctx, frames, background({ ...slow, warmup: 30 }), readBytes('mask')),
    ]);
    // At 1/500 and half that for foreground, the ground it revealed needs about 100 frames; in the warmup, a few.
    expect(cover(maskOf(plain[40]), w, h, stood)).toBeGreaterThan(0.9);
    expect(cover(maskOf(warm[40]), w, h, stood)).toBeLessThan(0.1);
    // Past the warmup the rate is the fixed one: what stops later stays foreground in both.
    const stopped: Box = { x: 44, y: 2, w: 10, h: 10 };
    for (const masks of [plain, warm]) expect(cover(maskOf(masks[59]), w, h, stopped)).toBeGreaterThan(0.9);
    // Started from the median of the frames (it stood in 11 of 60), the box is foreground where it stands in the
    // first frame, leaves no ghost, and what stops later stays foreground.
    const primedMasks = await run(ctx, frames, background({ ...slow, prime: medianImage(frames) }), readBytes('mask'));
    expect(cover(maskOf(primedMasks[0]), w, h, stood), 'the box in the first frame').toBeGreaterThan(0.9);
    expect(cover(maskOf(primedMasks[0]), w, h, { x: 30, y: 20, w: 30, h: 20 }), 'the scene in the first frame').toBeLessThan(0.02);
    expect(cover(maskOf(primedMasks[40]), w, h, stood), 'where it stood').toBeLessThan(0.05);
    expect(cover(maskOf(primedMasks[59]), w, h, stopped), 'what stopped').toBeGreaterThan(0.9);
    // With the rate from history (the default), a primed model learns at 1/history from its start: the box stays
    // foreground for the 11 frames it stands in view, where OpenCV's fast start (1/4, 1/6, …) would learn it in a few.
    const fromHistory = await run(ctx, frames, background({ detectShadows: false, prime: medianImage(frames) }), readBytes('mask'));
    for (const t of [0, 5, 10]) expect(cover(maskOf(fromHistory[t]), w, h, stood), `the box in frame ${t}, rate from history`).toBeGreaterThan(0.9);
    expect(cover(maskOf(fromHistory[40]), w, h, stood), 'where it stood, rate from history').toBeLessThan(0.05);
  });

  it('keeps what stops foreground for longer with foregroundLearning below 1', async () => {
    // A textured scene; a bright box walks in, stops at frame 20 and stays.
    const [w, h] = [64, 48];
    const r = rng(8);
    const scene = Float64Array.from({ length: w * h }, (_, p) => 90 + 30 * Math.sin((p % w) / 5) + 10 * r());
    const frames = Array.from({ length: 200 }, (_, t) => {
      const x0 = 2 + 2 * Math.min(t, 20);
      return gray(w, h, Uint8Array.from(scene, (v, p) => {
        const [x, y] = [p % w, Math.floor(p / w)];
        const inBox = t >= 5 && x >= x0 && x < x0 + 10 && y >= 15 && y < 35;
        return Math.max(0, Math.min(255, Math.round((inBox ? 230 : v) + (r() - 0.5) * 6)));
      }), t * 33_333);
    });
    const box: Box = { x: 42, y: 15, w: 10, h: 20 };
    const [plain, held] = await Promise.all([
      run(ctx, frames, background({ learningRate: 0.01 }), readBytes('mask')),
      run(ctx, frames, background({ learningRate: 0.01, foregroundLearning: 0.1 }), readBytes('mask')),
    ]);
    // At a rate of 0.01, OpenCV's model takes a stopped object in after about 10 frames; a tenth of it, about 100.
    expect(cover(maskOf(plain[50]), w, h, box)).toBeLessThan(0.2);
    expect(cover(maskOf(held[50]), w, h, box)).toBeGreaterThan(0.9);
    expect(cover(maskOf(held[100]), w, h, box)).toBeGreaterThan(0.9);
    expect(cover(maskOf(held[199]), w, h, box)).toBeLessThan(0.2);
  });

  it('in color, finds a dark object that the gray model takes for shadow, and still tells the cast shadow apart', async () => {
    const [w, h] = [160, 120];
    // Dark blue on a light, warm scene: its luma is 0.4–0.8 of the scene's (a "darker copy" on gray), its color not
    // the scene's scaled (not a shadow in color). The cast shadow is the scene at 0.7, in every channel.
    const { images, boxes, shadows } = sequence(w, h, 60, 9, 0, () => 1, { dark: [45, 60, 110] });
    const [onGray, inColor] = await Promise.all([
      run(ctx, images, background({ learningRate: 0.005 }), readBytes('mask'), readBytes('shadow')),
      run(ctx, images, background({ learningRate: 0.005, color: true }), readBytes('mask'), readBytes('shadow')),
    ]);
    for (const i of [24, 28, 32]) {
      const [bright, dark] = boxes[i];
      const g = maskOf(onGray[i]);
      const c = maskOf(inColor[i]);
      expect(cover(g, w, h, bright), `frame ${i} bright box on gray`).toBeGreaterThan(0.9);
      expect(cover(g, w, h, dark), `frame ${i} dark box on gray`).toBeLessThan(0.6);
      expect(cover(shadowOf(onGray[i]), w, h, dark), `frame ${i} dark box as shadow on gray`).toBeGreaterThan(0.4);
      for (const q of [bright, dark]) expect(cover(c, w, h, q), `frame ${i} object at ${q.x},${q.y} in color`).toBeGreaterThan(0.9);
      expect(cover(shadowOf(inColor[i]), w, h, shadows[i]), `frame ${i} shadow in color`).toBeGreaterThan(0.8);
      expect(cover(c, w, h, shadows[i]), `frame ${i} shadow as foreground in color`).toBeLessThan(0.1);
      expect(cover(c, w, h, { x: 0, y: h - 20, w: 60, h: 20 }), `frame ${i} background in color`).toBeLessThan(0.01);
    }
  });

  it("with color 'shadows', takes a dark object for foreground where gray takes it for shadow, and spreads no further than gray where color is stored at half resolution", async () => {
    const [w, h] = [160, 120];
    const { images, boxes, shadows } = sequence(w, h, 60, 9, 0, () => 1, { dark: [45, 60, 110] });
    // As a video stores color (4:2:0): brightness kept, color averaged over 2×2 pixels and interpolated back.
    const stored = images.map((img) => ({ ...img, data: halfResolutionColor(img.data, w, h) }));
    const [onGray, inColor, forShadows] = await Promise.all(
      (['gray', true, 'shadows'] as const).map((color) => run(ctx, stored, background({ learningRate: 0.005, ...(color === 'gray' ? {} : { color }) }), readBytes('mask'), readBytes('shadow'))),
    );
    for (const i of [24, 28, 32]) {
      const [bright, dark] = boxes[i];
      const m = maskOf(forShadows[i]);
      expect(cover(m, w, h, bright), `frame ${i} bright box`).toBeGreaterThan(0.9);
      // Gray finds part of the dark box, takes much of the rest for shadow (and the rest, as bright as the scene
      // behind, for background): what it took for shadow is foreground now.
      const [grayFound, grayShadow] = [cover(maskOf(onGray[i]), w, h, dark), cover(shadowOf(onGray[i]), w, h, dark)];
      expect(grayShadow, `frame ${i} dark box as shadow on gray`).toBeGreaterThan(0.3);
      expect(cover(m, w, h, dark), `frame ${i} dark box`).toBeGreaterThan(grayFound + 0.9 * grayShadow);
      expect(cover(shadowOf(forShadows[i]), w, h, dark), `frame ${i} dark box as shadow`).toBeLessThan(0.05);
      expect(cover(shadowOf(forShadows[i]), w, h, shadows[i]), `frame ${i} shadow`).toBeGreaterThan(0.8);
      expect(cover(m, w, h, shadows[i]), `frame ${i} shadow as foreground`).toBeLessThan(0.1);
      // A column of pixels beside the dark box, left and right: its color bled in, its brightness did not.
      const beside = [{ x: dark.x - 1, y: dark.y + 2, w: 1, h: dark.h - 4 }, { x: dark.x + dark.w, y: dark.y + 2, w: 1, h: dark.h - 4 }];
      const around = (mask: Uint8Array) => (cover(mask, w, h, beside[0]) + cover(mask, w, h, beside[1])) / 2;
      expect(around(maskOf(inColor[i])), `frame ${i} beside the dark box, color`).toBeGreaterThan(0.2);
      expect(around(m), `frame ${i} beside the dark box, 'shadows'`).toBeLessThanOrEqual(around(maskOf(onGray[i])) + 0.05);
    }
  });

  it("with color 'shadows' and no shadow detection, gives gray's masks", async () => {
    const { images } = sequence(64, 48, 12, 3, 0, () => 1, blue);
    const [a, b] = await Promise.all([
      run(ctx, images, background({ detectShadows: false }), readBytes('mask')),
      run(ctx, images, background({ detectShadows: false, color: 'shadows' }), readBytes('mask')),
    ]);
    a.forEach((r, i) => expect(maskOf(b[i]), `frame ${i}`).toEqual(maskOf(r)));
  });

  it('takes RGBA frames as their gray', async () => {
    const { images } = sequence(64, 48, 12, 3);
    const rgba = images.map((img): PixelImage => ({ ...img, format: 'rgba', data: Uint8Array.from({ length: img.data.length * 4 }, (_, i) => (i % 4 === 3 ? 255 : img.data[i >> 2])) }));
    const [a, b] = await Promise.all([run(ctx, images, background(), readBytes('mask')), run(ctx, rgba, background(), readBytes('mask'))]);
    a.forEach((r, i) => expect(maskOf(b[i])).toEqual(maskOf(r)));
    // A prime too: RGBA, taken as its gray.
    const prime = medianImage(images.slice(0, 5));
    const rgbaPrime = medianImage(rgba.slice(0, 5));
    const [c, d] = await Promise.all([run(ctx, images.slice(5), background({ prime }), readBytes('mask')), run(ctx, rgba.slice(5), background({ prime: rgbaPrime }), readBytes('mask'))]);
    c.forEach((r, i) => expect(maskOf(d[i]), `primed, frame ${i}`).toEqual(maskOf(r)));
    expect(maskOf(c[0]).some((v) => v === 0), 'primed: the first frame not all foreground').toBe(true);
  });

  it('restarts the model when the frame size changes', async () => {
    const small = sequence(40, 30, 10, 1).images;
    const large = sequence(64, 48, 3, 2).images;
    const results = await run(ctx, [...small, ...large], background({ detectShadows: false }), readBytes('mask'));
    expect(maskOf(results[9]).filter((v) => v).length).toBeLessThan(40 * 30 * 0.5);
    expect(maskOf(results[10]).every((v) => v === 255)).toBe(true);
  });

  it('feeds morphology() and features(): one blob per object', async () => {
    const w = 160;
    const h = 120;
    const { images, boxes } = sequence(w, h, 45, 9);
    const results = await lastValueFrom(
      fromPixels(ctx, images).pipe(background(), morphology({ open: 3, close: 5 }), features({ minArea: 30 }), readResults(), toArray()),
    );
    const f = results[44].features!;
    expect(f.label.length).toBe(2);
    const found = Array.from(f.label, (_, i) => ({ x: f.x0[i], y: f.y0[i], w: f.x1[i] - f.x0[i] + 1, h: f.y1[i] - f.y0[i] + 1 }));
    for (const q of boxes[44]) expect(found.some((b) => Math.abs(b.x - q.x) <= 2 && Math.abs(b.y - q.y) <= 2 && Math.abs(b.w - q.w) <= 3 && Math.abs(b.h - q.h) <= 3), `object at ${q.x},${q.y}`).toBe(true);
  });

  it("refuses a frame too large for the color model before making either model, and leaks nothing", async () => {
    // A device whose storage bindings hold this frame's gray means but not its color ones (three planes), read as
    // such by the node: the same check a 1.4 MP frame meets on lavapipe, without one.
    const small = await testContext();
    try {
      const { mixtures } = backgroundSettings({});
      const pixels = 64 * 48;
      Object.defineProperty(small, 'limits', { value: { ...small.limits, maxStorageBufferBindingSize: mixtures * pixels * 4 * 2 } });
      const { images } = sequence(64, 48, 3, 3, 0, () => 1, blue);
      const before = small.pool.stats().inUse;
      await expect(run(small, images, background({ color: 'shadows' }))).rejects.toThrow(/64×48 with \d+ mixtures in color needs \d+ bytes/);
      await expect(run(small, images, background({ color: true }))).rejects.toThrow(InvalidFrameError);
      expect(small.pool.stats().inUse).toBe(before);
      // The gray model fits: the limit lies between the two.
      expect(await run(small, images, background(), readBytes('mask'))).toHaveLength(3);
      expect(small.pool.stats().inUse).toBe(before);
    } finally {
      small.destroy();
    }
  });

  it('refuses bad options with InvalidOptionError, and frames without pixels on the stream', async () => {
    const bad: unknown[] = [{ color: 'yes' }, { color: 'shadow' }, { foregroundLearning: 1.5 }, { foregroundLearning: -0.1 }, { history: 0 }, { mixtures: 9 }, { mixtures: 0 }, { varThreshold: -1 }, { varMin: 80 }, { backgroundRatio: 1.5 }, { shadowThreshold: 1 }, { learningRate: 2 }, { detectShadows: 'yes' }, { compensateLighting: 1 }, { complexityReduction: Number.NaN }, { warmup: -1 }, { warmup: 2.5 }, null];
    const prime = (w: number, h: number, format: 'gray' | 'rgba', bytes = w * h * (format === 'rgba' ? 4 : 1)) => ({ width: w, height: h, format, data: new Uint8Array(bytes) });
    bad.push({ prime: 'scene' }, { prime: prime(0, 8, 'gray') }, { prime: prime(8, 8, 'gray', 63) }, { prime: { ...prime(8, 8, 'gray'), format: 'rgb' } }, { prime: { ...prime(8, 8, 'gray'), data: new Array(64).fill(0) } });
    bad.push({ prime: prime(8, 8, 'gray'), color: true }, { prime: prime(8, 8, 'gray'), color: 'shadows' });
    for (const o of bad) expect(() => background(o as BackgroundOptions), JSON.stringify(o)).toThrow(InvalidOptionError);
    const noPixels = (await import('rxjs')).map((f: import('../../../index.js').GpuFrame) => ({ ...f, rgba: null, gray: null }));
    await expect(run(ctx, [gray(8, 8, new Uint8Array(64))], noPixels, background())).rejects.toThrow(InvalidFrameError);
    // Color needs the RGB pixels: a gray frame is refused, not modelled as something else.
    await expect(run(ctx, [gray(8, 8, new Uint8Array(64))], background({ color: true }))).rejects.toThrow(/color: true needs RGBA frames/);
    await expect(run(ctx, [gray(8, 8, new Uint8Array(64))], background({ color: 'shadows' }))).rejects.toThrow(/color: 'shadows' needs RGBA frames/);
    // A prime of another size than the frames: refused on the stream, no model made.
    const before = ctx.pool.stats().inUse;
    await expect(run(ctx, [gray(8, 8, new Uint8Array(64))], background({ prime: prime(8, 6, 'gray') }))).rejects.toThrow(/the prime is 8×6, this frame 8×8/);
    expect(ctx.pool.stats().inUse).toBe(before);
  });
});
