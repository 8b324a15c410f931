/**
 * Marker pose evaluation: seeded frames rendered from known marker poses seen by a known pinhole camera (640×480,
 * fx = fy = 600; 5 cm DICT_4X4_50 markers 0.25–1.2 m away, tilted up to 70°, blur, noise, clutter, light), scored
 * for rotation error, translation error (share of the distance) and flips (rotation off by more than 10°):
 * - flowmark: `markers()` on the GPU, then each marker's pose from its own frame (IPPE refined, src/pose/);
 * - OpenCV 4.6 `solvePnP(SOLVEPNP_IPPE_SQUARE)` on flowmark's corners, and on its own ArUco corners (SUBPIX);
 * then the temporal side: a marker at rest over 60 noisy frames (the spread of its pose, raw and with `pose()`'s
 * One Euro smoothing), a marker moving at constant speed (the smoothed pose's lag, in frames) and a far, nearly
 * frontal marker turning slowly (flips over the sequence: each frame alone against `pose()`'s stream); and boards: a
 * 4 × 3 grid board (4 cm markers) at 0.4–1.5 m, tilted up to 60°, up to four markers covered, posed by flowmark
 * (`boardPose` over flowmark's corners), by OpenCV's `estimatePoseBoard` on flowmark's corners and on its own, and by
 * the board's best single marker alone.
 *
 *   node dist/bench/evaluation/poseEval.js [--frames 120] [--boards 60] [--seed 1] [--python /usr/bin/python3] [--dawn backend=vulkan]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, of, toArray } from 'rxjs';
import { GpuContext, boardPose, cameraModel, fromPixels, gridBoard, markerDictionary, markers, pose, projectPoints, readResults, squareCorners, toNormalised, type FrameResult, type Mat3 } from '../../index.js';
import { mul3, ippeSquare, rotationBetween, rotationFromVector, vectorFromRotation, defaultDawnFlags } from '../../extend.js';
import { boardScene, cornersAtPose, markerScene, rng, type MarkerScene } from '../../reference.js';
import { runMain } from '../support/timing.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(import.meta.url, { frames: { type: 'string', default: '120' }, boards: { type: 'string', default: '60' }, seed: { type: 'string', default: '1' }, python: { type: 'string', default: '/usr/bin/python3' }, dawn: { type: 'string', multiple: true, default: [] } }, ['frames', 'boards', 'seed']);
const [width, height] = [640, 480];
const camera = cameraModel({ fx: 600, fy: 600, cx: 319.5, cy: 239.5 });
const side = 0.05;
const dict = markerDictionary('DICT_4X4_50');
const deg = 180 / Math.PI;
const facing = rotationFromVector([Math.PI, 0, 0]);

interface Truth {
  id: number;
  R: Mat3;
  t: number[];
}

function render(seed: number, placed: Truth[], noise: number, blur: number): MarkerScene {
  return markerScene(seed, {
    width, height, markerSize: 4, bits: (id) => dict.bits(id), ids: placed.map((p) => p.id), side: [40, 40], maxTilt: 0, blur, noise, clutter: 6,
    place: (k) => ({ corners: cornersAtPose(camera, placed[k], side) }),
  });
}

/** Up to three markers per frame, apart, in view. */
function makeSet(n: number, seed: number): { scene: MarkerScene; truth: Truth[] }[] {
  const r = rng(seed);
  return Array.from({ length: n }, (_, f) => {
    const truth: Truth[] = [];
    for (let k = 0; k < 3; k++) {
      const z = 0.25 + r() * 0.95;
      const tilt = (r() * 70) / deg;
      const axis = r() * Math.PI * 2;
      const R = mul3(rotationFromVector([Math.cos(axis) * tilt, Math.sin(axis) * tilt, (r() - 0.5) * 2 * Math.PI]), facing);
      // Thirds of the frame's width, so that markers stay apart.
      const u = ((k + 0.2 + 0.6 * r()) / 3) * width;
      const v = (0.25 + 0.5 * r()) * height;
      const t = [((u - camera.cx) / camera.fx) * z, ((v - camera.cy) / camera.fy) * z, z];
      const corners = projectPoints(camera, R, t, squareCorners(side));
      if (corners.every(([x, y]) => x > 2 && y > 2 && x < width - 3 && y < height - 3)) truth.push({ id: 3 * (f % 16) + k, R, t });
    }
    return { scene: render(seed * 1000 + f, truth, 1 + r() * 4, 0.4 + r() * 0.8), truth };
  });
}

type Pose = { rvec: number[]; tvec: number[] } | null;

function opencvPoses(corners: number[][][]): Pose[] {
  const script = `
import cv2, json, sys, numpy as np
job = json.load(sys.stdin)
K = np.array([[600., 0, 319.5], [0, 600., 239.5], [0, 0, 1]])
s = ${side} / 2
obj = np.array([[-s, s, 0], [s, s, 0], [s, -s, 0], [-s, -s, 0]])
out = []
for c in job:
    ok, rv, tv = cv2.solvePnP(obj, np.array(c, dtype=np.float64).reshape(4, 1, 2), K, None, flags=cv2.SOLVEPNP_IPPE_SQUARE)
    out.append({'rvec': rv.ravel().tolist(), 'tvec': tv.ravel().tolist()} if ok else None)
print(json.dumps(out))`;
  return JSON.parse(execFileSync(values.python as string, ['-c', script], { input: JSON.stringify(corners), maxBuffer: 1 << 26 }).toString());
}

/** A 4 × 3 grid board of 4 cm markers, 1 cm apart (ids 0–11), as OpenCV's GridBoard lays it out. */
const grid = gridBoard({ name: 'grid', columns: 4, rows: 3, markerSize: 0.04, separation: 0.01 });

/** Board frames: the board at a known pose (its truth), up to four of its markers covered by a textured patch. */
function makeBoardSet(n: number, seed: number): { scene: MarkerScene; truth: Truth; covered: number[] }[] {
  const r = rng(seed + 500);
  const out: { scene: MarkerScene; truth: Truth; covered: number[] }[] = [];
  while (out.length < n) {
    const z = 0.4 + r() * 1.1;
    const tilt = (r() * 60) / deg;
    const axis = r() * Math.PI * 2;
    // The board's frame has z into the board: no turn is the board facing the camera.
    const R = rotationFromVector([Math.cos(axis) * tilt, Math.sin(axis) * tilt, (r() - 0.5) * 2 * 0.8]);
    const middle = [0.095, 0.07, 0].map((_, j) => R[3 * j] * 0.095 + R[3 * j + 1] * 0.07);
    const [u, v] = [(0.3 + 0.4 * r()) * width, (0.3 + 0.4 * r()) * height];
    const t = [((u - camera.cx) / camera.fx) * z - middle[0], ((v - camera.cy) / camera.fy) * z - middle[1], z - middle[2]];
    if (!projectPoints(camera, R, t, grid.markers.flatMap((m) => m.corners)).every(([x, y]) => x > 2 && y > 2 && x < width - 3 && y < height - 3)) continue;
    const scene = boardScene(seed * 2000 + out.length, camera, grid, { R, t }, { width, height, markerSize: 4, bits: (id) => dict.bits(id), blur: 0.4 + r() * 0.8, noise: 1 + r() * 4, clutter: 4 });
    const covered = grid.markers.map((m) => m.id).filter(() => r() < 0.2).slice(0, 4);
    for (const id of covered) {
      const q = scene.markers[id].corners;
      const [x0, x1] = [Math.floor(Math.min(...q.map((p) => p[0]))), Math.ceil(Math.max(...q.map((p) => p[0])))];
      const [y0, y1] = [Math.floor(Math.min(...q.map((p) => p[1]))), Math.ceil(Math.max(...q.map((p) => p[1])))];
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) scene.gray[y * width + x] = 120 + Math.round(30 * Math.sin(x / 4) + 10 * r());
    }
    out.push({ scene, truth: { id: -1, R, t }, covered });
  }
  return out;
}

/** OpenCV's estimatePoseBoard over each frame's markers (ids and corners). */
function opencvBoardPoses(frames: { id: number; corners: number[][] }[][]): Pose[] {
  const script = `
import cv2, json, sys, numpy as np
job = json.load(sys.stdin)
K = np.array([[600., 0, 319.5], [0, 600., 239.5], [0, 0, 1]])
b = cv2.aruco.GridBoard_create(4, 3, 0.04, 0.01, cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), 0)
out = []
for ms in job:
    ms = [m for m in ms if m['id'] < 12]
    if not ms:
        out.append(None)
        continue
    corners = [np.array(m['corners'], dtype=np.float32).reshape(1, 4, 2) for m in ms]
    ids = np.array([[m['id']] for m in ms], dtype=np.int32)
    n, rv, tv = cv2.aruco.estimatePoseBoard(corners, ids, b, K, None, None, None)
    out.append({'rvec': np.array(rv).ravel().tolist(), 'tvec': np.array(tv).ravel().tolist()} if n > 0 else None)
print(json.dumps(out))`;
  return JSON.parse(execFileSync(values.python as string, ['-c', script], { input: JSON.stringify(frames), maxBuffer: 1 << 26 }).toString());
}

function score(name: string, truths: Truth[], poses: Pose[]): void {
  const rot: number[] = [];
  const tra: number[] = [];
  let flips = 0;
  truths.forEach((t, i) => {
    const p = poses[i];
    if (!p) return;
    const e = rotationBetween(rotationFromVector(p.rvec), t.R) * deg;
    if (e > 10) {
      flips++;
      return;
    }
    rot.push(e);
    tra.push((100 * Math.hypot(p.tvec[0] - t.t[0], p.tvec[1] - t.t[1], p.tvec[2] - t.t[2])) / Math.hypot(t.t[0], t.t[1], t.t[2]));
  });
  const q = (a: number[], f: number) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(f * a.length))] ?? NaN;
  const posed = poses.filter(Boolean).length;
  console.log(`| ${name} | ${truths.length} | ${posed} | ${q(rot, 0.5).toFixed(3)} | ${q(rot, 0.9).toFixed(3)} | ${q(tra, 0.5).toFixed(3)} | ${q(tra, 0.9).toFixed(3)} | ${flips} (${((100 * flips) / Math.max(1, posed)).toFixed(1)} %) |`);
}

/** OpenCV's ArUco detector (SUBPIX corners) on the scenes, through bench/baselines/opencv-aruco.py. */
function opencvAruco(scenes: MarkerScene[]): { opencv: string; results: { SUBPIX: { markers: { id: number; corners: number[][] }[] }[] } } {
  const dir = mkdtempSync(join(tmpdir(), 'flowmark-pose-'));
  scenes.forEach((s, f) => writeFileSync(join(dir, `${f}.gray`), s.gray));
  try {
    return JSON.parse(
      execFileSync(values.python as string, [new URL('../../../bench/baselines/opencv-aruco.py', import.meta.url).pathname], {
        input: JSON.stringify({ dictionary: dict.name, frames: scenes.map((_, f) => ({ path: join(dir, `${f}.gray`), width, height })), methods: ['SUBPIX'] }),
        maxBuffer: 1 << 28,
      }).toString(),
    );
  } finally {
    rmSync(dir, { recursive: true });
  }
}

async function main(): Promise<void> {
  const seed = Number(values.seed);
  const set = makeSet(Number(values.frames), seed);
  const ctx = await GpuContext.create({ label: 'bench-pose', profile: true, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  const detect = (scenes: MarkerScene[]) =>
    lastValueFrom(fromPixels(ctx, scenes.map((s) => ({ width, height, format: 'gray' as const, data: s.gray }))).pipe(markers({ dictionary: dict }), readResults(), toArray()));
  const ours = await detect(set.map((s) => s.scene));
  // OpenCV's own detector (SUBPIX refinement) on the same frames.
  const aruco = opencvAruco(set.map((s) => s.scene));
  const truths = set.flatMap((s) => s.truth);
  const cornersOf = (found: { id: number; corners: number[][] }[], id: number) => found.find((m) => m.id === id)?.corners ?? null;
  const ourCorners = set.flatMap((s, f) => s.truth.map((t) => cornersOf(ours[f].markers!.found, t.id)));
  const cvCorners = set.flatMap((s, f) => s.truth.map((t) => cornersOf(aruco.results.SUBPIX[f].markers, t.id)));
  const solve = (list: (number[][] | null)[]) => {
    const present = list.filter((c): c is number[][] => c !== null);
    const solved = opencvPoses(present);
    let k = 0;
    return list.map((c) => (c ? solved[k++] : null));
  };
  const flowmark = ourCorners.map((c): Pose => {
    if (!c) return null;
    const [best] = ippeSquare(c.map(([u, v]) => toNormalised(camera, u, v)), side, [camera.fx, camera.fy]);
    return { rvec: vectorFromRotation(best.R), tvec: best.t };
  });
  console.log(`marker pose evaluation — ${new Date().toISOString()}, ${set.length} frames 640×480 (seed ${seed}), ${truths.length} markers of 5 cm at 0.25–1.2 m, tilt 0–70°; OpenCV ${aruco.opencv}`);
  console.log('\n| pose from | markers | posed | rotation ° median | p90 | translation % median | p90 | flips (> 10°) |');
  console.log('|---|---|---|---|---|---|---|---|');
  score('flowmark corners, flowmark pose (IPPE + Gauss–Newton)', truths, flowmark);
  score('flowmark corners, OpenCV IPPE_SQUARE', truths, solve(ourCorners));
  score('OpenCV corners (SUBPIX), OpenCV IPPE_SQUARE', truths, solve(cvCorners));

  // Boards: each frame alone.
  const boards = makeBoardSet(Number(values.boards), seed);
  const boardFound = await detect(boards.map((b) => b.scene));
  const boardAruco = opencvAruco(boards.map((b) => b.scene));
  const onBoard = (ms: { id: number; corners: number[][] }[]) => ms.filter((m) => grid.markers.some((g) => g.id === m.id));
  const parts = boardFound.map((r) => onBoard(r.markers!.found).map((m) => {
    const image = m.corners.map(([u, v]) => toNormalised(camera, u, v));
    return { marker: grid.markers.find((g) => g.id === m.id)!, image, poses: ippeSquare(image, 0.04, [camera.fx, camera.fy]) };
  }));
  const asPose = (p: { R: Mat3; t: number[] }): Pose => ({ rvec: vectorFromRotation(p.R), tvec: p.t });
  const boardTruths = boards.map((b) => b.truth);
  const markersSeen = parts.reduce((s, p) => s + p.length, 0);
  console.log(`\nboards: ${boards.length} frames of a 4 × 3 grid board (4 cm markers, 1 cm apart) at 0.4–1.5 m, tilt 0–60°, ${boards.reduce((s, b) => s + b.covered.length, 0)} markers covered; flowmark found ${markersSeen} of the board's markers`);
  console.log('\n| board pose from | boards | posed | rotation ° median | p90 | translation % median | p90 | flips (> 10°) |');
  console.log('|---|---|---|---|---|---|---|---|');
  score('flowmark corners, flowmark boardPose', boardTruths, parts.map((p) => (p.length ? asPose(boardPose(p, [camera.fx, camera.fy])[0]) : null)));
  score('flowmark corners, OpenCV estimatePoseBoard', boardTruths, opencvBoardPoses(boardFound.map((r) => onBoard(r.markers!.found))));
  score('OpenCV corners (SUBPIX), OpenCV estimatePoseBoard', boardTruths, opencvBoardPoses(boardAruco.results.SUBPIX.map((f) => f.markers)));
  score("flowmark corners, the board's best marker alone", boardTruths, parts.map((p) => {
    if (!p.length) return null;
    const alone = p.map((x) => boardPose([x], [camera.fx, camera.fy])[0]).sort((a, b) => a.error - b.error);
    return asPose(alone[0]);
  }));

  // Temporal: one marker at rest (60 frames, new noise each), and one moving at constant speed.
  const still: Truth = { id: 5, R: mul3(rotationFromVector([0.35, 0.2, 0.3]), facing), t: [0.02, -0.01, 0.6] };
  const rest = await detect(Array.from({ length: 90 }, (_, f) => render(70_000 + f, [still], 3, 0.7)));
  const moving = Array.from({ length: 60 }, (_, f): Truth => ({ ...still, t: [-0.1 + 0.004 * f, -0.01, 0.6] }));
  const motion = await detect(moving.map((m, f) => render(80_000 + f, [m], 3, 0.7)));
  const withTime = (rs: FrameResult[]) => rs.map((r, f) => ({ ...r, timeUs: Math.round((f * 1e6) / 30) }));
  const posesOf = async (rs: FrameResult[], smoothing: boolean) => (await lastValueFrom(of(...withTime(rs)).pipe(pose({ camera, markerSize: side, ...(smoothing ? {} : { smoothing: false }) }), toArray()))).map((r) => r.poses!.markers.find((m) => m.id === still.id) ?? null);
  console.log('\n| temporal | raw | smoothed (pose() defaults) | ratio |');
  console.log('|---|---|---|---|');
  const spread = (ps: ({ tvec: number[]; rvec: number[] } | null)[]) => {
    const kept = ps.slice(30).filter((p): p is NonNullable<typeof p> => p !== null);
    const mean = [0, 1, 2].map((j) => kept.reduce((s, p) => s + p.tvec[j], 0) / kept.length);
    const t = Math.sqrt(kept.reduce((s, p) => s + (p.tvec[0] - mean[0]) ** 2 + (p.tvec[1] - mean[1]) ** 2 + (p.tvec[2] - mean[2]) ** 2, 0) / kept.length);
    const R0 = rotationFromVector(kept[0].rvec);
    const angles = kept.map((p) => rotationBetween(rotationFromVector(p.rvec), R0) * deg);
    const meanAngle = angles.reduce((s, a) => s + a, 0) / angles.length;
    const r = Math.sqrt(angles.reduce((s, a) => s + (a - meanAngle) ** 2, 0) / angles.length);
    return { t: t * 1000, r, n: kept.length };
  };
  const [rawRest, smoothRest] = [spread(await posesOf(rest, false)), spread(await posesOf(rest, true))];
  console.log(`| at rest, 60 frames: translation spread, mm (σ, 3D) | ${rawRest.t.toFixed(3)} | ${smoothRest.t.toFixed(3)} | ${(rawRest.t / smoothRest.t).toFixed(1)}× |`);
  console.log(`| at rest: rotation spread, ° | ${rawRest.r.toFixed(3)} | ${smoothRest.r.toFixed(3)} | ${(rawRest.r / smoothRest.r).toFixed(1)}× |`);
  // Lag: how many frames behind the truth the pose's x is, at 4 mm a frame (12 cm/s; about 4 px a frame here).
  const lagOf = (ps: ({ tvec: number[] } | null)[]) => {
    const l = ps.slice(20).map((p, f) => (p ? (moving[f + 20].t[0] - p.tvec[0]) / 0.004 : NaN)).filter(Number.isFinite);
    return l.reduce((s, x) => s + x, 0) / l.length;
  };
  console.log(`| moving 4 mm a frame (about 4 px): lag, frames (mean) | ${lagOf(await posesOf(motion, false)).toFixed(2)} | ${lagOf(await posesOf(motion, true)).toFixed(2)} | |`);
  // Flips over a sequence: a small marker far away, nearly facing the camera, turning slowly (the two poses of its
  // square fit about equally well): the pose of each frame alone against pose()'s stream, which keeps the flip
  // nearer the previous frame's.
  const turning = Array.from({ length: 100 }, (_, f): Truth => ({ id: 9, R: mul3(rotationFromVector([0.08 + 0.001 * f, 0.04, 0]), facing), t: [0.03, -0.02, 1.3] }));
  const turnFrames = withTime(await detect(turning.map((m, f) => render(90_000 + f, [m], 4, 0.9))));
  const flipsOf = (ps: ({ rvec: number[] } | null)[]) => ps.filter((p, f) => p && rotationBetween(rotationFromVector(p.rvec), turning[f].R) * deg > 10).length;
  const alone = turnFrames.map((r) => {
    const m = r.markers!.found.find((x) => x.id === 9);
    if (!m) return null;
    const [best] = ippeSquare(m.corners.map(([u, v]) => toNormalised(camera, u, v)), side, [camera.fx, camera.fy]);
    return { rvec: vectorFromRotation(best.R) };
  });
  const streamed = (await lastValueFrom(of(...turnFrames).pipe(pose({ camera, markerSize: side }), toArray()))).map((r) => r.poses!.markers.find((m) => m.id === 9) ?? null);
  const seenCount = alone.filter(Boolean).length;
  console.log(`| far (1.3 m, 23 px), near-frontal (5° turning to 10°) marker, 100 frames: flips (> 10°) of ${seenCount} seen | ${flipsOf(alone)} (each frame alone) | ${flipsOf(streamed)} (pose() stream) | |`);
  ctx.destroy();
}

runMain(main);
