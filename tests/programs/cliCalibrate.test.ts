// `flowmark calibrate` as a user runs it: eight PNG photos (and the same as JPEGs) of a printed grid board, rendered through a known lens
// (intrinsics and distortion) at known tilts, in; OpenCV's calibration YAML out, which OpenCV's own FileStorage
// reads back (Debian's python3-opencv, a test-time reference) to the lens the photos were taken with. Markers are
// found on the GPU (Dawn); bad arguments are refused with the usage.
import { describe, expect, it, beforeAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { cameraModel, charucoBoard, gridBoard, markerDictionary, projectPoints, readOpenCvCalibration } from '../../index.js';
import { rotationFromVector } from '../../extend.js';
import { boardPhotos } from '../../reference.js';

const cli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'flowmark-cli-calibrate-'));
const [width, height] = [640, 480];
const lens = cameraModel({ fx: 604, fy: 596, cx: 323.5, cy: 236.5, distortion: [-0.16, 0.05, 0, 0, 0] });
const board = gridBoard({ name: 'print', columns: 6, rows: 4, markerSize: 0.04, separation: 0.01 });
const dict = markerDictionary('DICT_4X4_50');
const photos: string[] = [];
// A 7 × 5 ChArUco board of 4 cm squares (3 cm markers), eight views through the same lens, as PNGs and as one video.
const charuco = charucoBoard({ squaresX: 7, squaresY: 5, squareLength: 0.04, markerLength: 0.03, dictionary: 'DICT_4X4_50' });
const charucoPhotos: string[] = [];

function writeGrayPng(path: string, s: { width: number; height: number; gray: Uint8Array }) {
  const png = new PNG({ width: s.width, height: s.height, colorType: 0, inputColorType: 6 });
  for (let p = 0; p < s.width * s.height; p++) png.data.set([s.gray[p], s.gray[p], s.gray[p], 255], 4 * p);
  writeFileSync(path, PNG.sync.write(png, { colorType: 0, inputColorType: 6 }));
}

const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 180_000 });

beforeAll(() => {
  expect(existsSync(cli), 'build first: npm run build').toBe(true);
  // Eight views: 0.45–0.6 m away, tilted 20–40° every way, every corner in the frame.
  const views = boardPhotos(lens, board, 8, 77, { width, height, markerSize: 4, bits: (id) => dict.bits(id), tilt: [20, 40], distance: [0.45, 0.6], blur: 0.6, noise: 2 });
  views.forEach((v, k) => {
    const path = join(dir, `view-${k}.png`);
    writeGrayPng(path, v.scene);
    photos.push(path);
  });
  boardPhotos(lens, charuco, 8, 78, { width, height, markerSize: 4, bits: (id) => dict.bits(id), tilt: [20, 40], distance: [0.32, 0.45], blur: 0.6, noise: 2 }).forEach((v, k) => {
    const path = join(dir, `charuco-${k}.png`);
    writeGrayPng(path, v.scene);
    charucoPhotos.push(path);
  });
});

describe('flowmark calibrate', () => {
  it('writes the lens of the photos as OpenCV calibration YAML, which OpenCV reads back', () => {
    const out = join(dir, 'calibration.yml');
    const r = run(['calibrate', ...photos, '--dictionary', 'DICT_4X4_50', '--board', '6,4,0.04,0.01', '--out', out]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^8 views of 8 frames/);
    const yaml = readFileSync(out, 'utf8');
    const script = `
import cv2, json, sys
fs = cv2.FileStorage(sys.argv[1], cv2.FILE_STORAGE_READ)
print(json.dumps({'K': fs.getNode('camera_matrix').mat().ravel().tolist(), 'd': fs.getNode('distortion_coefficients').mat().ravel().tolist(), 'w': fs.getNode('image_width').real(), 'e': fs.getNode('avg_reprojection_error').real()}))`;
    const cv = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, out]).toString());
    const ours = readOpenCvCalibration(yaml);
    expect([ours.fx, ours.cx, ours.fy, ours.cy]).toEqual([cv.K[0], cv.K[2], cv.K[4], cv.K[5]]);
    expect(ours.distortion).toEqual(cv.d);
    expect(cv.w).toBe(width);
    // The lens the photos were taken with: focal lengths within 0.3 %, principal point within 1.5 px, k1 within 0.01,
    // and the corners fit to a fraction of a pixel (measured: 0.01 %, 0.07 px, 0.0011, 0.04 px).
    expect(Math.abs(ours.fx - lens.fx) / lens.fx).toBeLessThan(0.003);
    expect(Math.abs(ours.fy - lens.fy) / lens.fy).toBeLessThan(0.003);
    expect(Math.hypot(ours.cx - lens.cx, ours.cy - lens.cy)).toBeLessThan(1.5);
    expect(Math.abs(ours.distortion[0] - lens.distortion[0])).toBeLessThan(0.01);
    expect(cv.e).toBeLessThan(0.2);
    // Where it matters: the calibrated lens puts the board's corners where the true one does, across the frame.
    const R = rotationFromVector([0.3, -0.25, 0.05]);
    const t = [-0.14, -0.09, 0.5];
    const points = board.markers.flatMap((m) => m.corners);
    const a = projectPoints(ours, R, t, points);
    const b = projectPoints(lens, R, t, points);
    expect(Math.max(...a.map((p, i) => Math.hypot(p[0] - b[i][0], p[1] - b[i][1])))).toBeLessThan(1.5);
  });

  it('reads JPEG photos, and carries on past inputs it cannot read, saying each (exit 1)', () => {
    const jpegs = photos.map((png) => {
      const jpeg = png.replace(/\.png$/, '.jpg');
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', png, '-q:v', '2', jpeg]);
      return jpeg;
    });
    const cut = join(dir, 'cut.png');
    writeFileSync(cut, readFileSync(photos[0]).subarray(0, 5000));
    const out = join(dir, 'from-jpeg.yml');
    const r = run(['calibrate', cut, ...jpegs, join(dir, 'gone.jpg'), '--dictionary', 'DICT_4X4_50', '--board', '6,4,0.04,0.01', '--out', out]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${cut}: error: corrupt PNG (cut short`);
    expect(r.stderr).toContain(`${join(dir, 'gone.jpg')}: error: cannot read (no such file)`);
    // A line per input read, as it is done.
    expect(r.stderr).toContain(`${jpegs[0]} (2/10): 1 frame, 24 markers`);
    expect(r.stdout).toMatch(/^8 views of 8 frames/);
    const ours = readOpenCvCalibration(readFileSync(out, 'utf8'));
    // JPEG's loss moves the corners a little: the focal lengths within 0.5 %.
    expect(Math.abs(ours.fx - lens.fx) / lens.fx).toBeLessThan(0.005);
    expect(Math.abs(ours.fy - lens.fy) / lens.fy).toBeLessThan(0.005);
  });

  it('checks where it writes before any work: a missing folder, a folder given as the file, a place that takes no files', () => {
    // The input does not exist either: the output is found wrong first, so no input was read.
    const missing = join(dir, 'no-such-photo.png');
    for (const [out, why] of [
      [join(dir, 'no-such-folder', 'cal.yml'), `the folder ${join(dir, 'no-such-folder')} does not exist`],
      [dir, 'is a folder'],
      ['/proc/self/cal.yml', 'cannot write it'],
    ]) {
      const r = run(['calibrate', missing, '--dictionary', 'DICT_4X4_50', '--board', '6,4,0.04,0.01', '--out', out]);
      expect(r.status, out).toBe(1);
      expect(r.stderr).toContain(`--out ${out}: ${why}`);
      expect(r.stderr).not.toContain('no-such-photo');
    }
    // An existing file is left as it was by the check.
    const kept = join(dir, 'kept.yml');
    writeFileSync(kept, 'before\n');
    expect(run(['calibrate', missing, '--dictionary', 'DICT_4X4_50', '--board', '6,4,0.04,0.01', '--out', kept]).status).toBe(1);
    expect(readFileSync(kept, 'utf8')).toBe('before\n');
    // The other commands' output folders: one that exists but takes no files is refused before any input is read.
    for (const command of ['label', 'markers', 'track']) {
      const r = run([command, command === 'track' ? join(dir, 'none.mp4') : missing, '--out-dir', '/proc/self', ...(command === 'markers' ? ['--dictionary', 'DICT_4X4_50'] : [])]);
      expect(r.status, command).toBe(1);
      expect(r.stderr, command).toContain('--out-dir /proc/self: cannot write files in /proc/self');
      expect(r.stderr, command).not.toMatch(/no-such-photo|none\.mp4/);
    }
  });

  it("calibrates from ChArUco photos and from a video of them, as exactly as OpenCV's calibrateCameraCharuco or better", () => {
    const out = join(dir, 'charuco.yml');
    const r = run(['calibrate', ...charucoPhotos, '--dictionary', 'DICT_4X4_50', '--charuco', '7,5,0.04,0.03', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^8 views of 8 frames/);
    expect(r.stdout).toContain(`${charucoPhotos[0]}: 24 corners, error`);
    const ours = readOpenCvCalibration(readFileSync(out, 'utf8'));
    const rms = Number(/RMS reprojection error ([\d.]+) px/.exec(r.stdout)![1]);
    // OpenCV 4.6 on the same photos: detectMarkers, interpolateCornersCharuco (its +0.5 px shift, opencv#25539,
    // taken off), calibrateCameraCharuco.
    const script = `
import cv2, json, sys, numpy as np
d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
b = cv2.aruco.CharucoBoard_create(7, 5, 0.04, 0.03, d)
C, I = [], []
for f in sys.argv[1:]:
    g = cv2.imread(f, cv2.IMREAD_GRAYSCALE)
    c, ids, _ = cv2.aruco.detectMarkers(g, d)
    n, cc, ci = cv2.aruco.interpolateCornersCharuco(c, ids, g, b)
    C.append(cc - 0.5); I.append(ci)
err, K, dist, _, _ = cv2.aruco.calibrateCameraCharuco(C, I, b, (${width}, ${height}), None, None)
print(json.dumps({'error': err, 'K': K.ravel().tolist()}))`;
    const cv = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, ...charucoPhotos]).toString()) as { error: number; K: number[] };
    const errors = (fx: number, fy: number, cx: number, cy: number) => ({ f: Math.max(Math.abs(fx - lens.fx) / lens.fx, Math.abs(fy - lens.fy) / lens.fy), pp: Math.hypot(cx - lens.cx, cy - lens.cy) });
    const mine = errors(ours.fx, ours.fy, ours.cx, ours.cy);
    const theirs = errors(cv.K[0], cv.K[4], cv.K[2], cv.K[5]);
    // Measured: RMS 0.058 px (OpenCV 0.086), focal lengths within 0.11 % (0.18 %), principal point 0.33 px (0.55).
    expect(rms).toBeLessThanOrEqual(cv.error);
    expect(mine.f).toBeLessThan(0.002);
    expect(mine.f).toBeLessThan(theirs.f);
    expect(mine.pp).toBeLessThan(1);

    // The same photos as the frames of a video (H.264, lossless but for limited-range luma's rounding): the same
    // calibration to 0.02 % and a tenth of a pixel.
    const video = join(dir, 'charuco.mp4');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-framerate', '2', '-i', join(dir, 'charuco-%d.png'), '-c:v', 'libx264', '-qp', '0', '-pix_fmt', 'yuv420p', video]);
    const fromVideo = join(dir, 'charuco-video.yml');
    const v = run(['calibrate', video, '--dictionary', 'DICT_4X4_50', '--charuco', '7,5,0.04,0.03', '--out', fromVideo]);
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toContain(`${video} frame 7: 24 corners`);
    const again = readOpenCvCalibration(readFileSync(fromVideo, 'utf8'));
    expect(Math.abs(again.fx - ours.fx)).toBeLessThan(2e-4 * ours.fx);
    expect(Math.hypot(again.cx - ours.cx, again.cy - ours.cy)).toBeLessThan(0.1);
  });

  it('refuses arguments it cannot use, with the usage, and too few views with a reason', () => {
    const out = join(dir, 'x.yml');
    for (const args of [
      ['calibrate', photos[0], '--dictionary', 'DICT_4X4_50', '--out', out],
      ['calibrate', photos[0], '--dictionary', 'DICT_4X4_50', '--board', '6,4,0.04', '--out', out],
      ['calibrate', photos[0], '--dictionary', 'DICT_4X4_50', '--board', '6,4,0.04,0.01', '--out', out, '--terms', '3'],
      ['calibrate', photos[0], '--dictionary', 'DICT_9X9_1', '--board', '6,4,0.04,0.01', '--out', out],
      ['calibrate', photos[0], '--board', '6,4,0.04,0.01', '--out', out],
      ['calibrate', photos[0], '--dictionary', 'DICT_4X4_50', '--charuco', '7,5,0.04', '--out', out],
      ['calibrate', photos[0], '--dictionary', 'DICT_4X4_50', '--charuco', '7,5,0.03,0.04', '--out', out],
      ['calibrate', photos[0], '--dictionary', 'DICT_4X4_50', '--charuco', '7,5,0.04,0.03', '--board', '6,4,0.04,0.01', '--out', out],
      ['calibrate', photos[0], '--dictionary', 'DICT_4X4_50', '--charuco', '7,5,0.04,0.03', '--min-corners', '3', '--out', out],
    ]) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('Usage: flowmark calibrate');
    }
    const one = run(['calibrate', photos[0], '--dictionary', 'DICT_4X4_50', '--board', '6,4,0.04,0.01', '--out', out]);
    expect(one.status).toBe(1);
    expect(one.stderr).toMatch(/1 of 1 frames show at least 4 of the board's markers/);
    expect(existsSync(out)).toBe(false);
    // Photos of a grid board read as a ChArUco board: no chessboard corners.
    const wrong = run(['calibrate', photos[0], photos[1], '--dictionary', 'DICT_4X4_50', '--charuco', '7,5,0.04,0.03', '--out', out]);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/0 of 2 frames show at least 6 of the board's chessboard corners: .*check --dictionary and --charuco/);
  });
});
