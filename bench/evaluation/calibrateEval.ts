/**
 * Calibration evaluation: photos of two printed boards rendered through known lenses (intrinsics and Brown–Conrady
 * distortion), tilted 20–40° every way, blur and noise (src/eval/boardPhotos.ts): a 6 × 4 grid board (4 cm
 * DICT_4X4_50 markers, 1 cm apart) at 0.45–0.6 m, and a 7 × 5 ChArUco board (4 cm squares, 3 cm DICT_4X4_50 markers)
 * at 0.32–0.45 m (filling most of the frame, as calibration guides ask). For each lens, board and view count: flowmark (`markers()` on the GPU; `boardViews`, or
 * `charucoCorners` + `refineChessCorners` + `charucoViews`; `calibrateCamera`, 5 terms) beside OpenCV 4.6's own
 * pipeline on the same photos (ArUco detection with SUBPIX corners and `aruco.calibrateCameraAruco`; or detection,
 * `interpolateCornersCharuco` and `aruco.calibrateCameraCharuco`; its default 5 terms): the intrinsics' errors against
 * the true lens, the RMS reprojection error, and the largest error with which each calibrated lens places a board's
 * corners across the frame. OpenCV 4.6's ChArUco corners are shifted +0.5 px in x and y (opencv/opencv#25539, fixed
 * after 4.6): the shift is taken off before its calibration, which would otherwise carry it into the principal point.
 *
 *   node dist/bench/evaluation/calibrateEval.js [--python /usr/bin/python3] [--dawn backend=vulkan]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, boardViews, calibrateCamera, cameraModel, charucoBoard, charucoCorners, charucoViews, fromPixels, gridBoard, markerDictionary, markers, projectPoints, readResults, refineChessCorners, type CameraModel, type CalibrationView } from '../../index.js';
import { rotationFromVector, defaultDawnFlags } from '../../extend.js';
import { boardPhotos } from '../../reference.js';
import { runMain } from '../support/timing.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(import.meta.url, { python: { type: 'string', default: '/usr/bin/python3' }, dawn: { type: 'string', multiple: true, default: [] } });
const [width, height] = [640, 480];
const dict = markerDictionary('DICT_4X4_50');
const board = gridBoard({ name: 'print', columns: 6, rows: 4, markerSize: 0.04, separation: 0.01 });
const charuco = charucoBoard({ squaresX: 7, squaresY: 5, squareLength: 0.04, markerLength: 0.03, dictionary: 'DICT_4X4_50' });
const targets = [
  { name: 'grid 6×4', board, distance: [0.45, 0.6] as [number, number] },
  { name: 'ChArUco 7×5', board: charuco, distance: [0.32, 0.45] as [number, number] },
];
const lenses: [string, CameraModel][] = [
  ['barrel', cameraModel({ fx: 604, fy: 596, cx: 323.5, cy: 236.5, distortion: [-0.16, 0.05, 0, 0, 0] })],
  ['mild, off-centre', cameraModel({ fx: 700, fy: 700, cx: 300.2, cy: 251.7, distortion: [0.05, -0.1, 0.001, -0.0015, 0.02] })],
];

/** The largest distance between where the calibrated and the true lens put the board's corners, over nine poses. */
function placementError(calibrated: CameraModel, truth: CameraModel): number {
  let worst = 0;
  for (const [ax, ay] of [[-0.3, -0.25], [0, -0.25], [0.3, -0.25], [-0.3, 0], [0, 0], [0.3, 0], [-0.3, 0.25], [0, 0.25], [0.3, 0.25]]) {
    const R = rotationFromVector([ay, ax, 0.05]);
    const t = [-0.145 + ax * 0.4, -0.095 + ay * 0.4, 0.55];
    const points = board.markers.flatMap((m) => m.corners);
    const a = projectPoints(calibrated, R, t, points);
    const b = projectPoints(truth, R, t, points);
    a.forEach((p, i) => {
      if (b[i][0] >= 0 && b[i][1] >= 0 && b[i][0] < width && b[i][1] < height) worst = Math.max(worst, Math.hypot(p[0] - b[i][0], p[1] - b[i][1]));
    });
  }
  return worst;
}

/** OpenCV 4.6's calibration from the same photos (gray files k.gray in dir): its ArUco or ChArUco pipeline. */
function opencvCalibration(dir: string, n: number, useCharuco: boolean): { error: number; K: number[]; d: number[] } {
  const script = `
import cv2, json, sys, numpy as np
d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
p = cv2.aruco.DetectorParameters_create()
charuco = ${useCharuco ? 'True' : 'False'}
if charuco:
    b = cv2.aruco.CharucoBoard_create(7, 5, 0.04, 0.03, d)
else:
    b = cv2.aruco.GridBoard_create(6, 4, 0.04, 0.01, d, 0)
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
C, I, N = [], [], []
for k in range(${n}):
    g = np.fromfile(sys.argv[1] + '/' + str(k) + '.gray', dtype=np.uint8).reshape(${height}, ${width})
    c, ids, _ = cv2.aruco.detectMarkers(g, d, parameters=p)
    if ids is None: continue
    if charuco:
        m, cc, ci = cv2.aruco.interpolateCornersCharuco(c, ids, g, b)
        if cc is None or m < 6: continue
        C.append(cc - 0.5); I.append(ci)
    else:
        C += list(c); I += ids.ravel().tolist(); N.append(len(ids))
if charuco:
    err, K, dist, _, _ = cv2.aruco.calibrateCameraCharuco(C, I, b, (${width}, ${height}), None, None)
else:
    err, K, dist, _, _ = cv2.aruco.calibrateCameraAruco(C, np.array(I, dtype=np.int32).reshape(-1, 1), np.array(N), b, (${width}, ${height}), None, None)
print(json.dumps({'error': err, 'K': K.ravel().tolist(), 'd': dist.ravel().tolist()}))`;
  return JSON.parse(execFileSync(values.python as string, ['-c', script, dir]).toString());
}

async function main(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'bench-calibrate', profile: true, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  console.log(`calibration evaluation — ${new Date().toISOString()}, ${width}×${height}; a 6 × 4 grid board of 4 cm markers at 0.45–0.6 m and a 7 × 5 ChArUco board of 4 cm squares at 0.32–0.45 m; tilt 20–40°, blur σ 0.7, noise σ 3`);
  console.log('\n| lens | board | views | calibrated by | RMS error px | fx error % | fy error % | principal point error px | k1 error | corners placed, worst px |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, lens] of lenses) {
    for (const target of targets) {
      const isCharuco = target.board === charuco;
      for (const n of [5, 10]) {
        const photos = boardPhotos(lens, target.board, n, 300 + n, { width, height, markerSize: 4, bits: (id) => dict.bits(id), tilt: [20, 40], distance: target.distance, blur: 0.7, noise: 3 });
        const found = await lastValueFrom(fromPixels(ctx, photos.map((p) => ({ width, height, format: 'gray' as const, data: p.scene.gray }))).pipe(markers({ dictionary: dict }), readResults(), toArray()));
        const views: CalibrationView[] = isCharuco
          ? found.flatMap((r, k) => {
              const placed = charucoCorners(charuco, r.markers!.found);
              const refined = refineChessCorners(photos[k].scene.gray, width, height, placed.map((c) => c.at), { half: placed.map((c) => c.window) });
              return charucoViews(charuco, [placed.map((c, i) => ({ id: c.id, at: refined[i] }))]);
            })
          : boardViews(board, found.map((r) => r.markers!.found), 4);
        const ours = calibrateCamera(views, width, height);
        const dir = mkdtempSync(join(tmpdir(), 'flowmark-calibrate-'));
        photos.forEach((p, k) => writeFileSync(join(dir, `${k}.gray`), p.scene.gray));
        const cv = opencvCalibration(dir, n, isCharuco);
        rmSync(dir, { recursive: true });
        const theirs = cameraModel({ fx: cv.K[0], fy: cv.K[4], cx: cv.K[2], cy: cv.K[5], distortion: cv.d.slice(0, 5) });
        const opencv = isCharuco ? 'OpenCV (interpolateCornersCharuco)' : 'OpenCV (SUBPIX corners)';
        for (const [by, c, error] of [['flowmark', ours.camera, ours.error], [opencv, theirs, cv.error]] as const) {
          console.log(`| ${name} | ${target.name} | ${n} | ${by} | ${error.toFixed(3)} | ${((100 * (c.fx - lens.fx)) / lens.fx).toFixed(3)} | ${((100 * (c.fy - lens.fy)) / lens.fy).toFixed(3)} | ${Math.hypot(c.cx - lens.cx, c.cy - lens.cy).toFixed(2)} | ${(c.distortion[0] - lens.distortion[0]).toFixed(4)} | ${placementError(c, lens).toFixed(2)} |`);
        }
      }
    }
  }
  ctx.destroy();
}

runMain(main);
