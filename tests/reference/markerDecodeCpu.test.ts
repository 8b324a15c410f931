// The CPU marker reader (the oracle for the GPU decoder to come): given a marker's four outer corners in a
// synthetic frame, it reads its ID and turn, hands the corners back in printed order from any starting corner,
// holds up under blur, noise and tilt, and reads nothing from squares that are not markers.
import { describe, expect, it } from 'vitest';
import { markerDictionary } from '../../index.js';
import { decodeMarkerCpu, markerScene, type Point } from '../../src/reference/index.js';

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

  it('reads no marker rather than another when lone cells are blurred away (the doubt band)', () => {
    // Marker 26 of DICT_4X4_50 at 3 px per cell: its lone white cells fade towards the black around them.
    const d = markerDictionary('DICT_4X4_50');
    const at = (blur: number) => markerScene(77, { width: 80, height: 80, markerSize: 4, bits: (id) => d.bits(id), ids: [26], side: [18, 18], maxTilt: 0, blur, noise: 0, clutter: 0 });
    const sharp = at(1); // σ = 1/3 of a cell: still read
    expect(decodeMarkerCpu(sharp.gray, 80, 80, sharp.markers[0].corners, d)?.id).toBe(26);
    const soft = at(2); // σ = 2/3 of a cell: four lone white cells read black, which is marker 17 exactly
    expect(decodeMarkerCpu(soft.gray, 80, 80, soft.markers[0].corners, d, { doubt: 0 })?.id).toBe(17);
    expect(decodeMarkerCpu(soft.gray, 80, 80, soft.markers[0].corners, d)).toBeNull();
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
