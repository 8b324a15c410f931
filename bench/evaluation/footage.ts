/**
 * Real footage: `flowmark track`'s chain (nodes/track/blobTracking.ts, its defaults) beside the usual CPU baseline
 * (OpenCV MOG2 + 3×3 open + 5×5 close + connected components + SORT, bench/baselines/opencv-sort.py) on a video a camera
 * recorded, as a check that what the synthetic evaluation (bench/evaluation/trackEval.ts) found holds on footage nobody drew:
 * how many tracks each makes (a person walking through once is one track at best), how many boxes it reports, how many
 * tracks last under a second (fragments), and the counts at lines across the frame. Each `--prime` runs the chain with
 * its model started from the median of the first S seconds (videoFileBackground; `flowmark track`'s default), and
 * each `--warmup` with no prime and that background warmup (background()'s `warmup`), to compare.
 *
 * By default the video is OpenCV's pedestrian sample vtest.avi, in Debian's opencv-doc package
 * (`apt-get install opencv-doc`; not installed by `npm test`): PETS 2009 S2.L1 view 1, 768×576, 795 frames at 10 frames
 * a second in the file, about twenty people walking over a campus road and lawn, a lamp post and a sign among them,
 * people in view from the first frame. Its truth, made by hand (bench/evaluation/vtest-truth.json: every person's box
 * on every 20th frame of the first minute), scores each chain's boxes on those frames for detection precision and
 * recall at IoU 0.5 (`detectionScores`); counts and tracks are to be read against the video (BENCHMARKS.md says what
 * was seen in it).
 *
 *   node dist/bench/evaluation/footage.js [--video PATH] [--truth PATH|none] [--x 200,384] [--y 300] [--prime 30] [--warmup 0,60]
 *                              [--min-area 20] [--python /usr/bin/python3] [--tracker JSON]
 *
 * `--truth`: a file laid out as vtest-truth.json (its `truth`: frame number → boxes); by default that one for vtest.avi
 * and none for another video.
 *
 * `--min-area` is `flowmark track`'s, for both chains (the baseline's blobs too); `--tracker` merges settings into
 * the tracker's (e.g. '{"sizeFloor":0}'), as trackEval's does.
 *
 * A vertical line at x counts forward from left to right, a horizontal one at y from top to bottom; the baseline's
 * counts are its boxes' centres crossing the line (as trackEval's), flowmark's its own lines (countsAtEnd).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, countLines, countsAtEnd, seenTracks, track, defaultVideoBackgroundSettings, type CountingLine, type FrameResult, type TrackOptions, blobFeatures, defaultBlobSettings, blobTrackOptions } from '../../index.js';
import { fromVideoFile, probeVideoFile, videoFileBackground, videoFileHasColor } from '../../node.js';
import { detectionScores, lineCrossings, motBoxesFromRows, type MotBox } from '../../reference.js';
import { benchArgs } from '../support/args.js';
import { runMain } from '../support/timing.js';

const vtest = '/usr/share/doc/opencv-doc/examples/data/vtest.avi';
const { values, refuse } = benchArgs(import.meta.url, {
  video: { type: 'string', default: vtest },
  truth: { type: 'string' },
  x: { type: 'string', default: '200,384' },
  y: { type: 'string', default: '300' },
  prime: { type: 'string', default: `${defaultVideoBackgroundSettings.seconds}` },
  warmup: { type: 'string', default: `0,${defaultBlobSettings.warmup}` },
  'min-area': { type: 'string', default: `${defaultBlobSettings.minArea}` },
  tracker: { type: 'string', default: '{}' },
  python: { type: 'string', default: '/usr/bin/python3' },
});
const list = (name: string, text: string) =>
  text.split(',').filter(Boolean).map((v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) refuse(`--${name} takes whole numbers 0 or more, comma-separated, got "${text}"`);
    return n;
  });
const xs = list('x', values.x as string);
const ys = list('y', values.y as string);
const primes = list('prime', values.prime as string).filter((n) => n > 0);
const warmups = list('warmup', values.warmup as string);
const minArea = Number(values['min-area']);
if (!Number.isInteger(minArea) || minArea < 1) refuse(`--min-area must be a positive whole number, got "${values['min-area']}"`);
const trackerGiven = values.tracker as string;
const trackerExtra = ((): TrackOptions => {
  try {
    return JSON.parse(trackerGiven) as TrackOptions;
  } catch {
    return refuse(`--tracker takes JSON, got "${trackerGiven}"`);
  }
})();
const video = values.video as string;
if (!existsSync(video)) refuse(video === vtest ? `${vtest} is missing: apt-get install opencv-doc (Debian), or give --video PATH` : `${video}: no such file`);
const vtestTruth = fileURLToPath(new URL('../../../bench/evaluation/vtest-truth.json', import.meta.url));
const truthPath = values.truth === 'none' ? null : ((values.truth as string | undefined) ?? (video === vtest ? vtestTruth : null));
/** The hand-made truth's boxes (ids unused: one each), an "occluded" one ignored. */
const truth = ((): MotBox[] | null => {
  if (!truthPath) return null;
  if (!existsSync(truthPath)) refuse(`--truth: ${truthPath}: no such file`);
  const frames = (JSON.parse(readFileSync(truthPath, 'utf8')) as { truth?: Record<string, (number | string)[][]> }).truth;
  if (!frames) return refuse(`--truth: ${truthPath} has no "truth" (frame number → boxes)`);
  let id = 0;
  return Object.entries(frames).flatMap(([frame, boxes]) =>
    boxes.map(([x0, y0, x1, y1, flag]) => ({ frame: Number(frame), id: id++, x0: Number(x0), y0: Number(y0), x1: Number(x1), y1: Number(y1), ignore: flag === 'occluded' })),
  );
})();

/** What a chain made of the video: its tracks, boxes, tracks shorter than a second, each line's counts, and its boxes against the truth. */
interface Summary {
  tracks: number;
  boxes: number;
  short: number;
  counts: string[];
  detection: ReturnType<typeof detectionScores> | null;
}

function summarise(boxes: MotBox[], fps: number, counts: (at: number, axis: 'x' | 'y') => { forward: number; backward: number }): Summary {
  const frames = new Map<number, number>();
  for (const b of boxes) frames.set(b.id, (frames.get(b.id) ?? 0) + 1);
  const lines = [...xs.map((x) => counts(x, 'x')), ...ys.map((y) => counts(y, 'y'))];
  return {
    tracks: frames.size,
    boxes: boxes.length,
    short: [...frames.values()].filter((n) => n < fps).length,
    counts: lines.map((c) => `${c.forward} / ${c.backward}`),
    detection: truth ? detectionScores(truth, boxes) : null,
  };
}

async function main(): Promise<void> {
  const info = await probeVideoFile(video);
  const color = await videoFileHasColor(video);
  const { width: W, height: H, fps } = info;
  const lines: CountingLine[] = [...xs.map((x) => ({ id: `x${x}`, a: [x, H - 1], b: [x, 0] }) as CountingLine), ...ys.map((y) => ({ id: `y${y}`, a: [0, y], b: [W - 1, y] }) as CountingLine)];
  console.log(`real footage — ${new Date().toISOString()}: ${video}, ${W}×${H} ${info.codec} in ${info.container}, ${info.frames} frames at ${fps.toFixed(1)} frames/s, ${color ? 'color' : 'gray'} model, ${truthPath ? `truth ${truthPath}` : 'no truth'}`);
  const ctx = await GpuContext.create({ label: 'bench-footage' });
  const rows: [string, Summary][] = [];
  try {
    const format = color ? 'rgba' : 'gray';
    const variants = [...primes.map((seconds) => ({ seconds, warmup: 0 })), ...warmups.map((warmup) => ({ seconds: 0, warmup }))];
    for (const { seconds, warmup } of variants) {
      const prime = seconds ? await videoFileBackground(video, { seconds, format }) : null;
      const results: FrameResult[] = await lastValueFrom(
        fromVideoFile(ctx, video, { format }).pipe(
          blobFeatures({ ...defaultBlobSettings, warmup, prime, minArea, color: color ? 'shadows' : false }),
          track({ ...blobTrackOptions({ maxUnseen: 2 }), ...trackerExtra }),
          countLines({ lines }),
          toArray(),
        ),
      );
      const boxes = results.flatMap((r) => seenTracks(r).map(({ id, box: b }) => ({ frame: r.seq, id, x0: b[0], y0: b[1], x1: b[2], y1: b[3] })));
      const end = countsAtEnd(results.at(-1)!.tracks!);
      rows.push([seconds ? `flowmark, primed from the first ${seconds} s` : `flowmark, no prime, warmup ${warmup}`, summarise(boxes, fps, (at, axis) => end[`${axis}${at}`])]);
    }
  } finally {
    ctx.destroy();
  }
  const script = fileURLToPath(new URL('../../../bench/baselines/opencv-sort.py', import.meta.url));
  const text = execFileSync(values.python as string, [script, video, `${minArea}`, ...(color ? ['color'] : [])], { maxBuffer: 1 << 28 }).toString();
  const base = motBoxesFromRows(text);
  rows.push(['baseline (MOG2 + SORT)', summarise(base, fps, (at, axis) => lineCrossings(base, at, axis))]);
  const heads = [...xs.map((x) => `x = ${x}`), ...ys.map((y) => `y = ${y}`)];
  console.log(`\n| chain | tracks | boxes | tracks under 1 s | ${heads.map((h) => `${h} forward / backward`).join(' | ')} |`);
  console.log(`|---|---|---|---|${heads.map(() => '---|').join('')}`);
  for (const [name, s] of rows) console.log(`| ${name} | ${s.tracks} | ${s.boxes} | ${s.short} | ${s.counts.join(' | ')} |`);
  if (!truth) return;
  const frames = new Set(truth.map((b) => b.frame)).size;
  console.log(`\nAgainst the truth (${frames} frames, ${truth.filter((b) => !b.ignore).length} people, ${truth.filter((b) => b.ignore).length} more than half hidden left out): each chain's boxes on those frames, matched one to one at IoU 0.5.\n`);
  console.log('| chain | truth boxes | boxes reported | matched | precision | recall | median IoU of matches |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, { detection: d }] of rows) console.log(`| ${name} | ${d!.truth} | ${d!.reported} | ${d!.matched} | ${d!.precision.toFixed(3)} | ${d!.recall.toFixed(3)} | ${d!.medianIou.toFixed(3)} |`);
}

runMain(main);
