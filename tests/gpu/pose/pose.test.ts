// pose() after markers() on the GPU: frames rendered from known marker poses seen by a known camera; the poses
// found are within 1° and 1 % of the distance of the truth (the bound for AR anchors), streams keep each
// marker's flip, and bad input is refused with typed errors.
import { lastValueFrom, of, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidFrameError, InvalidOptionError, cameraModel, markerDictionary, markers, pose, type FrameResult, type GpuContext, type Mat3 } from '../../../index.js';
import { mul3, rotationBetween, rotationFromVector } from '../../../extend.js';
import { cornersAtPose, markerScene } from '../../../reference.js';
import { gray, run, testContext } from '../../support/gpu.js';

const deg = 180 / Math.PI;
const camera = cameraModel({ fx: 610, fy: 600, cx: 322, cy: 238 });
// A lens that bends: its distortion puts the markers' corners where the scene draws them (the render keeps the edges
// between corners straight, where a real lens curves them slightly; the corners are what a pose is made from).
const barrel = cameraModel({ fx: 610, fy: 600, cx: 322, cy: 238, distortion: [-0.22, 0.07, 0.0008, -0.0011, -0.01] });
const facing = rotationFromVector([Math.PI, 0, 0]);

describe('pose() after markers()', () => {
  let ctx: GpuContext;
  beforeAll(async () => {
    ctx = await testContext();
  });
  afterAll(() => ctx?.destroy());

  it.each([
    ['a pinhole camera', camera] as const,
    ['a lens with barrel distortion', barrel] as const,
  ])('finds each marker within 1° and a hundredth of its distance, over frames of tilted markers, through %s', async (_, camera) => {
    const d = markerDictionary('DICT_4X4_50');
    const side = 0.06;
    const truths: { id: number; R: Mat3; t: number[] }[][] = [];
    const frames = Array.from({ length: 6 }, (_, f) => {
      const placed = [0, 1, 2].map((k) => {
        const tilt = (20 + 12 * f + 7 * k) % 60 + 15;
        const axis = (f * 1.3 + k * 2.1) % Math.PI;
        const R = mul3(rotationFromVector([Math.cos(axis) * tilt / deg, Math.sin(axis) * tilt / deg, 0.4 * k - 0.4]), facing);
        const t = [-0.09 + 0.09 * k, ((f % 3) - 1) * 0.03, 0.3 + 0.05 * k + 0.02 * f];
        return { id: 3 * f + k, R, t };
      });
      truths.push(placed);
      return markerScene(900 + f, {
        width: 640,
        height: 480,
        markerSize: 4,
        bits: (id) => d.bits(id),
        ids: placed.map((p) => p.id),
        side: [60, 60],
        maxTilt: 0,
        blur: 0.7,
        noise: 2,
        clutter: 6,
        place: (k) => ({ corners: cornersAtPose(camera, placed[k], side) }),
      });
    });
    const results = await run(ctx, frames.map((s) => gray(s.width, s.height, s.gray)), markers({ dictionary: 'DICT_4X4_50' }));
    const posed = await lastValueFrom(of(...results).pipe(pose({ camera, markerSize: side, smoothing: false }), toArray()));
    let checked = 0;
    posed.forEach((r, f) => {
      for (const truth of truths[f]) {
        const p = r.poses!.markers.find((m) => m.id === truth.id);
        expect(p, `frame ${f} marker ${truth.id} (found ${r.markers!.found.map((m) => m.id)})`).toBeDefined();
        const distance = Math.hypot(truth.t[0], truth.t[1], truth.t[2]);
        expect(rotationBetween(rotationFromVector(p!.rvec), truth.R) * deg, `frame ${f} marker ${truth.id}: rotation`).toBeLessThan(1);
        expect(Math.hypot(p!.tvec[0] - truth.t[0], p!.tvec[1] - truth.t[1], p!.tvec[2] - truth.t[2]) / distance, `frame ${f} marker ${truth.id}: translation`).toBeLessThan(0.01);
        expect(p!.error).toBeLessThan(0.5);
        checked++;
      }
    });
    expect(checked).toBe(18);
  });

  it('refuses bad options and results without markers with typed errors', async () => {
    expect(() => pose({ camera, markerSize: -1 })).toThrow(InvalidOptionError);
    expect(() => pose({ camera: { fx: 0, fy: 1, cx: 0, cy: 0 }, markerSize: 1 })).toThrow(InvalidOptionError);
    expect(() => pose(undefined as never)).toThrow(InvalidOptionError);
    const bare: FrameResult = { seq: 0, timeUs: 0, width: 4, height: 4, timings: [] };
    await expect(lastValueFrom(of(bare).pipe(pose({ camera, markerSize: 1 })))).rejects.toThrow(InvalidFrameError);
  });
});
