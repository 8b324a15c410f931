// ChArUco boards on the CPU: charucoBoard's layout against OpenCV's aruco.CharucoBoard (Debian's python3-opencv, a
// test-time reference): the same marker ids at the same corners, the same chessboard corners in the same order, and
// each corner's neighbouring markers as OpenCV's nearestMarkerIdx gives them.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { InvalidOptionError, charucoBoard, charucoCorners, projectPoints } from '../../../index.js';
import { rotationFromVector } from '../../../extend.js';

const layouts = [
  { squaresX: 5, squaresY: 7, squareLength: 0.04, markerLength: 0.03, dictionary: 'DICT_4X4_50' },
  { squaresX: 6, squaresY: 4, squareLength: 30, markerLength: 22, dictionary: 'DICT_5X5_100' },
  { squaresX: 3, squaresY: 3, squareLength: 1, markerLength: 0.5, dictionary: 'DICT_6X6_250' },
];

// OpenCV keeps the board's points in float32.
const near = (x: number, want: number) => expect(Math.abs(x - want)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(want)));

describe('charucoBoard', () => {
  it("lays squares, markers and corners out as OpenCV's aruco.CharucoBoard does", () => {
    const script = `
import cv2, json, sys, numpy as np
out = []
for o in json.load(sys.stdin):
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, o['dictionary']))
    if hasattr(cv2.aruco, 'CharucoBoard_create'):
        b = cv2.aruco.CharucoBoard_create(o['squaresX'], o['squaresY'], o['squareLength'], o['markerLength'], d)
    else:
        b = cv2.aruco.CharucoBoard((o['squaresX'], o['squaresY']), o['squareLength'], o['markerLength'], d)
    near = b.nearestMarkerIdx if hasattr(b, 'nearestMarkerIdx') else b.getNearestMarkerIdx()
    chess = b.chessboardCorners if hasattr(b, 'chessboardCorners') else b.getChessboardCorners()
    ids = np.array(b.ids if hasattr(b, 'ids') else b.getIds()).ravel()
    pts = b.objPoints if hasattr(b, 'objPoints') else b.getObjPoints()
    out.append({'ids': ids.tolist(), 'markers': np.array(pts).tolist(), 'corners': np.array(chess).tolist(),
                'near': [sorted(int(ids[i]) for i in np.array(n).ravel()) for n in near]})
print(json.dumps(out))`;
    const cv = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(layouts) }).toString());
    layouts.forEach((o, k) => {
      const b = charucoBoard(o);
      expect(b.markers.map((m) => m.id), `layout ${k}`).toEqual(cv[k].ids);
      b.markers.forEach((m, i) => m.corners.forEach((p, c) => p.forEach((x, j) => near(x, cv[k].markers[i][c][j]))));
      expect(b.corners.length).toBe(cv[k].corners.length);
      b.corners.forEach((c, i) => {
        expect(c.id).toBe(i);
        c.at.forEach((x, j) => near(x, cv[k].corners[i][j]));
        expect([...c.markers].sort((a, z) => a - z), `layout ${k} corner ${i}`).toEqual(cv[k].near[i]);
      });
    });
  });

  it('takes ids of its own, names the dictionary, and refuses what is no board', () => {
    const b = charucoBoard({ squaresX: 3, squaresY: 2, squareLength: 2, markerLength: 1, dictionary: 'DICT_4X4_50', ids: [7, 3, 9] });
    expect(b.markers.map((m) => m.id)).toEqual([7, 3, 9]);
    expect(b.dictionary).toBe('DICT_4X4_50');
    expect(b.name).toBe('charuco 3x2 DICT_4X4_50');
    expect(b.corners.map((c) => [...c.markers].sort((x, y) => x - y))).toEqual([[3, 7], [7, 9]]);
    expect(() => charucoBoard({ squaresX: 1, squaresY: 4, squareLength: 2, markerLength: 1, dictionary: 'DICT_4X4_50' })).toThrow(InvalidOptionError);
    expect(() => charucoBoard({ squaresX: 3, squaresY: 3, squareLength: 2, markerLength: 2, dictionary: 'DICT_4X4_50' })).toThrow(/less than squareLength/);
    expect(() => charucoBoard({ squaresX: 3, squaresY: 3, squareLength: 2, markerLength: 1, dictionary: '' })).toThrow(InvalidOptionError);
    expect(() => charucoBoard({ squaresX: 3, squaresY: 3, squareLength: 2, markerLength: 1, dictionary: 'DICT_4X4_50', ids: [1, 2] })).toThrow(/hold 4 markers, got 2 ids/);
    expect(() => charucoBoard({ squaresX: 3, squaresY: 2, squareLength: 2, markerLength: 1, dictionary: 'DICT_4X4_50', ids: [1, 1, 2] })).toThrow(InvalidOptionError);
    expect(() => charucoBoard(undefined as never)).toThrow(InvalidOptionError);
  });
});

describe('charucoCorners', () => {
  // A 5 × 7 board of 4 cm squares seen at a tilt by a pinhole camera: the plane's image is a homography, so each
  // corner placed from its markers' found corners is exactly the corner's own projection.
  const b = charucoBoard({ squaresX: 5, squaresY: 7, squareLength: 0.04, markerLength: 0.03, dictionary: 'DICT_4X4_50' });
  const camera = { fx: 800, fy: 790, cx: 320, cy: 240 };
  const [R, t] = [rotationFromVector([0.5, -0.3, 0.1]), [-0.1, -0.12, 0.6]];
  const found = b.markers.map((m) => ({ id: m.id, dictionary: 'DICT_4X4_50', corners: projectPoints(camera, R, t, m.corners) }));
  const truth = projectPoints(camera, R, t, b.corners.map((c) => c.at));

  it('places every corner whose two markers were found at its projection', () => {
    const got = charucoCorners(b, found);
    expect(got.map((c) => c.id)).toEqual(b.corners.map((c) => c.id));
    got.forEach((c) => {
      expect(c.markers).toBe(2);
      expect(Math.hypot(c.at[0] - truth[c.id][0], c.at[1] - truth[c.id][1]), `corner ${c.id}`).toBeLessThan(1e-6);
      // The refinement window: 0.8 of the way to the nearest corner of its markers, 3 to 8 px.
      const nearest = Math.min(...found.filter((m) => b.corners[c.id].markers.includes(m.id)).flatMap((m) => m.corners.map((p) => Math.hypot(p[0] - c.at[0], p[1] - c.at[1]))));
      expect(c.window).toBe(Math.min(8, Math.max(3, Math.floor(0.8 * nearest))));
    });
    // The tilt brings the markers nearer to some corners than to others: the windows differ.
    expect(new Set(got.map((c) => c.window)).size).toBeGreaterThan(1);
  });

  it('needs both markers by default, one with minMarkers 1; ignores other dictionaries and repeated ids', () => {
    const some = found.filter((m) => m.id % 3 !== 0);
    const both = charucoCorners(b, some);
    const one = charucoCorners(b, some, { minMarkers: 1 });
    const kept = new Set(some.map((m) => m.id));
    expect(both.map((c) => c.id)).toEqual(b.corners.filter((c) => c.markers.every((id) => kept.has(id))).map((c) => c.id));
    expect(one.map((c) => c.id)).toEqual(b.corners.filter((c) => c.markers.some((id) => kept.has(id))).map((c) => c.id));
    for (const c of one) expect(Math.hypot(c.at[0] - truth[c.id][0], c.at[1] - truth[c.id][1])).toBeLessThan(1e-6);
    // A marker of another dictionary with a board id, and a second find of an id, change nothing.
    const stray = { id: 4, dictionary: 'DICT_APRILTAG_36H11', corners: [[0, 0], [5, 0], [5, 5], [0, 5]] };
    const again = { ...found[4], corners: found[4].corners.map(([x, y]) => [x + 9, y]) };
    expect(charucoCorners(b, [stray, ...found, again])).toEqual(charucoCorners(b, found));
    expect(charucoCorners(b, [])).toEqual([]);
    // A marker moved away from its place on the board (8 px, about a fifth of its side): the corners it shares are left out, also
    // with minMarkers 1 (the other marker is there, and disagrees); the rest stay.
    const moved = found.map((m) => (m.id === 7 ? { ...m, corners: m.corners.map(([x, y]) => [x + 0.2 * 40, y]) } : m));
    const shared = b.corners.filter((c) => c.markers.includes(7)).map((c) => c.id);
    expect(shared.length).toBeGreaterThan(0);
    for (const minMarkers of [1, 2] as const) {
      expect(charucoCorners(b, moved, { minMarkers }).map((c) => c.id)).toEqual(b.corners.filter((c) => !shared.includes(c.id)).map((c) => c.id));
    }
    expect(() => charucoCorners(b, found, { minMarkers: 3 as never })).toThrow(InvalidOptionError);
  });
});
