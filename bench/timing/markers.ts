/**
 * Marker speed: `markers()` on frames of `--size` with `--markers` markers each (seeded scenes: tilt to 50°, blur,
 * noise, clutter; src/eval/markerScene.ts), beside OpenCV's ArUco `detectMarkers` on the same frames on the same
 * machine's CPU (bench/baselines/opencv-aruco.py, in the same run). For flowmark it prints the GPU time of each part of the
 * chain in steady state (timestamp queries, median per frame: thresholds, labelings, candidates, fit), the frames
 * per second when frames stream (`maxInFlight` 2), and the wall time per frame one at a time (a camera's case:
 * uploaded, submitted alone and read back before the next, p50 and p99), with markers found and corner RMSE against
 * the true corners; for OpenCV its time per frame with no and with subpixel refinement.
 *
 *   node dist/bench/timing/markers.js [--size 1280x720] [--markers 10] [--side 30,110] [--blur 0.5] [--frames 200] [--warmup 20]
 *                              [--dictionary DICT_4X4_50] [--also DICT_A,DICT_B] [--python /usr/bin/python3] [--dawn backend=vulkan]
 *
 * `--also`: more dictionaries read in the same pass (the scenes hold the first one's markers only), for what
 * several dictionaries cost.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, fromPixels, markerDictionary, markers, readResults, type FrameResult } from '../../index.js';
import { defaultDawnFlags } from '../../extend.js';
import { detectMarkersCpu, markerScene, type MarkerScene } from '../../reference.js';
import { oneAtATime, quantile, runMain } from '../support/timing.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(import.meta.url, {
  size: { type: 'string', default: '1280x720' },
  markers: { type: 'string', default: '10' },
  // Marker sides in px, and the blur step: scene i is blurred by (i mod 3) × step px.
  side: { type: 'string', default: '30,110' },
  blur: { type: 'string', default: '0.5' },
  frames: { type: 'string', default: '200' },
  warmup: { type: 'string', default: '20' },
  dictionary: { type: 'string', default: 'DICT_4X4_50' },
  also: { type: 'string', default: '' },
  python: { type: 'string', default: '/usr/bin/python3' },
  dawn: { type: 'string', multiple: true, default: [] },
}, ['markers', 'side', 'blur', 'frames', 'warmup']);
const [width, height] = (values.size as string).split('x').map(Number);
const count = Number(values.markers);
const frames = Number(values.frames);
const warmup = Number(values.warmup);
const dict = markerDictionary(values.dictionary as string);
const also = (values.also as string).split(',').filter(Boolean).map((n) => markerDictionary(n));
/** Distinct scenes, cycled. */
const distinct = 12;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const f3 = (x: number) => x.toFixed(3);

/** Markers found against the truth; `found[i]` is from frame `first + i` (scenes cycled). */
function accuracy(scenes: MarkerScene[], found: { id: number; dictionary?: string; corners: readonly (readonly number[])[] }[][], first = 0) {
  let hit = 0;
  let want = 0;
  const errs: number[] = [];
  found.forEach((ms, i) => {
    const s = scenes[(first + i) % scenes.length];
    want += s.markers.length;
    for (const m of ms) {
      const t = s.markers.find((x) => x.id === m.id && (m.dictionary ?? dict.name) === dict.name);
      if (!t) continue;
      hit++;
      m.corners.forEach((c, k) => errs.push(Math.hypot(c[0] - t.corners[k][0], c[1] - t.corners[k][1])));
    }
  });
  return { found: `${hit}/${want}`, rmse: Math.sqrt(errs.reduce((a, e) => a + e * e, 0) / Math.max(1, errs.length)) };
}

/** GPU ms of a frame's passes whose names start with `prefix` (all of them for ''). */
const gpuOf = (r: FrameResult, prefix = '') => r.timings.filter((t) => t.name.startsWith(prefix)).reduce((s, t) => s + t.ms, 0);

async function main(): Promise<void> {
  const scenes = Array.from({ length: distinct }, (_, i) =>
    markerScene(9000 + i, { width, height, markerSize: dict.markerSize, bits: (id) => dict.bits(id), ids: Array.from({ length: count }, (_, k) => (i * 7 + k * 3) % dict.count).filter((id) => dict.correctable(id) >= 0), side: (values.side as string).split(',').map(Number) as [number, number], maxTilt: 50, blur: (i % 3) * Number(values.blur), noise: 2 + (i % 4), clutter: 10 }),
  );
  const images = (n: number) => Array.from({ length: n }, (_, i) => ({ width, height, format: 'gray' as const, data: scenes[i % distinct].gray }));
  const ctx = await GpuContext.create({ label: 'bench-markers', profile: true, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  console.log(`markers benchmark — ${new Date().toISOString()}, ${ctx.adapterName}, ${width}×${height}, ${count} markers per frame (${dict.name}${also.map((d) => ` + ${d.name} read too`).join('')}), ${frames} frames after ${warmup} warm-up`);
  const op = markers({ dictionary: [dict, ...also] });

  // Streaming: frames in flight as a file source runs them.
  await lastValueFrom(fromPixels(ctx, images(warmup)).pipe(op, readResults(), toArray()));
  const t0 = performance.now();
  const streamed = await lastValueFrom(fromPixels(ctx, images(frames)).pipe(op, readResults(), toArray()));
  const streamMs = (performance.now() - t0) / frames;

  // One at a time: each frame uploaded, submitted alone and read back before the next.
  const { results: single, wall } = await oneAtATime(fromPixels(ctx, images(warmup + frames), { maxInFlight: 1 }).pipe(op), warmup);
  const timestamps = ctx.features.timestamps;
  const parts = ['markers:threshold', 'label:', 'markers:candidates', 'markers:fit'];
  console.log('\nflowmark markers(), GPU time per frame in steady state (median over frames, ms):');
  console.log(`| ${parts.map((p) => p.replace(/:$/, '')).join(' | ')} | whole chain | candidates per frame |`);
  console.log(`|${'---|'.repeat(parts.length + 2)}`);
  console.log(`| ${parts.map((p) => (timestamps ? f3(median(streamed.map((r) => gpuOf(r, p)))) : 'n/a')).join(' | ')} | ${timestamps ? f3(median(streamed.map((r) => gpuOf(r)))) : 'n/a'} | ${median(streamed.map((r) => r.markers!.candidates))} |`);
  ctx.destroy();
  // The GPU against the CPU reference (the same method in f64) on the distinct scenes: IDs and corners.
  let sameIds = 0;
  let worst = 0;
  scenes.slice(0, streamed.length).forEach((sc, i) => {
    const want = detectMarkersCpu(sc.gray, width, height, [dict, ...also]);
    const got = streamed[i].markers!.found;
    if (want.map((m) => m.id).join() === got.map((m) => m.id).join()) sameIds++;
    for (const m of got) {
      const w = want.find((x) => x.id === m.id);
      if (w) m.corners.forEach((c, k) => (worst = Math.max(worst, Math.hypot(c[0] - w.corners[k][0], c[1] - w.corners[k][1]))));
    }
  });
  console.log(`\nAgainst the CPU reference (src/reference/detectMarkersCpu.ts): same IDs in ${sameIds} of ${Math.min(distinct, streamed.length)} scenes, corners at most ${worst.toExponential(2)} px apart`);

  // OpenCV on the same frames.
  const dir = mkdtempSync(join(tmpdir(), 'flowmark-markers-bench-'));
  const files = scenes.map((s, i) => {
    const path = join(dir, `f${i}.gray`);
    writeFileSync(path, s.gray);
    return { path, width, height };
  });
  const job = { dictionary: dict.name, frames: Array.from({ length: frames }, (_, i) => files[i % distinct]), methods: ['NONE', 'SUBPIX'] };
  const script = new URL('../../../bench/baselines/opencv-aruco.py', import.meta.url).pathname;
  let cv: { opencv: string; threads: number; results: Record<string, { markers: { id: number; corners: number[][] }[]; ms: number }[]> } | null = null;
  try {
    cv = JSON.parse(execFileSync(values.python as string, [script], { input: JSON.stringify(job), maxBuffer: 1 << 28 }).toString());
  } catch (e) {
    console.log(`\nOpenCV not run (${(e as Error).message.split('\n')[0]})`);
  }
  rmSync(dir, { recursive: true, force: true });

  console.log('\nWall time per frame (ms) and accuracy, same frames:');
  console.log('| detector | one at a time p50 | p99 | streaming ms/frame | GPU ms/frame | markers found | corner RMSE px |');
  console.log('|---|---|---|---|---|---|---|');
  const one = accuracy(scenes, single.map((r) => r.markers!.found), warmup);
  console.log(`| flowmark markers() (${ctx.adapterName.split(' ').slice(0, 3).join(' ')}) | ${f3(median(wall))} | ${f3(quantile(wall, 0.99))} | ${f3(streamMs)} | ${timestamps ? f3(median(single.map((r) => gpuOf(r)))) : 'n/a'} | ${one.found} | ${f3(one.rmse)} |`);
  if (cv) {
    for (const [method, res] of Object.entries(cv.results)) {
      const ms = res.map((r) => r.ms);
      const a = accuracy(scenes, res.map((r) => r.markers));
      console.log(`| OpenCV ${cv.opencv} ${method} (CPU, ${cv.threads} threads) | ${f3(median(ms))} | ${f3(quantile(ms, 0.99))} | ${f3(ms.reduce((s, x) => s + x, 0) / ms.length)} | | ${a.found} | ${f3(a.rmse)} |`);
    }
  }
}

runMain(main);
