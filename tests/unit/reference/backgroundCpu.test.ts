// The background model's CPU reference (and so the GPU's, which the node tests hold to it) against OpenCV's
// BackgroundSubtractorMOG2 itself (Debian's python3-opencv, a test-time reference) on the same gray frames: a
// textured fixed scene with noise, moving objects and a cast shadow, with OpenCV's defaults and with other settings.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BackgroundModelCpu } from '../../../src/reference/backgroundCpu.js';
import { defaultBackgroundSettings, type BackgroundSettings } from '../../../src/image/backgroundSettings.js';
import { rng } from '../../../src/eval/images.js';

const script = fileURLToPath(new URL('../../../bench/baselines/opencv-mog2.py', import.meta.url));

function frames(w: number, h: number, n: number, seed: number): Uint8Array[] {
  const r = rng(seed);
  const texture = Float64Array.from({ length: w * h }, (_, p) => 60 + 50 * Math.sin((p % w) / 6) * Math.cos(Math.floor(p / w) / 4) + 25 * r());
  return Array.from({ length: n }, (_, t) => {
    const f = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let v = texture[y * w + x];
        const ox = (5 + 3 * t) % w;
        if (y >= 20 && y < 34 && x >= ox + 12 && x < ox + 24) v *= 0.6; // shadow
        if (y >= 10 && y < 30 && x >= ox && x < ox + 12) v = 220;
        if (x >= 40 && x < 50 && y >= (2 * t) % h && y < ((2 * t) % h) + 8) v = 20;
        f[y * w + x] = Math.max(0, Math.min(255, Math.round(v + (r() + r() + r() - 1.5) * 6)));
      }
    }
    return f;
  });
}

/** The frames in color, RGBA: the scene tinted per pixel, the moving objects and the shadow as on gray. */
function colorFrames(w: number, h: number, n: number, seed: number): Uint8Array[] {
  return frames(w, h, n, seed).map((g) => {
    const rgba = new Uint8Array(4 * w * h);
    for (let p = 0; p < w * h; p++) {
      const tint = [1.15 - 0.3 * Math.sin((p % w) / 9), 1, 0.8 + 0.25 * Math.cos(Math.floor(p / w) / 7)];
      for (let c = 0; c < 3; c++) rgba[4 * p + c] = Math.max(0, Math.min(255, Math.round(g[p] * tint[c])));
      rgba[4 * p + 3] = 255;
    }
    return rgba;
  });
}

function opencv(images: Uint8Array[], w: number, h: number, s: BackgroundSettings): Uint8Array[] {
  // Color goes as interleaved RGB (OpenCV's MOG2 treats the channels alike: their order does not matter).
  const input = Buffer.concat(images.map((i) => Buffer.from(s.color ? i.filter((_, k) => k % 4 !== 3) : i)));
  const args = [script, `${w}`, `${h}`, `${images.length}`, `${s.history}`, `${s.varThreshold}`, s.detectShadows ? '1' : '0', `${s.learningRate}`, s.color ? '3' : '1'];
  const out = execFileSync('/usr/bin/python3', args, { input, maxBuffer: 1 << 26 });
  return images.map((_, i) => new Uint8Array(out.buffer, out.byteOffset + i * w * h, w * h));
}

describe("the background model's CPU reference against OpenCV's MOG2", () => {
  const cases: [string, Partial<BackgroundSettings>][] = [
    ['OpenCV defaults', {}],
    ['history 50, varThreshold 25, no shadows', { history: 50, varThreshold: 25, detectShadows: false }],
    ['a fixed learning rate of 0.01', { learningRate: 0.01 }],
    ['color, OpenCV defaults', { color: true }],
    ['color, history 50, varThreshold 25, fixed learning rate 0.01', { color: true, history: 50, varThreshold: 25, learningRate: 0.01 }],
  ];
  for (const [name, options] of cases) {
    it(`gives OpenCV's masks (foreground 255, shadow 127): ${name}`, () => {
      const [w, h] = [96, 64];
      const s = { ...defaultBackgroundSettings, ...options };
      const images = (s.color ? colorFrames : frames)(w, h, 80, 31);
      const want = opencv(images, w, h, s);
      const model = new BackgroundModelCpu(s, w, h);
      let differ = 0;
      images.forEach((img, i) => {
        const got = model.apply(img);
        for (let p = 0; p < w * h; p++) if ((got.mask[p] ? 255 : got.shadow[p] ? 127 : 0) !== want[i][p]) differ++;
      });
      // OpenCV's build may round an operation differently (fused multiply-adds, its SIMD paths): a pixel near a
      // decision then goes the other way. At most 0.1 % of all pixels of the sequence.
      expect(differ / (images.length * w * h)).toBeLessThanOrEqual(0.001);
    });
  }
});
