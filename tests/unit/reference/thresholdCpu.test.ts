import { describe, expect, it } from 'vitest';
import { otsuLevel, thresholdAdaptive, thresholdFixed } from '../../../src/reference/thresholdCpu.js';
import { grayFromRgba } from '../../../src/image/grayFromRgba.js';
import { rng } from '../../../src/eval/images.js';

describe('threshold references', () => {
  it('gray keeps gray pixels and weights channels like Rec. 601', () => {
    expect(Array.from(grayFromRgba([0, 0, 0, 255, 255, 255, 255, 255, 128, 128, 128, 0], 3))).toEqual([0, 255, 128]);
    expect(Array.from(grayFromRgba([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255], 3))).toEqual([77, 149, 29]);
  });

  it("Otsu's level maximises the between-class variance (checked by brute force in floats)", () => {
    const g = Uint8Array.from({ length: 500 }, (_, i) => ((i * 7919) % 97) + (i % 5 === 0 ? 150 : 0));
    const level = otsuLevel(g);
    const variance = (t: number) => {
      const a = Array.from(g).filter((v) => v <= t);
      const b = Array.from(g).filter((v) => v > t);
      if (!a.length || !b.length) return -1;
      const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
      return a.length * b.length * (mean(a) - mean(b)) ** 2;
    };
    const best = Math.max(...Array.from({ length: 256 }, (_, t) => variance(t)));
    expect(variance(level)).toBeCloseTo(best, 6);
  });

  it('fixed and adaptive follow their definitions', () => {
    expect(Array.from(thresholdFixed([0, 10, 11, 200], 10))).toEqual([0, 0, 255, 255]);
    expect(Array.from(thresholdFixed([0, 10, 11, 200], 10, true))).toEqual([255, 255, 0, 0]);
    // 3x1, window 3: clipped means are 5, 20/3 and 10.
    expect(Array.from(thresholdAdaptive([0, 10, 10], 3, 1, 3, 0))).toEqual([0, 255, 0]);
    expect(Array.from(thresholdAdaptive([0, 10, 10], 3, 1, 3, 1))).toEqual([0, 255, 255]);
  });

  it('adaptive equals the definition summed window by window, on odd sizes, every window and offset sign', () => {
    const r = rng(31);
    for (const [w, h] of [[37, 23], [1, 9], [64, 5]]) {
      const gray = Uint8Array.from({ length: w * h }, () => Math.floor(r() * 256));
      for (const window of [3, 7, 15, 31]) {
        for (const offset of [-6, 0, 7]) {
          for (const invert of [false, true]) {
            const rad = (window - 1) / 2;
            const want = Uint8Array.from({ length: w * h }, (_, p) => {
              const x = p % w;
              const y = Math.floor(p / w);
              let sum = 0;
              let count = 0;
              for (let j = Math.max(0, y - rad); j <= Math.min(h - 1, y + rad); j++) {
                for (let i = Math.max(0, x - rad); i <= Math.min(w - 1, x + rad); i++) {
                  sum += gray[j * w + i];
                  count++;
                }
              }
              return (gray[p] + offset) * count > sum !== invert ? 255 : 0;
            });
            expect(Array.from(thresholdAdaptive(gray, w, h, window, offset, invert)), `${w}x${h} window ${window} offset ${offset} ${invert}`).toEqual(Array.from(want));
          }
        }
      }
    }
  });
});
