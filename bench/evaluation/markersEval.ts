/**
 * Marker evaluation on a seeded synthetic set whose corners are exact (src/eval/markerScene.ts): markers of
 * 12–200 px, tilted up to 70°, blurred (σ 0–2), noised (σ 0–10), some frames JPEG-compressed (ffmpeg), over
 * cluttered backgrounds, plus marker-free frames. Prints, per size bin, the detection rate, corner RMSE and p95,
 * wrong IDs and false positives, for OpenCV's ArUco detector with each corner refinement (`bench/baselines/opencv-aruco.py`,
 * Debian's python3-opencv, run in the same program as the reference) and for flowmark's CPU reference detector
 * (src/reference/detectMarkersCpu.ts, single-threaded JavaScript) and the GPU `markers()` operator (the same method;
 * its ms/frame is the wall time over the whole set, frames in flight as a file source runs them).
 *
 *   node dist/bench/evaluation/markersEval.js [--frames 240] [--dictionary DICT_4X4_50] [--seed 1] [--keep DIR] [--python /usr/bin/python3] [--dawn backend=vulkan]
 *                                  [--detectors opencv,cpu,gpu] [--details] [--windows 31,9]
 *
 * `--details` lists, for flowmark's detectors, every marker missed, wrong ID and false positive with its frame.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, fromPixels, markerDictionary, markers, readResults } from '../../index.js';
import { defaultDawnFlags } from '../../extend.js';
import { runMain } from '../support/timing.js';
import { detectMarkersCpu, markerScene, rng, type MarkerScene, centreOf, type Point } from '../../reference.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(import.meta.url, {
  frames: { type: 'string', default: '240' },
  dictionary: { type: 'string', default: 'DICT_4X4_50' },
  seed: { type: 'string', default: '1' },
  keep: { type: 'string' },
  dawn: { type: 'string', multiple: true, default: [] },
  python: { type: 'string', default: '/usr/bin/python3' },
  detectors: { type: 'string', default: 'opencv,cpu,gpu' },
  windows: { type: 'string', default: '31,9' },
  details: { type: 'boolean', default: false },
}, ['frames', 'seed', 'windows']);
const width = 640;
const height = 480;
const dict = markerDictionary(values.dictionary as string);
const windows = (values.windows as string).split(',').map(Number);
const bins: [number, number][] = [[12, 24], [24, 48], [48, 100], [100, 200]];

interface Frame extends MarkerScene {
  path: string;
  jpeg: number | null;
  /** The frame's blur, σ px. */
  blur: number;
}

/** JPEG round trip through ffmpeg at quality `q` (2 best … 31 worst, ffmpeg's -q:v). */
function jpeg(gray: Uint8Array, q: number): Uint8Array {
  const size = `${width}x${height}`;
  const jpg = execFileSync('ffmpeg', ['-v', 'error', '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', size, '-i', '-', '-q:v', String(q), '-f', 'mjpeg', '-'], { input: gray });
  return new Uint8Array(execFileSync('ffmpeg', ['-v', 'error', '-f', 'mjpeg', '-i', '-', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { input: jpg }));
}

function makeSet(dir: string): Frame[] {
  const r = rng(Number(values.seed));
  const frames: Frame[] = [];
  const total = Number(values.frames);
  for (let i = 0; i < total; i++) {
    const markerFree = i % 12 === 11;
    const bin = bins[i % bins.length];
    const count = markerFree ? 0 : bin[1] <= 48 ? 6 : bin[1] <= 100 ? 4 : 2;
    const ids = Array.from({ length: count }, () => Math.floor(r() * dict.count)).filter((id) => dict.correctable(id) >= 0);
    const blur = r() < 0.5 ? 0 : r() * 2;
    const scene = markerScene(Number(values.seed) * 100000 + i, {
      width,
      height,
      markerSize: dict.markerSize,
      bits: (id) => dict.bits(id),
      ids,
      side: bin,
      maxTilt: 70,
      blur,
      noise: r() * 10,
      clutter: 4 + Math.floor(r() * 8),
    });
    const q = r() < 0.3 ? 2 + Math.floor(r() * 12) : null;
    const gray = q === null ? scene.gray : jpeg(scene.gray, q);
    const path = join(dir, `frame${String(i).padStart(4, '0')}.gray`);
    writeFileSync(path, gray);
    frames.push({ ...scene, gray, path, jpeg: q, blur });
  }
  return frames;
}

interface Detection {
  id: number;
  corners: Point[];
}

/** Scores detections against the truth: a detection is right when its ID is a marker of the frame whose corners it is near. */
function score(frames: Frame[], found: Detection[][]) {
  const rows = bins.map((b) => ({ bin: b, markers: 0, detected: 0, errors: [] as number[] }));
  // Found / markers by size bin and by the frame's blur (σ ≤ 1 px, > 1 px).
  const byBlur = bins.map(() => [{ markers: 0, detected: 0 }, { markers: 0, detected: 0 }]);
  let wrongIds = 0;
  let falsePositives = 0;
  const details: string[] = [];
  frames.forEach((f, i) => {
    const unmatched = new Set(found[i]);
    for (const m of f.markers) {
      // Binned by the side as seen (mean of the four, after tilt), not as drawn.
      const row = rows.find((x) => m.side < x.bin[1]) ?? rows[rows.length - 1];
      row.markers++;
      const blurred = byBlur[rows.indexOf(row)][f.blur <= 1 ? 0 : 1];
      blurred.markers++;
      const centre = centreOf(m.corners);
      const near = found[i].find((d) => {
        const dc = centreOf(d.corners);
        return Math.hypot(dc[0] - centre[0], dc[1] - centre[1]) < m.side / 3;
      });
      const where = `frame ${i}: marker ${m.id} at (${centre[0].toFixed(0)}, ${centre[1].toFixed(0)}), side ${m.side.toFixed(1)} px, tilt ${m.tilt.toFixed(0)}°${f.jpeg === null ? '' : `, JPEG q ${f.jpeg}`}`;
      if (!near) {
        details.push(`missed ${where}`);
        continue;
      }
      unmatched.delete(near);
      if (near.id !== m.id) {
        details.push(`wrong ID ${near.id} for ${where}`);
        wrongIds++;
        continue;
      }
      row.detected++;
      blurred.detected++;
      near.corners.forEach((c, k) => row.errors.push(Math.hypot(c[0] - m.corners[k][0], c[1] - m.corners[k][1])));
    }
    falsePositives += unmatched.size;
    for (const d of unmatched) details.push(`false positive frame ${i}: ID ${d.id} at (${centreOf(d.corners).map((v) => v.toFixed(0)).join(', ')})`);
  });
  return { rows, byBlur, wrongIds, falsePositives, details };
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
};

/** The GPU operator over the whole set; ms per frame from the stream's wall time. */
async function gpuMarkers(frames: Frame[]): Promise<{ markers: Detection[]; ms: number }[]> {
  const ctx = await GpuContext.create({ label: 'bench-markers', profile: true, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  try {
    const images = frames.map((f) => ({ width, height, format: 'gray' as const, data: f.gray }));
    const op = markers({ dictionary: dict, windows });
    // Once to compile the pipelines and warm the pool, then timed.
    await lastValueFrom(fromPixels(ctx, images.slice(0, 2)).pipe(op, readResults(), toArray()));
    const t0 = performance.now();
    const results = await lastValueFrom(fromPixels(ctx, images).pipe(op, readResults(), toArray()));
    const ms = (performance.now() - t0) / frames.length;
    return results.map((r) => ({ markers: r.markers!.found, ms }));
  } finally {
    ctx.destroy();
  }
}

async function main(): Promise<void> {
  const dir = (values.keep as string | undefined) ?? mkdtempSync(join(tmpdir(), 'flowmark-markers-'));
  mkdirSync(dir, { recursive: true });
  const frames = makeSet(dir);
  // Kept sets carry their truth, to look into one frame.
  if (values.keep) writeFileSync(join(dir, 'truth.json'), JSON.stringify(frames.map((f) => ({ path: f.path, jpeg: f.jpeg, markers: f.markers }))));
  const detectors = (values.detectors as string).split(',');
  const job = { dictionary: dict.name, frames: frames.map((f) => ({ path: f.path, width, height })), methods: ['NONE', 'SUBPIX', 'CONTOUR', 'APRILTAG'] };
  const script = new URL('../../../bench/baselines/opencv-aruco.py', import.meta.url).pathname;
  const out = detectors.includes('opencv')
    ? JSON.parse(execFileSync(values.python as string, [script], { input: JSON.stringify(job), maxBuffer: 1 << 28 }).toString())
    : { opencv: 'not run', results: {} };
  console.log(`marker evaluation — ${new Date().toISOString()}, ${dict.name}, ${frames.length} frames of ${width}×${height} (seed ${values.seed}),`);
  console.log(`${frames.reduce((s, f) => s + f.markers.length, 0)} markers, ${frames.filter((f) => !f.markers.length).length} frames without markers, ${frames.filter((f) => f.jpeg !== null).length} JPEG-compressed; OpenCV ${out.opencv}`);
  console.log('\n| detector | size px | markers | found | corner RMSE px | p95 px | wrong IDs | false positives | ms/frame |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  // flowmark's CPU reference (src/reference/detectMarkersCpu.ts), the design the GPU operator will carry out.
  const ours = !detectors.includes('cpu') ? null : frames.map((f) => {
    const t0 = performance.now();
    const markers = detectMarkersCpu(f.gray, width, height, dict, { windows });
    return { markers, ms: performance.now() - t0 };
  });
  const results: Record<string, { markers: Detection[]; ms: number }[]> = {
    ...(out.results as Record<string, { markers: Detection[]; ms: number }[]>),
    ...(ours ? { 'flowmark CPU reference': ours } : {}),
    ...(detectors.includes('gpu') ? { 'flowmark markers() GPU': await gpuMarkers(frames) } : {}),
  };
  const listed: string[] = [];
  const recall: string[] = [];
  const rate = (c: { markers: number; detected: number }) => `${c.detected}/${c.markers} (${((100 * c.detected) / Math.max(1, c.markers)).toFixed(0)}%)`;
  for (const [method, res] of Object.entries(results)) {
    const s = score(frames, res.map((r) => r.markers));
    const name = method.startsWith('flowmark') ? method : `OpenCV ${method}`;
    recall.push(`| ${name} | ${s.byBlur[0].map(rate).join(' | ')} | ${s.byBlur[1].map(rate).join(' | ')} | ${s.wrongIds} | ${s.falsePositives} |`);
    if (values.details && method.startsWith('flowmark')) listed.push(`${method}:`, ...s.details.map((d) => `  ${d}`));
    const ms = res.reduce((t, r) => t + r.ms, 0) / res.length;
    s.rows.forEach((row, k) => {
      const rmse = Math.sqrt(row.errors.reduce((t, e) => t + e * e, 0) / Math.max(1, row.errors.length));
      const found = `${row.detected} (${((100 * row.detected) / Math.max(1, row.markers)).toFixed(0)}%)`;
      const totals = k === 0 ? `${s.wrongIds} | ${s.falsePositives} | ${ms.toFixed(2)}` : ' | | ';
      const label = k === 0 ? `< ${row.bin[1]}` : k === s.rows.length - 1 ? `≥ ${row.bin[0]}` : `${row.bin[0]}–${row.bin[1]}`;
      console.log(`| ${method.startsWith('flowmark') ? method : `OpenCV ${method}`} | ${label} | ${row.markers} | ${found} | ${rmse.toFixed(3)} | ${q(row.errors, 0.95).toFixed(3)} | ${totals} |`);
    });
  }
  console.log('\nRecall by size and blur (the frame\'s σ in px):\n');
  console.log('| detector | < 24 px, σ ≤ 1 | < 24 px, σ > 1 | 24–48 px, σ ≤ 1 | 24–48 px, σ > 1 | wrong IDs | false positives |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(recall.join('\n'));
  if (listed.length) console.log(`\n${listed.join('\n')}`);
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}

runMain(main);
