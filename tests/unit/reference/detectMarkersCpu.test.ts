// flowmark's CPU marker detector (the reference for the GPU operator to come) on synthetic frames with exact
// corners: every marker found with its ID and subpixel corners, nothing else; nothing in frames without markers.
import { describe, expect, it } from 'vitest';
import { markerDictionary } from '../../../index.js';
import { detectMarkersCpu, markerScene, quadOf } from '../../../reference.js';
import { type Point } from '../../../src/markers/centreOf.js';

describe('detectMarkersCpu', () => {
  for (const name of ['DICT_4X4_50', 'DICT_6X6_250']) {
    it(`finds every marker at its corners and nothing else (${name}; 40–140 px, tilt to 50°, blur, noise, clutter)`, () => {
      const d = markerDictionary(name);
      const errs: number[] = [];
      for (let f = 0; f < 5; f++) {
        const s = markerScene(1200 + f, { width: 640, height: 480, markerSize: d.markerSize, bits: (id) => d.bits(id), ids: [f, f + 11, f + 22, f + 33], side: [40, 140], maxTilt: 50, blur: 0.3 * f, noise: f, clutter: 6 });
        const got = detectMarkersCpu(s.gray, s.width, s.height, d);
        expect(got.map((g) => g.id).sort((a, b) => a - b), `frame ${f}`).toEqual(s.markers.map((m) => m.id).sort((a, b) => a - b));
        for (const m of s.markers) {
          const g = got.find((x) => x.id === m.id)!;
          g.corners.forEach((c, k) => errs.push(Math.hypot(c[0] - m.corners[k][0], c[1] - m.corners[k][1])));
        }
      }
      const rmse = Math.sqrt(errs.reduce((a, e) => a + e * e, 0) / errs.length);
      expect(rmse).toBeLessThan(0.15);
      expect(Math.max(...errs)).toBeLessThan(0.6);
    });
  }

  it('finds the quad of an elongated, strongly tilted border, whose farthest pair of corners is a side', () => {
    // A 61°-tilted marker's outline (from the evaluation set): p0 → farthest is a side here, not a diagonal.
    const corners: Point[] = [[126, 304.4], [148.3, 386.8], [110.2, 391.9], [92.7, 325.5]];
    const inside = (x: number, y: number) =>
      corners.every((a, i) => {
        const b = corners[(i + 1) % 4];
        return (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]) >= 0;
      });
    const width = 200;
    const pts: Point[] = [];
    for (let y = 290; y < 400; y++) {
      for (let x = 80; x < 160; x++) {
        if (inside(x, y) && (!inside(x - 1, y) || !inside(x + 1, y) || !inside(x, y - 1) || !inside(x, y + 1))) pts.push([x, y]);
      }
    }
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const q = quadOf(pts, [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], width);
    expect(q).not.toBeNull();
    // Each true corner has a quad corner within 1.5 px (pixel centres lie inside the outline).
    for (const c of corners) expect(Math.min(...q!.map((p) => Math.hypot(p[0] - c[0], p[1] - c[1])))).toBeLessThan(1.5);
  });

  it('finds nothing in frames without markers', () => {
    const d = markerDictionary('DICT_4X4_50');
    for (let f = 0; f < 4; f++) {
      const s = markerScene(1300 + f, { width: 640, height: 480, markerSize: 4, bits: (id) => d.bits(id), ids: [], side: [40, 80], maxTilt: 0, blur: f % 2, noise: 3, clutter: 14 });
      expect(detectMarkersCpu(s.gray, s.width, s.height, d), `frame ${f}`).toEqual([]);
    }
  });
});
