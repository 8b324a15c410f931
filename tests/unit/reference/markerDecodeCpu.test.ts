// The CPU marker reader (the oracle for the GPU decoder to come): given a marker's four outer corners in a
// synthetic frame, it reads its ID and turn, hands the corners back in printed order from any starting corner,
// holds up under blur, noise and tilt, and reads nothing from squares that are not markers.
import { describe, expect, it } from 'vitest';
import { markerDictionary } from '../../../index.js';
import { decodeMarkerCpu, markerScene } from '../../../reference.js';
import { type Point } from '../../../src/markers/centreOf.js';
import { deblurSigmas, fitSigmas } from '../../../src/markers/params.js';
import { shaderCode } from '../../../src/core/shaderSource.js';

describe('decodeMarkerCpu', () => {
  for (const name of ['DICT_4X4_50', 'DICT_6X6_250', 'DICT_APRILTAG_36H11']) {
    it(`reads every marker of tilted, blurred, noisy frames from its true corners, whatever corner comes first (${name})`, () => {
      const d = markerDictionary(name);
      let read = 0;
      for (let f = 0; f < 6; f++) {
        const ids = [0, 1, 2, 3].map((k) => (f * 4 + k) % d.count).filter((id) => d.correctable(id) >= 0);
        const s = markerScene(700 + f, { width: 640, height: 480, markerSize: d.markerSize, bits: (id) => d.bits(id), ids, side: [40, 140], maxTilt: 60, blur: f % 3 === 2 ? 1.5 : 0.5, noise: 2 * f, clutter: 6 });
        for (const m of s.markers) {
          for (let first = 0; first < 4; first++) {
            const given = [0, 1, 2, 3].map((k) => m.corners[(k + first) % 4]) as Point[];
            const got = decodeMarkerCpu(s.gray, s.width, s.height, given, d);
            expect(got, `${name} frame ${f} id ${m.id} from corner ${first}`).not.toBeNull();
            expect(got!.id).toBe(m.id);
            // Starting `first` corners on, the sampled grid shows the marker turned back by as many quarter turns.
            expect(got!.rotation).toBe((4 - first) % 4);
            expect(got!.corners).toEqual(m.corners);
            read++;
          }
        }
      }
      expect(read).toBeGreaterThan(60);
    });
  }

  it('reads blurred lone cells with the blur undone, or no marker, and never another where the plain read errs', () => {
    // Marker 26 of DICT_4X4_50 at 3 px per cell: its lone white cells fade towards the black around them.
    const d = markerDictionary('DICT_4X4_50');
    const at = (blur: number) => markerScene(77, { width: 80, height: 80, markerSize: 4, bits: (k) => d.bits(k), ids: [26], side: [18, 18], maxTilt: 0, blur, noise: 0, clutter: 0 });
    const sharp = at(1); // σ = 1/3 of a cell: read as it is
    expect(decodeMarkerCpu(sharp.gray, 80, 80, sharp.markers[0].corners, d)?.id).toBe(26);
    const soft = at(2); // σ = 2/3 of a cell: four lone white cells read black, which is marker 17 exactly
    expect(decodeMarkerCpu(soft.gray, 80, 80, soft.markers[0].corners, d, { doubt: 0, deblur: false })?.id).toBe(17);
    expect(decodeMarkerCpu(soft.gray, 80, 80, soft.markers[0].corners, d, { deblur: false })).toBeNull();
    // Read again with the blur undone: the lone cells come back.
    expect(decodeMarkerCpu(soft.gray, 80, 80, soft.markers[0].corners, d)?.id).toBe(26);
    // Every marker of two dictionaries, 15–24 px, blurred from a third of a cell to two thirds, noisy, tilted.
    for (const name of ['DICT_4X4_50', 'DICT_6X6_250'] as const) {
      const dict = markerDictionary(name);
      const m = dict.markerSize;
      const tally = { plain: { right: 0, wrong: 0 }, deblurred: { right: 0, wrong: 0 } };
      for (const noise of [0, 3]) {
        for (const side of [15, 20, 24]) {
          for (let id = 0; id < 50; id++) {
            for (const blur of [1, 1.5, 2]) {
              const sd = (side * (m + 2)) / 6;
              const s = markerScene(1000 + id + side * 7 + noise * 1000, { width: 80, height: 80, markerSize: m, bits: (k) => dict.bits(k), ids: [id], side: [sd, sd], maxTilt: 0.3, blur: (blur * side) / 18, noise, clutter: 0 });
              for (const [key, deblur] of [['plain', false], ['deblurred', true]] as const) {
                const got = decodeMarkerCpu(s.gray, 80, 80, s.markers[0].corners, dict, { deblur, doubt: deblur ? undefined : 0 });
                if (got) tally[key][got.id === id ? 'right' : 'wrong']++;
              }
            }
          }
        }
      }
      // Read without the doubt band, the plain grids give wrong ids (4×4: 15 of 900, right 349; 6×6: right 475);
      // read again with the blur undone 898 and 887 right, none wrong.
      if (name === 'DICT_4X4_50') expect(tally.plain.wrong, name).toBeGreaterThan(5);
      expect(tally.deblurred.wrong, name).toBe(0);
      expect(tally.deblurred.right, name).toBeGreaterThan(850);
    }
  });

  it('tries the blurs the GPU tries (fit.wgsl restates them: arrays cannot be overrides)', () => {
    const code = shaderCode('markers/fit');
    const restated = (name: string) => {
      const m = new RegExp(`const ${name} = array<f32, 8>\\(([^)]*)\\)`).exec(code);
      return m ? m[1].split(',').map(Number) : null;
    };
    expect(restated('DEBLUR_SIGMAS')).toEqual(deblurSigmas);
    expect(restated('FIT_SIGMAS')).toEqual(fitSigmas);
  });

  it('reads nothing from square outlines, plain boxes or background', () => {
    const d = markerDictionary('DICT_4X4_50');
    const s = markerScene(801, { width: 320, height: 240, markerSize: 4, bits: (id) => d.bits(id), ids: [], side: [40, 80], maxTilt: 0, blur: 0.5, noise: 3, clutter: 12 });
    // 40 px squares tried all over a frame of clutter (gray boxes, bars, black outlines) and light background.
    let tried = 0;
    for (let y = 10; y + 40 < 240; y += 17) {
      for (let x = 10; x + 40 < 320; x += 23) {
        const sq: Point[] = [[x, y], [x + 40, y], [x + 40, y + 40], [x, y + 40]];
        expect(decodeMarkerCpu(s.gray, s.width, s.height, sq, d), `square at ${x},${y}`).toBeNull();
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(100);
  });
});
