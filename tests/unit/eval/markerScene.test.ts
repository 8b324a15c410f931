// The synthetic marker frames' ground truth, checked two ways: by construction (an untilted, axis-aligned marker on
// whole pixels renders exactly the marker's cells), and against the tool users compare with: OpenCV's ArUco
// detector (Debian's python3-opencv, a test-time reference) finds our markers at our corners, with our IDs and
// corner order and no bias, and nothing in frames without markers.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markerDictionary } from '../../../index.js';
import { applyHomography, homography, invertHomography, markerScene, type MarkerScene } from '../../../reference.js';
import { type Point } from '../../../src/markers/centreOf.js';

const script = fileURLToPath(new URL('../../../bench/baselines/opencv-aruco.py', import.meta.url));

function openCv(dictionary: string, scenes: MarkerScene[], method: string) {
  const dir = mkdtempSync(join(tmpdir(), 'flowmark-scenes-'));
  const frames = scenes.map((s, i) => {
    const path = join(dir, `f${i}.gray`);
    writeFileSync(path, s.gray);
    return { path, width: s.width, height: s.height };
  });
  const out = JSON.parse(execFileSync('/usr/bin/python3', [script], { input: JSON.stringify({ dictionary, frames, methods: [method] }) }).toString());
  return out.results[method] as { markers: { id: number; corners: Point[] }[] }[];
}

describe('synthetic marker frames', () => {
  it('homographies map their four points and invert', () => {
    const from: Point[] = [[0, 0], [6, 0], [6, 6], [0, 6]];
    const to: Point[] = [[100.25, 40.5], [180, 52], [170.75, 130], [95, 120.5]];
    const h = homography(from, to);
    from.forEach((p, i) => {
      const q = applyHomography(h, p);
      expect(Math.hypot(q[0] - to[i][0], q[1] - to[i][1])).toBeLessThan(1e-9);
      const back = applyHomography(invertHomography(h), q);
      expect(Math.hypot(back[0] - p[0], back[1] - p[1])).toBeLessThan(1e-9);
    });
  });

  it('renders an untilted marker with every pixel inside one cell at that cell\'s value', () => {
    const d = markerDictionary('DICT_4X4_50');
    // Every pixel that lies wholly inside one cell of the marker (by the scene's own corners) has that cell's value.
    const s = markerScene(3, { width: 200, height: 200, markerSize: 4, bits: (id) => d.bits(id), ids: [9], side: [60, 60], maxTilt: 0, blur: 0, noise: 0, clutter: 0 });
    const [m] = s.markers;
    expect(m.side).toBeCloseTo(60, 6);
    const h = homography([[0, 0], [6, 0], [6, 6], [0, 6]], m.corners);
    const hi = invertHomography(h);
    const bits = d.bits(9);
    let checked = 0;
    for (let y = 0; y < 200; y++) {
      for (let x = 0; x < 200; x++) {
        // The pixel's four corners in marker cells: all in one cell of the border or the code?
        const cells = ([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]] as Point[]).map(([dx, dy]) => applyHomography(hi, [x + dx, y + dy]).map(Math.floor));
        if (cells.some((c) => c[0] !== cells[0][0] || c[1] !== cells[0][1])) continue;
        const [u, v] = cells[0];
        if (u < 0 || v < 0 || u > 5 || v > 5) continue;
        const white = u >= 1 && v >= 1 && u <= 4 && v <= 4 && bits[(v - 1) * 4 + (u - 1)] === 1;
        // Printed white 235 and black 25 under the frame's light (0.55…1 of it).
        if (white) expect(s.gray[y * 200 + x]).toBeGreaterThan(120);
        else expect(s.gray[y * 200 + x]).toBeLessThan(30);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });

  for (const dictionary of ['DICT_4X4_50', 'DICT_6X6_250']) {
    it(`OpenCV finds our markers at our corners, in our order, without bias (${dictionary}, tilted, clutter)`, () => {
      const d = markerDictionary(dictionary);
      const scenes = Array.from({ length: 6 }, (_, i) =>
        markerScene(40 + i, { width: 640, height: 480, markerSize: d.markerSize, bits: (id) => d.bits(id), ids: [i, i + 7, i + 14, i + 21], side: [60, 130], maxTilt: 10 * i, blur: 0, noise: 0, clutter: 6 }),
      );
      const found = openCv(dictionary, scenes, 'SUBPIX');
      const dx: number[] = [];
      const dy: number[] = [];
      let matched = 0;
      scenes.forEach((s, i) => {
        // Everything OpenCV reports is one of ours (OpenCV misses some: where the background around a marker's
        // white margin is darker than the margin, it keeps the margin's outline and drops the border's).
        for (const got of found[i].markers) expect(s.markers.map((m) => m.id), `frame ${i}`).toContain(got.id);
        for (const m of s.markers) {
          const got = found[i].markers.find((g) => g.id === m.id);
          if (!got) continue;
          matched++;
          got.corners.forEach((c, k) => {
            expect(Math.hypot(c[0] - m.corners[k][0], c[1] - m.corners[k][1]), `frame ${i} id ${m.id} corner ${k}`).toBeLessThan(0.6);
            dx.push(c[0] - m.corners[k][0]);
            dy.push(c[1] - m.corners[k][1]);
          });
        }
      });
      expect(matched).toBeGreaterThanOrEqual(0.8 * scenes.length * 4);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      // A half-pixel convention error would show here as a bias of 0.5.
      expect(Math.abs(mean(dx))).toBeLessThan(0.05);
      expect(Math.abs(mean(dy))).toBeLessThan(0.05);
    });
  }

  it('frames without markers (clutter, square outlines) give OpenCV nothing', () => {
    const d = markerDictionary('DICT_4X4_50');
    const scenes = Array.from({ length: 8 }, (_, i) => markerScene(90 + i, { width: 640, height: 480, markerSize: 4, bits: (id) => d.bits(id), ids: [], side: [40, 80], maxTilt: 0, blur: i % 2, noise: 3, clutter: 12 }));
    expect(openCv('DICT_4X4_50', scenes, 'NONE').map((f) => f.markers.length)).toEqual(scenes.map(() => 0));
  });
});
