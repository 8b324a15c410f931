// The board example (examples/browser/board.html) in headless Chromium: the fake camera plays a .y4m of a 4 × 3 grid
// board rendered from a known pose through a known camera, two of its markers hidden under something. The board's
// anchor follows the board's pose (from the markers left) within 1° and 1 % of the distance, and the rendered
// canvas shows the tower's top where the pose projects it and the camera picture everywhere else.
import { describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeCameraArgs, y4m } from '../support/chromium.js';
import { chromiumSession } from '../support/chromiumSession.js';
import { canvasPixels, median, openExample, pictureOutside, rgb, settle } from '../support/arPage.js';
import { cameraModel, gridBoard, markerDictionary, projectPoints, type BoardPose } from '../../index.js';
import { rotationBetween, rotationFromVector } from '../../extend.js';
import { boardScene, rng } from '../../reference.js';
import { apply3 } from '../../src/pose/rotation.js';
// @ts-expect-error: a plain .mjs script without types
import { exampleFiles } from '../../scripts/serve-example.mjs';

const deg = 180 / Math.PI;
const camera = cameraModel({ fx: 600, fy: 600, cx: 319.5, cy: 239.5 });
const board = gridBoard({ name: 'board', columns: 4, rows: 3, markerSize: 0.04, separation: 0.01 });
/** The board's middle, in its frame. */
const middle = [0.095, 0.07, 0];
// Its frame is x right, y down, z into the board: no turn is the board facing the camera, upright.
const R = rotationFromVector([0.35, -0.3, 0.1]);
const Rm = apply3(R, middle);
const truth = { R, t: [0.01 - Rm[0], 0.005 - Rm[1], 0.5 - Rm[2]] };
/** Markers 5 and 6, in the board's middle under the tower, are covered. */
const hidden = [5, 6];

const dict = markerDictionary('DICT_4X4_50');
const scene = boardScene(7402, camera, board, truth, { width: 640, height: 480, markerSize: 4, bits: (id) => dict.bits(id), blur: 0.6, noise: 2, clutter: 4 });
// Something standing on the board over the hidden markers: a textured patch over their quads and a margin.
const cover = hidden.map((id) => {
  const q = board.markers[id].corners;
  const c = [0, 1].map((k) => (q[0][k] + q[1][k] + q[2][k] + q[3][k]) / 4);
  return projectPoints(camera, truth.R, truth.t, q.map(([x, y]) => [c[0] + 1.2 * (x - c[0]), c[1] + 1.2 * (y - c[1]), 0]));
});
{
  const r = rng(5);
  const inside = (q: number[][], x: number, y: number) => q.every((p, i) => {
    const n = q[(i + 1) % 4];
    return (n[0] - p[0]) * (y - p[1]) - (n[1] - p[1]) * (x - p[0]) >= 0;
  });
  for (let y = 0; y < scene.height; y++) {
    for (let x = 0; x < scene.width; x++) if (cover.some((q) => inside(q, x, y))) scene.gray[y * scene.width + x] = 110 + Math.round(r() * 30 + 20 * Math.sin(x / 5));
  }
}

interface Seen {
  frames: number;
  width: number;
  height: number;
  faceColors: string[];
  tower: { side: number; height: number; centre: number[] };
  anchor: { visible: boolean; pose: BoardPose | null };
  found: number;
  renderMs: number[];
  error: string;
}

const session = chromiumSession(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'flowmark-board-camera-')), 'board.y4m');
  writeFileSync(file, y4m(scene.gray, scene.width, scene.height, 10));
  return { files: await exampleFiles(), args: fakeCameraArgs(file) };
});

describe('the board example', () => {
  it('follows the board from the markers left uncovered and draws the tower on it over the camera picture', async () => {
    const params = `camera=${camera.fx},${camera.fy},${camera.cx},${camera.cy}&board=4,3,0.04,0.01,0`;
    const { page, seen, mapped, errors } = await openExample<Seen>(() => session.browser.newPage(), onTestFinished, new URL(`board.html?${params}`, `${session.url}/`).href, 'flowmarkBoard', 10);
    expect(errors).toEqual([]);
    expect(seen.error).toBe('');
    expect([seen.width, seen.height]).toEqual([640, 480]);
    expect(seen.found).toBe(1);

    // The anchor: shown, at the board's true pose, from the markers not covered.
    expect(seen.anchor.visible).toBe(true);
    const p = seen.anchor.pose!;
    expect(p.board).toBe('board');
    expect(p.markers.filter((id) => hidden.includes(id))).toEqual([]);
    expect(p.markers.length).toBeGreaterThanOrEqual(8);
    const distance = Math.hypot(truth.t[0] + Rm[0], truth.t[1] + Rm[1], truth.t[2] + Rm[2]);
    expect(rotationBetween(rotationFromVector(p.rvec), truth.R) * deg, 'rotation').toBeLessThan(1);
    expect(Math.hypot(p.tvec[0] - truth.t[0], p.tvec[1] - truth.t[1], p.tvec[2] - truth.t[2]) / distance, 'translation').toBeLessThan(0.01);
    // Only results come back: under a tenth of a frame's RGBA.
    expect(Object.values(mapped).flat().reduce((s, v) => s + v, 0) / seen.frames).toBeLessThan(0.1 * 640 * 480 * 4);

    // The canvas: the tower's top (its −z face, toward the camera) where the pose projects it...
    await settle(page, 'flowmarkBoard');
    const { at } = await canvasPixels(page, 640, 480, process.env.FLOWMARK_SCREENSHOT?.replace(/\.png$/, '-board.png'));
    const { side, height, centre } = seen.tower;
    const top = rgb(seen.faceColors[5]);
    const [x, y] = projectPoints(camera, truth.R, truth.t, [[centre[0], centre[1], -height]])[0];
    const spots = [[0, 0], [0.3, 0.3], [-0.3, 0.3], [0.3, -0.3], [-0.3, -0.3]].map(([u, v]) => projectPoints(camera, truth.R, truth.t, [[centre[0] + u * side, centre[1] + v * side, -height]])[0]);
    for (const [sx, sy] of spots) {
      const c = at(sx, sy);
      expect(Math.max(...c.map((v, i) => Math.abs(v - top[i]))), `tower top at (${sx.toFixed(0)}, ${sy.toFixed(0)}): ${c}`).toBeLessThan(24);
    }
    // ...and the camera picture everywhere outside the tower, in place.
    const corners = projectPoints(camera, truth.R, truth.t, [-1, 1].flatMap((u) => [-1, 1].flatMap((v) => [0, -height].map((z) => [centre[0] + (u * side) / 2, centre[1] + (v * side) / 2, z]))));
    const box = [Math.min(...corners.map((q) => q[0])) - 4, Math.min(...corners.map((q) => q[1])) - 4, Math.max(...corners.map((q) => q[0])) + 4, Math.max(...corners.map((q) => q[1])) + 4];
    const picture = pictureOutside(at, scene.gray, 640, 480, [box]);
    expect(picture.notGray).toEqual([]);
    expect(picture.samples).toBeGreaterThan(4000);
    expect(picture.inPlace).toBeGreaterThan(0.9);
    for (const shifted of picture.shifted) expect(shifted).toBeLessThan(picture.inPlace);
    console.log(`board: ${seen.frames} frames, pose from ${p.markers.length} markers, error ${p.error.toFixed(3)} px, top at (${x.toFixed(0)}, ${y.toFixed(0)}), result → rendered median ${median(seen.renderMs).toFixed(1)} ms, correlation ${picture.inPlace.toFixed(3)} (SwiftShader)`);
  }, 480_000);
});
