// The `flowmark markers` command as a user runs it: a PNG (or JPEG) of markers in, DIR/<name>.json out with the markers the
// CPU reference finds, at its corners; the shipped clip in, one JSON line per frame near the true corners; bad
// dictionary names and options refused with the usage.
import { describe, expect, it, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { markerDictionary, type Mat3 } from '../../index.js';
import { rotationBetween, rotationFromVector } from '../../extend.js';
import { cornersAtPose, detectMarkersCpu, markerScene } from '../../reference.js';

const cli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const clip = fileURLToPath(new URL('../../examples/data/markers.mp4', import.meta.url));
const truth = JSON.parse(readFileSync(fileURLToPath(new URL('../../examples/data/markers.json', import.meta.url)), 'utf8')) as { frames: { id: number; corners: [number, number][] }[][] };
const dir = mkdtempSync(join(tmpdir(), 'flowmark-cli-markers-'));
const dict = markerDictionary('DICT_6X6_250');
const scene = markerScene(4400, { width: 360, height: 260, markerSize: 6, bits: (id) => dict.bits(id), ids: [5, 77, 201], side: [50, 90], maxTilt: 35, blur: 0.5, noise: 2, clutter: 5 });

// A frame of two markers at known poses seen by a known pinhole camera (fx, fy, cx, cy), 5 cm markers.
const posed = [
  { id: 9, R: rotationFromVector([2.7, 0.5, 0.3]), t: [-0.06, 0.01, 0.32] },
  { id: 130, R: rotationFromVector([-2.5, -0.2, 0.6]), t: [0.07, -0.02, 0.36] },
];
const poseScene = markerScene(4401, {
  width: 360, height: 260, markerSize: 6, bits: (id) => dict.bits(id), ids: posed.map((p) => p.id), side: [50, 50], maxTilt: 0, blur: 0.6, noise: 2, clutter: 4,
  place: (k) => ({ corners: cornersAtPose({ fx: 400, fy: 400, cx: 180, cy: 130 }, posed[k], 0.05) }),
});

function writeGrayPng(path: string, s: { width: number; height: number; gray: Uint8Array }) {
  const png = new PNG({ width: s.width, height: s.height, colorType: 0, inputColorType: 6 });
  for (let p = 0; p < s.width * s.height; p++) png.data.set([s.gray[p], s.gray[p], s.gray[p], 255], 4 * p);
  writeFileSync(path, PNG.sync.write(png, { colorType: 0, inputColorType: 6 }));
}

function run(args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 180_000 });
}

beforeAll(() => {
  expect(existsSync(cli), 'build first: npm run build').toBe(true);
  writeGrayPng(join(dir, 'board.png'), scene);
  writeGrayPng(join(dir, 'posed.png'), poseScene);
});

describe('flowmark markers', () => {
  it('writes DIR/<name>.json with the markers of an image, as the CPU reference finds them', () => {
    const out = join(dir, 'image-out');
    const r = run(['markers', join(dir, 'board.png'), '--dictionary', 'dict_6x6_250', '--out-dir', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/board\.png: 360x260, 3 markers/);
    const json = JSON.parse(readFileSync(join(out, 'board.json'), 'utf8'));
    const want = detectMarkersCpu(scene.gray, scene.width, scene.height, dict);
    expect(json.width).toBe(360);
    expect(json.height).toBe(260);
    expect(json.markers.map((m: { id: number }) => m.id)).toEqual(want.map((m) => m.id));
    json.markers.forEach((m: { id: number; dictionary: string; corners: number[][] }, k: number) => {
      expect(Object.keys(m)).toEqual(['id', 'dictionary', 'corners']);
      expect(m.dictionary).toBe('DICT_6X6_250');
      m.corners.forEach((c, j) => expect(Math.hypot(c[0] - want[k].corners[j][0], c[1] - want[k].corners[j][1])).toBeLessThan(0.01));
      const t = scene.markers.find((x) => x.id === m.id)!;
      m.corners.forEach((c, j) => expect(Math.hypot(c[0] - t.corners[j][0], c[1] - t.corners[j][1])).toBeLessThan(0.5));
    });
  });

  it('reads a JPEG as it reads the PNG, and carries on past inputs it cannot read (exit 1)', () => {
    const jpeg = join(dir, 'board-photo.jpg');
    expect(spawnSync('ffmpeg', ['-v', 'error', '-y', '-i', join(dir, 'board.png'), '-q:v', '2', jpeg]).status).toBe(0);
    const cut = join(dir, 'cut.png');
    writeFileSync(cut, readFileSync(join(dir, 'board.png')).subarray(0, 3000));
    const out = join(dir, 'jpeg-out');
    const r = run(['markers', join(dir, 'gone.png'), cut, jpeg, '--dictionary', 'DICT_6X6_250', '--out-dir', out]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${join(dir, 'gone.png')}: error: cannot read (no such file)`);
    expect(r.stderr).toContain(`${cut}: error: corrupt PNG (cut short`);
    expect(existsSync(join(out, 'cut.json'))).toBe(false);
    const json = JSON.parse(readFileSync(join(out, 'board-photo.json'), 'utf8'));
    expect(json.markers.map((m: { id: number }) => m.id).sort((a: number, b: number) => a - b)).toEqual([5, 77, 201]);
    for (const m of json.markers as { id: number; corners: number[][] }[]) {
      const t = scene.markers.find((x) => x.id === m.id)!;
      m.corners.forEach((c, j) => expect(Math.hypot(c[0] - t.corners[j][0], c[1] - t.corners[j][1])).toBeLessThan(0.6));
    }
  });

  it('writes one JSON line per frame of a video, the markers near their true corners', () => {
    const out = join(dir, 'video-out');
    const r = run(['markers', clip, '--dictionary', 'DICT_4X4_50', '--out-dir', out]);
    expect(r.status, r.stderr).toBe(0);
    const lines = readFileSync(join(out, 'markers.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBe(truth.frames.length);
    const errs: number[] = [];
    let found = 0;
    lines.forEach((line, i) => {
      expect(line.frame).toBe(i);
      expect(Object.keys(line)).toEqual(['frame', 'timeUs', 'markers']);
      for (const m of line.markers) {
        const t = truth.frames[i].find((x) => x.id === m.id);
        expect(t, `frame ${i}: marker ${m.id} is not in the clip`).toBeDefined();
        found++;
        m.corners.forEach((c: number[], j: number) => errs.push(Math.hypot(c[0] - t!.corners[j][0], c[1] - t!.corners[j][1])));
      }
    });
    // H.264 at CRF 24 softens the edges: nearly every marker, within a few tenths of a pixel.
    expect(found).toBeGreaterThanOrEqual(0.95 * truth.frames.reduce((s, f) => s + f.length, 0));
    expect(Math.sqrt(errs.reduce((s, e) => s + e * e, 0) / errs.length)).toBeLessThan(0.3);
  });

  it('adds each marker\'s pose with --camera (or an OpenCV calibration file) and --marker-size: within 1° and 1 % of the truth', () => {
    const png = join(dir, 'posed.png');
    const calibration = join(dir, 'camera.yml');
    writeFileSync(calibration, '%YAML:1.0\n---\ncamera_matrix: !!opencv-matrix\n   rows: 3\n   cols: 3\n   dt: d\n   data: [ 400., 0., 180., 0., 400.,\n       130., 0., 0., 1. ]\ndistortion_coefficients: !!opencv-matrix\n   rows: 1\n   cols: 5\n   dt: d\n   data: [ 0., 0., 0., 0., 0. ]\n');
    for (const cameraArgs of [['--camera', '400,400,180,130'], ['--camera-file', calibration]]) {
      const out = join(dir, `pose-out-${cameraArgs[0].slice(2)}`);
      const r = run(['markers', png, '--dictionary', 'DICT_6X6_250', '--out-dir', out, ...cameraArgs, '--marker-size', '0.05']);
      expect(r.status, r.stderr).toBe(0);
      const json = JSON.parse(readFileSync(join(out, 'posed.json'), 'utf8'));
      expect(json.markers.map((m: { id: number }) => m.id).sort((a: number, b: number) => a - b)).toEqual([9, 130]);
      for (const m of json.markers) {
        expect(Object.keys(m)).toEqual(['id', 'dictionary', 'corners', 'rvec', 'tvec', 'quaternion', 'error']);
        const want = posed.find((p) => p.id === m.id)!;
        expect(rotationBetween(rotationFromVector(m.rvec), want.R as Mat3) * (180 / Math.PI)).toBeLessThan(1);
        expect(Math.hypot(m.tvec[0] - want.t[0], m.tvec[1] - want.t[1], m.tvec[2] - want.t[2]) / Math.hypot(...want.t)).toBeLessThan(0.01);
      }
    }
    // Each refused for what is wrong with it: a bad camera as the camera's problem, though --marker-size is missing too.
    for (const [args, why] of [
      [['--camera', '400,400,180'], '--camera: expected fx,fy,cx,cy'],
      [['--camera', '400,400,180,130'], 'a pose needs --marker-size'],
      [['--marker-size', '0.05'], 'a pose needs one of --camera or --camera-file'],
      [['--camera', '400,400,180,130', '--marker-size', '-1'], '--marker-size must be a positive number, got -1'],
      [['--camera-file', join(dir, 'missing.yml'), '--marker-size', '1'], '--camera-file: cannot read'],
    ] as const) {
      const r = run(['markers', png, '--dictionary', 'DICT_6X6_250', '--out-dir', dir, ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/Usage: flowmark markers/);
      expect(r.stderr, args.join(' ')).toContain(why);
    }
  });

  it('reads several dictionaries given as --dictionary A,B, each marker naming its own', () => {
    const out = join(dir, 'multi-out');
    const r = run(['markers', join(dir, 'board.png'), '--dictionary', 'DICT_APRILTAG_16h5,dict_6x6_250', '--out-dir', out]);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(out, 'board.json'), 'utf8'));
    const want = detectMarkersCpu(scene.gray, scene.width, scene.height, [markerDictionary('DICT_APRILTAG_16h5'), dict]);
    expect(json.markers.map((m: { id: number; dictionary: string }) => `${m.dictionary} ${m.id}`)).toEqual(want.map((m) => `${m.dictionary} ${m.id}`));
    expect(json.markers.map((m: { id: number; dictionary: string }) => `${m.dictionary} ${m.id}`).sort()).toEqual(['DICT_6X6_250 201', 'DICT_6X6_250 5', 'DICT_6X6_250 77']);
  });

  it('refuses a missing or unknown dictionary and bad options with the usage (exit 2)', () => {
    const png = join(dir, 'board.png');
    for (const args of [
      ['markers', png, '--out-dir', dir],
      ['markers', png, '--dictionary', 'DICT_9X9_7', '--out-dir', dir],
      ['markers', png, '--dictionary', 'DICT_4X4_50,DICT_9X9_7', '--out-dir', dir],
      ['markers', png, '--dictionary', 'DICT_4X4_50,dict_4x4_50', '--out-dir', dir],
      ['markers', png, '--dictionary', 'DICT_4X4_50', '--windows', '31,8', '--out-dir', dir],
      ['markers', png, '--dictionary', 'DICT_4X4_50', '--offset', '1e2', '--out-dir', dir],
      ['markers', png, '--dictionary', 'DICT_4X4_50'],
    ]) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/Usage: flowmark markers/);
    }
    const r = run(['markers', png, '--dictionary', 'DICT_9X9_7', '--out-dir', dir]);
    expect(r.stderr).toMatch(/DICT_4X4_50/); // names the dictionaries there are
  });
});
