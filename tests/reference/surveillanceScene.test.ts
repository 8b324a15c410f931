// The tracking evaluation's scenes in colour: the same objects and truth as the gray clip of the seed, the gray
// frames the colour ones' luma, the objects coloured (no longer one gray per object), and the gray clip without
// colour left as it was (no RGB frames made).
import { describe, expect, it } from 'vitest';
import { surveillanceScene } from '../../src/reference/surveillanceScene.js';

const options = { frames: 40, objects: 6, pillars: 1, shadows: true };

describe('surveillanceScene in colour', () => {
  const gray = surveillanceScene(3, options);
  const colour = surveillanceScene(3, { ...options, color: true });

  it('has the gray clip\'s objects and truth, and gray frames that are the colour frames\' luma', () => {
    expect(gray.rgb).toEqual([]);
    expect(colour.truth).toEqual(gray.truth);
    expect(colour.pillars).toEqual(gray.pillars);
    expect(colour.rgb).toHaveLength(options.frames);
    for (const t of [0, 20, 39]) {
      const [rgb, y] = [colour.rgb[t], colour.frames[t]];
      expect(rgb).toHaveLength(3 * y.length);
      for (let p = 0; p < y.length; p++) expect(y[p]).toBe(Math.round(0.299 * rgb[3 * p] + 0.587 * rgb[3 * p + 1] + 0.114 * rgb[3 * p + 2]));
    }
  });

  it('colours the objects: their channels differ inside their boxes', () => {
    const { width: W } = colour;
    const spreads = colour.truth
      .filter((b) => b.frame === 30 && b.visible === 1 && b.x1 - b.x0 > 4)
      .map((b) => {
        let sum = 0;
        let n = 0;
        for (let y = b.y0 + 2; y <= b.y1 - 2; y++) {
          for (let x = b.x0 + 2; x <= b.x1 - 2; x++) {
            const q = 3 * (y * W + x);
            const px = colour.rgb[30].subarray(q, q + 3);
            sum += Math.max(...px) - Math.min(...px);
            n++;
          }
        }
        return sum / n;
      });
    expect(spreads.length).toBeGreaterThan(0);
    // Saturations 0.1–0.7 of levels 20–240: a mean spread of a few levels (dark, pale) to over a hundred.
    expect(Math.max(...spreads)).toBeGreaterThan(20);
  });
});
