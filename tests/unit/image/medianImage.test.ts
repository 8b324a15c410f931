// medianImage against the middle of each byte's sorted values, on seeded images (gray and RGBA, odd sizes, odd and
// even counts, few levels so that values repeat); the scene behind moving squares; bad input.
import { describe, expect, it } from 'vitest';
import { InvalidOptionError, medianImage, type PrimeImage } from '../../../index.js';
import { lightGain } from '../../../src/image/medianImage.js';
import { rng } from '../../../src/eval/images.js';

function sortedMedian(images: PrimeImage[]): Uint8Array {
  return Uint8Array.from(images[0].data, (_, i) => images.map((img) => img.data[i]).sort((a, b) => a - b)[images.length >> 1]);
}

describe('medianImage', () => {
  it("equals the middle of each byte's sorted values (the upper middle for an even count)", () => {
    const r = rng(41);
    for (const [w, h, format, count, levels] of [[1, 1, 'gray', 1, 256], [7, 5, 'gray', 2, 4], [13, 3, 'rgba', 3, 256], [31, 17, 'gray', 24, 3], [9, 11, 'rgba', 25, 256], [5, 4, 'gray', 255, 256]] as const) {
      const images: PrimeImage[] = Array.from({ length: count }, () => ({ width: w, height: h, format, data: Uint8Array.from({ length: w * h * (format === 'rgba' ? 4 : 1) }, () => Math.floor(r() * levels) * Math.floor(255 / Math.max(1, levels - 1))) }));
      const m = medianImage(images);
      expect([m.width, m.height, m.format], `${w}×${h} ${format} ×${count}`).toEqual([w, h, format]);
      expect(m.data, `${w}×${h} ${format} ×${count}`).toEqual(sortedMedian(images));
    }
  });

  it('gives the scene behind squares that cover each pixel in fewer than half of the frames', () => {
    const [w, h] = [40, 30];
    const r = rng(5);
    const scene = Uint8Array.from({ length: w * h }, () => 40 + Math.floor(r() * 150));
    const frames: PrimeImage[] = Array.from({ length: 9 }, (_, t) => ({
      width: w,
      height: h,
      format: 'gray',
      data: Uint8Array.from(scene, (v, p) => (Math.abs((p % w) - 4 * t - 4) < 4 && Math.abs(Math.floor(p / w) - 15) < 4 ? 255 : v)),
    }));
    expect(medianImage(frames).data).toEqual(scene);
  });

  it('with matchLight, brings each image to the first one\'s light first: a scene whose light steps up midway, objects passing', () => {
    const [w, h] = [48, 36];
    const r = rng(17);
    const scene = Float64Array.from({ length: w * h }, () => 40 + r() * 140);
    for (const format of ['gray', 'rgba'] as const) {
      const tint = [1, 0.9, 0.8];
      const c = format === 'rgba' ? 4 : 1;
      // 15 frames, the light 1.3 times brighter from the sixth; a dark square passing low in the later ones.
      const frames: PrimeImage[] = Array.from({ length: 15 }, (_, t) => {
        const gain = t < 5 ? 1 : 1.3;
        const data = new Uint8Array(w * h * c);
        for (let p = 0; p < w * h; p++) {
          const [x, y] = [p % w, Math.floor(p / w)];
          const under = t >= 5 && y >= 24 && Math.abs(x - 5 * (t - 5)) < 6;
          for (let k = 0; k < c; k++) data[p * c + k] = k === 3 ? 255 : under ? 10 : Math.min(255, Math.round(scene[p] * gain * (format === 'rgba' ? tint[k] : 1)));
        }
        return { width: w, height: h, format, data };
      });
      expect(lightGain(frames[9], frames[0]), format).toBeCloseTo(1.3, 2);
      expect(lightGain(frames[3], frames[0]), format).toBe(1 + 64 / 128 / 128);
      const matched = medianImage(frames, { matchLight: true });
      // Every pixel within a level or two of the first frame (rounding, twice): the scene in the first frame's light.
      const off = matched.data.map((v, i) => Math.abs(v - frames[0].data[i]));
      expect(Math.max(...off), format).toBeLessThanOrEqual(2);
      // Without: the later light (10 of the 15 frames).
      const plain = medianImage(frames);
      const at = (img: PrimeImage, x: number, y: number) => img.data[(y * w + x) * c];
      expect(at(plain, 10, 5), format).toBeGreaterThan(at(frames[0], 10, 5) * 1.2);
    }
  });

  it('refuses no images, too many, mixed sizes or formats and short data with InvalidOptionError', () => {
    const img = (w: number, h: number, format: 'gray' | 'rgba' = 'gray', bytes = w * h * (format === 'rgba' ? 4 : 1)): PrimeImage => ({ width: w, height: h, format, data: new Uint8Array(bytes) });
    const bad: unknown[] = [[], null, 'frames', Array.from({ length: 256 }, () => img(2, 2)), [img(4, 4), img(4, 5)], [img(4, 4), img(4, 4, 'rgba')], [img(4, 4, 'gray', 15)], [img(4, 4), { width: 4, height: 4, format: 'gray' }]];
    for (const b of bad) expect(() => medianImage(b as PrimeImage[]), Array.isArray(b) ? `${b.length} images` : String(b)).toThrow(InvalidOptionError);
  });
});
