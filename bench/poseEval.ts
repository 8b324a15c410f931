/**
 * Marker pose evaluation: seeded frames rendered from known marker poses seen by a known pinhole camera (640×480,
 * fx = fy = 600; 5 cm DICT_4X4_50 markers 0.25–1.2 m away, tilted up to 70°, blur, noise, clutter, light), scored
 * for rotation error, translation error (share of the distance) and flips (rotation off by more than 10°):
 * - flowmark: `markers()` on the GPU, then each marker's pose from its own frame (IPPE refined, src/pose/);
 * - OpenCV 4.6 `solvePnP(SOLVEPNP_IPPE_SQUARE)` on flowmark's corners, and on its own ArUco corners (SUBPIX);
 * then the temporal side: a marker at rest over 60 noisy frames (the spread of its pose, raw and with `pose()`'s
 * One Euro smoothing) and a marker moving at constant speed (the smoothed pose's lag, in frames).
 *
 *   node dist/bench/poseEval.js [--frames 120] [--seed 1] [--dawn backend=vulkan]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { lastValueFrom, of, toArray } from 'rxjs';
import { GpuContext, cameraModel, fromPixels, mul3, ippeSquare, markerDictionary, markers, pose, projectPoints, readResults, rotationBetween, rotationFromVector, squareCorners, toNormalised, vectorFromRotation, type FrameResult, type Mat3 } from '../index.js';
import { defaultDawnFlags } from '../src/gpu.js';
import { cornersAtPose, markerScene, rng, type MarkerScene } from '../src/reference/index.js';
import { runMain } from './timing.js';

const { values } = parseArgs({ options: { frames: { type: 'string', default: '120' }, seed: { type: 'string', default: '1' }, dawn: { type: 'string', multiple: true, default: [] } } });
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
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(corners), maxBuffer: 1 << 26 }).toString());
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

async function main(): Promise<void> {
  const seed = Number(values.seed);
  const set = makeSet(Number(values.frames), seed);
  const ctx = await GpuContext.create({ label: 'bench-pose', dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  const detect = (scenes: MarkerScene[]) =>
    lastValueFrom(fromPixels(ctx, scenes.map((s) => ({ width, height, format: 'gray' as const, data: s.gray }))).pipe(markers({ dictionary: dict }), readResults(), toArray()));
  const ours = await detect(set.map((s) => s.scene));
  // OpenCV's own detector (SUBPIX refinement) on the same frames.
  const dir = mkdtempSync(join(tmpdir(), 'flowmark-pose-'));
  set.forEach((s, f) => writeFileSync(join(dir, `${f}.gray`), s.scene.gray));
  const aruco = JSON.parse(
    execFileSync('/usr/bin/python3', [new URL('../../scripts/opencv-aruco.py', import.meta.url).pathname], {
      input: JSON.stringify({ dictionary: dict.name, frames: set.map((_, f) => ({ path: join(dir, `${f}.gray`), width, height })), methods: ['SUBPIX'] }),
      maxBuffer: 1 << 28,
    }).toString(),
  );
  rmSync(dir, { recursive: true });
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

  // Temporal: one marker at rest (60 frames, new noise each), and one moving at constant speed.
  const still: Truth = { id: 5, R: mul3(rotationFromVector([0.35, 0.2, 0.3]), facing), t: [0.02, -0.01, 0.6] };
  const rest = await detect(Array.from({ length: 90 }, (_, f) => render(70_000 + f, [still], 3, 0.7)));
  const moving = Array.from({ length: 60 }, (_, f): Truth => ({ ...still, t: [-0.1 + 0.004 * f, -0.01, 0.6] }));
  const motion = await detect(moving.map((m, f) => render(80_000 + f, [m], 3, 0.7)));
  ctx.destroy();
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
}

runMain(main);
