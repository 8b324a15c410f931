// flowmark/three's CPU parts: the intrinsic camera's projection is OpenCV's (both of three.js's clip conventions),
// anchors follow poses with found / lost / update, the track overlay draws what it is given, bad options are refused.
import { describe, expect, it } from 'vitest';
import { Vector3 } from 'three';
import { WebGLCoordinateSystem, WebGPUCoordinateSystem } from 'three';
import { InvalidOptionError, projectPoints, type BoardPose, type MarkerPose, type TrackInfo } from '../../../index.js';
import { rotationFromVector } from '../../../extend.js';
import { CameraBackground, IntrinsicCamera, MarkerAnchor, TrackOverlay, createRenderer, pixelCamera, poseMatrix } from '../../../three.js';

const pose = (id: number, rvec: [number, number, number], tvec: [number, number, number]): MarkerPose => ({
  id,
  dictionary: 'DICT_4X4_50',
  rvec,
  tvec,
  quaternion: [0, 0, 0, 1],
  error: 0.1,
  alternative: { rvec, tvec, error: 1 },
  ambiguous: false,
  seen: true,
  corners: [[0, 0], [0, 0], [0, 0], [0, 0]],
});

describe('IntrinsicCamera and poseMatrix', () => {
  it.each([
    ['WebGPU', WebGPUCoordinateSystem],
    ['WebGL', WebGLCoordinateSystem],
  ])('project a marker\'s points where OpenCV does (%s clip space)', (_, system) => {
    const intrinsics = { fx: 812, fy: 790, cx: 655.2, cy: 347.9 };
    const [width, height] = [1280, 720];
    const camera = new IntrinsicCamera(intrinsics, width, height, 0.01, 50);
    camera.coordinateSystem = system;
    camera.updateProjectionMatrix();
    let worst = 0;
    for (let k = 0; k < 50; k++) {
      const rvec: [number, number, number] = [Math.PI + Math.sin(k) * 0.6, Math.cos(3 * k) * 0.6, Math.sin(5 * k)];
      const tvec: [number, number, number] = [Math.sin(7 * k) * 0.2, Math.cos(11 * k) * 0.1, 0.3 + (k % 7) * 0.2];
      const points = [[0.02, -0.01, 0], [-0.025, 0.025, 0.03], [0, 0, 0.05]];
      const expected = projectPoints(intrinsics, rotationFromVector(rvec), tvec, points);
      const m = poseMatrix({ rvec, tvec }, camera.projectionMatrix.clone().identity());
      points.forEach((p, i) => {
        // Clip space → pixels: x from -1 (left edge, -0.5) to 1; y from 1 (top edge) down.
        const ndc = new Vector3(...p).applyMatrix4(m).applyMatrix4(camera.projectionMatrix);
        const u = ((ndc.x + 1) / 2) * width - 0.5;
        const v = ((1 - ndc.y) / 2) * height - 0.5;
        worst = Math.max(worst, Math.hypot(u - expected[i][0], v - expected[i][1]));
        // In front of the camera, within the clip depth range.
        expect(ndc.z).toBeLessThan(1);
        expect(ndc.z).toBeGreaterThan(system === WebGPUCoordinateSystem ? 0 : -1);
      });
    }
    expect(worst).toBeLessThan(1e-6);
  });

  it('refuses bad sizes, intrinsics and clip planes', () => {
    expect(() => new IntrinsicCamera({ fx: 500, fy: 500, cx: 320, cy: 240 }, 0, 480)).toThrow(InvalidOptionError);
    expect(() => new IntrinsicCamera({ fx: -1, fy: 500, cx: 320, cy: 240 }, 640, 480)).toThrow(InvalidOptionError);
    expect(() => new IntrinsicCamera({ fx: 500, fy: 500, cx: 320, cy: 240 }, 640, 480, 1, 0.5)).toThrow(InvalidOptionError);
  });
});

describe('MarkerAnchor', () => {
  it('follows its marker: found once, update each frame, lost once, hidden while lost', () => {
    const anchor = new MarkerAnchor(7);
    const events: string[] = [];
    anchor.found.subscribe((p) => events.push(`found ${p.id}`));
    anchor.update.subscribe((p) => events.push(`update ${p.tvec[2]}`));
    anchor.lost.subscribe(() => events.push('lost'));
    const frames = [[], [pose(7, [Math.PI, 0, 0], [0, 0, 0.5])], [pose(3, [Math.PI, 0, 0], [0, 0, 1]), pose(7, [Math.PI, 0, 0], [0, 0, 0.6])], [pose(3, [Math.PI, 0, 0], [0, 0, 1])], []];
    const visible = frames.map((markers) => (anchor.follow({ markers, boards: [], events: [] }), anchor.visible));
    expect(visible).toEqual([false, true, true, false, false]);
    expect(events).toEqual(['found 7', 'update 0.5', 'update 0.6', 'lost']);
    anchor.follow({ markers: [pose(7, [Math.PI, 0, 0], [0.1, 0.2, 0.7])], boards: [], events: [] });
    // Facing the camera (rotated half a turn about x): three.js's axes flip y and z, so the matrix is the identity
    // rotation with the translation's y and z turned over.
    expect(anchor.matrix.elements.map((v) => Math.round(v * 1e9) / 1e9 + 0)).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.1, -0.2, -0.7, 1]);
    let completed = 0;
    anchor.found.subscribe({ complete: () => completed++ });
    anchor.dispose();
    expect(completed).toBe(1);
    expect(() => new MarkerAnchor(-1)).toThrow(InvalidOptionError);
  });

  it('follows a marker of one dictionary where told, not another of its id', () => {
    const april = new MarkerAnchor(7, 'DICT_APRILTAG_36h11');
    const any = new MarkerAnchor(7);
    const markers = [pose(7, [Math.PI, 0, 0], [0, 0, 0.5]), { ...pose(7, [Math.PI, 0, 0], [0, 0, 0.9]), dictionary: 'DICT_APRILTAG_36h11' }];
    for (const a of [april, any]) a.follow({ markers, boards: [], events: [] });
    expect([april.pose!.tvec[2], any.pose!.tvec[2]]).toEqual([0.9, 0.5]);
    april.follow({ markers: markers.slice(0, 1), boards: [], events: [] });
    expect(april.visible).toBe(false);
    expect(() => new MarkerAnchor(7, '')).toThrow(InvalidOptionError);
    expect(() => new MarkerAnchor({ board: 'b' }, 'DICT_4X4_50')).toThrow(InvalidOptionError);
  });

  it("follows a board by name, whatever its markers' own poses", () => {
    const anchor = new MarkerAnchor({ board: 'table' });
    const board = (board: string, tvec: [number, number, number]): BoardPose => ({ board, rvec: [0, 0, 0], tvec, quaternion: [0, 0, 0, 1], error: 0.2, alternative: null, ambiguous: false, seen: true, markers: [4] });
    const events: string[] = [];
    anchor.found.subscribe((p) => events.push(`found ${p.board}`));
    anchor.lost.subscribe(() => events.push('lost'));
    const marker = pose(4, [Math.PI, 0, 0], [0, 0, 0.3]);
    const frames: [MarkerPose[], BoardPose[]][] = [[[marker], []], [[marker], [board('other', [0, 0, 2]), board('table', [0.1, 0.2, 0.7])]], [[], [board('other', [0, 0, 2])]]];
    const visible = frames.map(([markers, boards]) => (anchor.follow({ markers, boards, events: [] }), anchor.visible));
    expect(visible).toEqual([false, true, false]);
    expect(events).toEqual(['found table', 'lost']);
    expect([anchor.markerId, anchor.boardName, anchor.name]).toEqual([null, 'table', 'board table']);
    // The board's frame (x right, y down, z into the board) as three.js's: y and z turned over with the translation.
    anchor.follow({ markers: [], boards: [board('table', [0.1, 0.2, 0.7])], events: [] });
    expect(anchor.matrix.elements.map((v) => Math.round(v * 1e9) / 1e9 + 0)).toEqual([1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0.1, -0.2, -0.7, 1]);
    expect(() => new MarkerAnchor({ board: '' })).toThrow(InvalidOptionError);
  });
});

describe('TrackOverlay', () => {
  const track = (id: number, state: TrackInfo['state'], trail: number): TrackInfo => ({
    id,
    state,
    box: [10, 20, 30, 50],
    cx: 20,
    cy: 35,
    vx: 0,
    vy: 0,
    blob: 0,
    age: 5,
    unseen: 0,
    merged: false,
    group: -1,
    trail: Array.from({ length: trail }, (_, i) => [i, i] as const),
  });

  it('draws a box and a trail per track of the states asked for, and grows past its first capacity', () => {
    const overlay = new TrackOverlay();
    overlay.follow({ tracks: [track(1, 'confirmed', 5), track(2, 'tentative', 9), track(3, 'lost', 1)], events: [], counts: {}, onLine: {}, zones: {} });
    // confirmed: 4 box sides + 4 trail steps; lost: 4 sides; tentative: not drawn.
    expect(overlay.segments).toBe(12);
    const many = Array.from({ length: 300 }, (_, i) => track(i, 'confirmed', 3));
    overlay.follow({ tracks: many, events: [], counts: {}, onLine: {}, zones: {} });
    expect(overlay.segments).toBe(300 * 6);
    const noTrails = new TrackOverlay({ trails: false, states: ['tentative'] });
    noTrails.follow({ tracks: [track(1, 'confirmed', 5), track(2, 'tentative', 9)], events: [], counts: {}, onLine: {}, zones: {} });
    expect(noTrails.segments).toBe(4);
    expect(() => new TrackOverlay({ states: ['gone' as never] })).toThrow(InvalidOptionError);
    overlay.dispose();
  });

  it('pixelCamera maps pixel centres to clip space as the picture behind lies, from over its middle', () => {
    const camera = pixelCamera(320, 240);
    const clip = (x: number, y: number) => new Vector3(x, y, 0).applyMatrix4(camera.matrixWorldInverse).applyMatrix4(camera.projectionMatrix);
    const [corner, far] = [clip(-0.5, -0.5), clip(319.5, 239.5)];
    [corner.x, corner.y, far.x, far.y].forEach((v, i) => expect(v).toBeCloseTo([-1, 1, 1, -1][i], 12));
    expect([camera.position.x, camera.position.y]).toEqual([159.5, 119.5]);
    expect(() => pixelCamera(300, 100)).toThrow(InvalidOptionError);
    expect(() => pixelCamera(0, 100)).toThrow(InvalidOptionError);
  });
});

describe('refusals', () => {
  it('CameraBackground refuses a bad keep and a result without its picture; createRenderer a bad size', async () => {
    const ctx = {} as never;
    expect(() => new CameraBackground(ctx, { keep: 0 })).toThrow(InvalidOptionError);
    expect(() => new CameraBackground(ctx).show({})).toThrow(InvalidOptionError);
    await expect(createRenderer(ctx, { width: 0, height: 10 })).rejects.toThrow(InvalidOptionError);
  });
});
