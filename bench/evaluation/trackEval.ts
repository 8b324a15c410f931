/**
 * Tracking evaluation: flowmark's background → morphology → features → track, the chain `flowmark track` runs
 * (cli/track.ts, its defaults), beside the usual CPU baseline
 * (OpenCV MOG2 + 3×3 open + 5×5 close + connected components + SORT, bench/baselines/opencv-sort.py), both run on the same
 * H.264 clips in the same run, scored against the clips' truth with CLEAR-MOT and IDF1 (src/eval/motMetrics.ts,
 * as py-motmetrics, IoU 0.5; objects less than 40 % visible are ignored) and by a counting line down the middle (the
 * issue's line error), and by a second line at a quarter of the width, clear of the pillar near the middle.
 * The clips are seeded synthetic fixed-camera scenes (src/eval/surveillanceScene.ts), one per situation:
 * crossings, pillars, stop-and-go, light ramping and stepping, many small objects, shadows with strong noise.
 * Under the table: which truth crossings of each line flowmark counted, by what the blobs showed of the crossing object
 * (alone in its blob, sharing one with another object, hidden) and, for those it missed, by what tracked the object
 * either side of the line (bench/evaluation/crossingViews.ts), and both trackers' recall and
 * their ID switches per unit of recall (MOTChallenge's ID switch ratio). Above those: the line error counting from the
 * same blobs could reach if every object's identity were known (bench/evaluation/countBounds.ts), where each object had a blob of
 * its own and where any blob holding it lay wholly on a side: how much of the error left is identity.
 *
 *   node dist/bench/evaluation/trackEval.js [--seed 1] [--frames 300] [--python /usr/bin/python3] [--crf 23] [--gop N] [--filter F] [--drop P] [--only NAME]
 *                                [--details] [--cache DIR] [--tracker JSON] [--spatial] [--shadows on|off] [--color | --gray]
 *                                [--scenes gray|color] [--color-mode shadows|full] [--geometry flat|street]
 *                                [--open N|WxH] [--close N|WxH] [--foreground-learning F] [--frame-step N]
 *                                [--density F] [--walkers boxes|people|vehicles] [--situations default|extra|all] [--warmup N] [--prime S]
 *                                [--min-area N]
 *
 * `--cache DIR` keeps each clip's blobs (what the GPU chain reads back) and the baseline's rows in DIR and reads them
 * there on later runs with the same seed, frames and crf, so that the tracker alone runs again (seconds instead of
 * minutes on a CPU-emulated GPU): empty DIR after changing the chain up to the blobs (nodes/track/blobTracking.ts blobFeatures), whose
 * output the cache holds. `--tracker` merges settings into the tracker's (e.g. '{"gate":2}') to try them;
 * `--spatial` reads the blobs' spatial histograms (`features({ histogram: 'spatial' })`, cached apart), which the tracker
 * uses with `--tracker '{"placeByGray":true}'`; `--shadows off` runs the chain as `flowmark track --shadows off` (the
 * baseline keeps MOG2's shadows; cached apart),
 * `--color` as `flowmark track --color` (RGBA decoded, the color model; the baseline stays on gray).
 * `--scenes color` renders the same situations in color (each object a color of its own, the scene tinted): the
 * chain then runs as `flowmark track` does by default on a color video (the color model: `videoFileHasColor` must
 * say so), `--gray` with the gray model, and the baseline's MOG2 takes the color frames, as OpenCV users give it them.
 * The color model is `flowmark track`'s, background({ color: 'shadows' }); `--color-mode full` runs OpenCV's color
 * MOG2 (color: true) instead.
 * `--geometry street` renders the same situations as a camera looking down a street would see them, at 640×360: objects
 * half as large and as slow at the top of the frame as at its bottom, a third of them walking up or down it (growing or
 * shrinking as they go), nearer ones in front; sizes and speeds 1.5 times the flat scenes'. It checks that the tracker
 * was not fitted to the flat scenes its rules were worked out on. Its second line is horizontal, at 0.6 of the height
 * (crossed by the objects walking up or down), in place of the quarter line.
 * `--density F` renders each situation with F times its objects (at least one): the same scene with the first of its
 * objects (they are drawn in order from the seed, before anything else that varies), so that a sparser or busier
 * scene is the same place and light; how the line error and the scores follow how crowded a scene is.
 * `--walkers people` draws the walkers as people (a narrower head, legs of another gray that open and close with the
 * steps) whose pace swings and whose way bends (surveillanceScene's `bodies` and `wander` 0.3), where `boxes` (the
 * default) walk straight at one speed as boxes: the rules the tracker was worked out with on boxes, tried on walkers
 * shaped and moving otherwise. `--walkers vehicles` draws them as vehicles (boxes about twice as wide as tall, with
 * windows and wheels, 1.6 times as fast; surveillanceScene's `vehicles`), the same starts and ways: a traffic camera,
 * the other common use of counting lines, on rules worked out on people-shaped boxes.
 * `--crf`, `--gop` and `--filter` make the camera worse than the scenes are drawn: a lower H.264 quality (CCTV recorders
 * often keep crf 30 or more), keyframes as often as N frames, and an ffmpeg video filter put on the frames before the
 * encoding, both trackers reading the same file ('gblur=sigma=1.5' a lens out of focus, 'tmix=frames=2' a slow
 * shutter's smear), and `--drop` frames dropped (below); each cached apart.
 * `--open`, `--close` and `--foreground-learning` run the chain with those, as `flowmark track`'s options (cached
 * apart: cached clips are named by these settings, the defaults' too).
 * `--situations extra` runs the situations kept out of the default set (its figures stay comparable with earlier
 * runs): swaying foliage, four patches of leaves swaying over a lighter ground (surveillanceScene's `sway`), where a
 * pixel shows leaf and gap by turns, and a camera shaking on its pole (`shake`: the whole picture moved by about 1.5 px
 * each way, sub-pixel, frame to frame), and objects in view at the start (`inView`: half the objects part way along
 * their way in the first frame, some standing, as when a camera is started with people in front of it: a model
 * that knows only the first frame leaves ghosts where they stood); `all` runs both sets. `--only NAME` runs one
 * situation of either. `--prime S` starts the model from the median of 25 frames over the clip's first S seconds
 * (videoFileBackground; default 30, as `flowmark track`: the whole clip; 0 for none), `--warmup N` runs the chain with
 * background()'s warmup N (default none with a prime, 60 without); each cached apart.
 * The smallest blob both chains keep is, by default, a quarter of the situation's smallest object's box (17 px for the
 * many small objects, 140 for the rest of the flat scenes): generous to the baseline, and a number a user does not
 * know. `--min-area N` keeps N px for every situation in both instead (cached apart): `--min-area 20` runs the chain
 * as `flowmark track` does by default, its tracker leaving out the pieces of the objects it tracks by their size
 * (track()'s sizeFloor).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { from, lastValueFrom, toArray } from 'rxjs';
import { GpuContext, countLines, countsAtEnd, seenTracks, track, defaultVideoBackgroundSettings, type ComponentFeatures, type CountingLine, type FrameResult, type TrackOptions, blobFeatures, defaultBlobSettings, blobWarmup, blobTrackOptions } from '../../index.js';
import { elementArg, elementText, learningArg, integerArg } from '../../cli/args.js';
import { fromVideoFile, videoFileBackground, videoFileHasColor } from '../../node.js';
import { defaultDawnFlags } from '../../extend.js';
import { boxCover, hotaScores, lineCrossings, motBoxesFromRows, motScores, type MotBox, type MotScores, defaultSurveillanceOptions, surveillanceScene, type SurveillanceOptions, rng } from '../../reference.js';
import { addCrossingViews, crossingViews, describeViews, noCrossingViews } from './crossingViews.js';
import { boxCauseNames, boxCauses } from './boxCauses.js';
import { countBounds, type Counts } from './countBounds.js';
import { runMain } from '../support/timing.js';
import { totalsPrefix, type BoxFigures, type EvalTotals } from './evalTotals.js';
import { benchArgs } from '../support/args.js';

const { values, refuse, orRefuse } = benchArgs(import.meta.url, {
  seed: { type: 'string', default: '1' },
  frames: { type: 'string', default: '300' },
  python: { type: 'string', default: '/usr/bin/python3' },
  crf: { type: 'string', default: '23' },
  only: { type: 'string' },
  situations: { type: 'string', default: 'default' },
  details: { type: 'boolean', default: false },
  cache: { type: 'string' },
  tracker: { type: 'string', default: '{}' },
  shadows: { type: 'string', default: 'on' },
  spatial: { type: 'boolean', default: false },
  color: { type: 'boolean', default: false },
  gray: { type: 'boolean', default: false },
  scenes: { type: 'string', default: 'gray' },
  'color-mode': { type: 'string', default: 'shadows' },
  geometry: { type: 'string', default: 'flat' },
  open: { type: 'string' },
  close: { type: 'string' },
  'foreground-learning': { type: 'string' },
  warmup: { type: 'string' },
  prime: { type: 'string' },
  'frame-step': { type: 'string', default: '1' },
  density: { type: 'string', default: '1' },
  walkers: { type: 'string', default: 'boxes' },
  filter: { type: 'string' },
  drop: { type: 'string', default: '0' },
  gop: { type: 'string' },
  'min-area': { type: 'string' },
  dawn: { type: 'string', multiple: true, default: [] },
}, ['seed', 'frames', 'crf', 'frame-step', 'density', 'drop', 'gop']);
const seed = Number(values.seed);
if (!['default', 'extra', 'all'].includes(values.situations as string)) refuse(`--situations must be default, extra or all, got "${values.situations}"`);
if (values.shadows !== 'on' && values.shadows !== 'off') refuse(`--shadows must be on or off, got "${values.shadows}"`);
const shadows = values.shadows === 'on';
if (values.scenes !== 'gray' && values.scenes !== 'color') refuse(`--scenes must be gray or color, got "${values.scenes}"`);
if (values.color && values.gray) refuse('--color and --gray: give one');
const colorScenes = values.scenes === 'color';
// The model `flowmark track` picks for these clips by default (videoFileHasColor, checked below), unless forced.
const colorModel = values.color || (colorScenes && !values.gray);
const colorMode = values['color-mode'] === 'full' ? true : values['color-mode'] === 'shadows' ? 'shadows' : null;
if (colorMode === null) refuse(`--color-mode must be full or shadows, got "${values['color-mode']}"`);
const frames = Number(values.frames);
/**
 * `--drop P`: a recorder that drops frames under load, as network cameras and NVRs do — each frame after the first
 * left out with probability P (seeded by the clip), the others keeping their timestamps (a variable frame rate MP4), so
 * that an object moves two or three frames' way between some pairs of frames. Both trackers see the same file; the
 * truth keeps the frames written, numbered as decoded.
 */
const drop = Number(values.drop);
if (!(drop >= 0 && drop < 1)) refuse(`--drop must be at least 0 and under 1, got "${values.drop}"`);
const dropTag = drop > 0 ? `-drop${drop}` : '';
// `--gop N`: a keyframe every N frames (x264's default is 250, CCTV encoders often one a second): at a high crf each
// keyframe redraws the still background's coding noise at once, which a background model may take for motion.
const gop = values.gop === undefined ? null : Number(values.gop);
if (gop !== null && !(Number.isInteger(gop) && gop >= 1)) refuse(`--gop must be a positive integer, got "${values.gop}"`);
const gopTag = gop === null ? '' : `-gop${gop}`;
// `--filter`: the camera's faults the rendered scenes lack, put on by ffmpeg before the encoding (e.g. a lens out of
// focus, 'gblur=sigma=1.5'; a slow shutter, 'tmix=frames=2'); filters that move nothing, so the truth boxes hold.
/** `--min-area N`: the smallest blob both chains keep, in pixels, for every situation (the header says why). */
const minAreaGiven = values['min-area'] === undefined ? null : orRefuse(() => integerArg('min-area', values['min-area'] as string, 0, 1, 1 << 30));
const minAreaTag = minAreaGiven === null ? '' : `-minarea${minAreaGiven}`;
const filterTag = values.filter ? `-vf-${(values.filter as string).replace(/\W+/g, '_')}` : '';
/**
 * `--frame-step N`: a camera at 30/N frames a second. Each situation is rendered at 30 frames a second for N times the
 * frames with N times the objects (the same scene, as busy, for N times as long) and every Nth frame is kept: the clip
 * still has `frames` frames, each object moves N times as far between two of them, and a light step or a stop lasts
 * N times fewer frames. The tracker's rules were worked out at 30 frames a second; surveillance cameras often run at
 * 10–15. A step under 1, the inverse of an integer (0.5: 60 frames a second), renders the same scene as at 30 frames
 * a second (`frames` of its frames, as many objects) at 1/N times the rate (surveillanceScene's `timeStep`): the clip
 * has `frames`/N frames, and each object moves N times as far between two of them.
 */
const frameStep = Number(values['frame-step']);
if (!(frameStep >= 1 ? Number.isInteger(frameStep) : frameStep > 0 && Number.isInteger(1 / frameStep))) {
  refuse(`--frame-step must be a positive integer or the inverse of one (0.5: 60 frames a second), got "${values['frame-step']}"`);
}
/** `--density F`: F times each situation's objects, at least one. */
const density = Number(values.density);
if (!(density > 0 && density <= 4)) refuse(`--density must be a number above 0 and at most 4, got "${values.density}"`);
/** `--walkers people`: walkers shaped as people, their pace and way varying (surveillanceScene's bodies, wander). */
if (values.walkers !== 'boxes' && values.walkers !== 'people' && values.walkers !== 'vehicles') refuse(`--walkers must be boxes, people or vehicles, got "${values.walkers}"`);
const people = values.walkers === 'people';
/** `--walkers vehicles`: vehicles (surveillanceScene's vehicles): wide boxes with windows and wheels, faster. */
const vehicles = values.walkers === 'vehicles';
const walkerOptions: Partial<SurveillanceOptions> = people ? { bodies: true, wander: 0.3 } : vehicles ? { vehicles: true } : {};
/**
 * Every how many rendered frames one is kept, the scene's length in its own frames (30 a second), and the frames
 * rendered of it.
 */
const keepEvery = Math.max(1, frameStep);
const sceneFrames = frames * keepEvery;
const renderedFrames = frameStep < 1 ? Math.round(frames / frameStep) : sceneFrames;
/** The clip's frames. */
const clipFrames = renderedFrames / keepEvery;
/** The cleanup's elements, `flowmark track`'s unless given (as its --open / --close); clips cached apart by them. */
const [open, close] = (['open', 'close'] as const).map((k) => orRefuse(() => elementArg(k, values[k], defaultBlobSettings[k])));
/**
 * Cached clips are named by the cleanup and learning they were made with, `flowmark track`'s defaults included: a
 * cache made before a default changed is not read as if made with the new one.
 */
const elementTag = (k: 'open' | 'close') => `-${k}${elementText(k === 'open' ? open : close).replace('×', 'x')}`;
const foregroundLearning = orRefuse(() => learningArg(values['foreground-learning'], defaultBlobSettings.foregroundLearning));
// Seconds of the clip whose median starts the model (videoFileBackground; 0: none), and the warmup (none with a
// prime): flowmark track's defaults.
const primeSeconds = orRefuse(() => integerArg('prime', values.prime as string | undefined, defaultVideoBackgroundSettings.seconds, 0, 1 << 20));
const warmup = orRefuse(() => integerArg('warmup', values.warmup as string | undefined, blobWarmup(primeSeconds > 0), 0, 1 << 20));
const learningTag = `-fl${foregroundLearning}${warmup ? `-warmup${warmup}` : ''}${primeSeconds ? `-prime${primeSeconds}` : ''}`;
if (values.geometry !== 'flat' && values.geometry !== 'street') refuse(`--geometry must be flat or street, got "${values.geometry}"`);
const street = values.geometry === 'street';
/** What `--geometry street` changes in every situation (sizes and speeds are scaled as the situation gives them). */
const streetScale = 1.5;
const streetGeometry: Partial<SurveillanceOptions> = { width: 640, height: 360, perspective: 0.5, upDown: 0.35 };
/** Where the street scenes' horizontal line lies, as a share of the height. */
const acrossAt = 0.6;

const situations: [string, Partial<SurveillanceOptions>][] = [
  ['crossings', { objects: 14, pillars: 0, shadows: false, stopAndGo: 0 }],
  ['pillars', { objects: 10, pillars: 3, shadows: false, stopAndGo: 0 }],
  ['stop and go', { objects: 10, pillars: 1, stopAndGo: 0.8 }],
  ['light ramp and step', { objects: 10, pillars: 1, ramp: 0.0012, step: [Math.floor(sceneFrames / 2), 0.8] }],
  ['many small objects', { objects: 30, pillars: 1, size: [14, 24], speed: [0.8, 2.5] }],
  ['shadows, strong noise', { objects: 12, pillars: 1, shadows: true, noise: 9 }],
  // Last, so that the others keep their seeds. Brighter: a darkening step passes for shadow in MOG2; this one does not.
  ['light step up', { objects: 10, pillars: 1, step: [Math.floor(sceneFrames / 3), 1.3] }],
];
/**
 * Situations run only when asked for (`--situations extra|all`, or `--only NAME`), so that the default set's figures
 * stay comparable with earlier runs and caches: foliage swaying in the wind, four patches; a camera shaking on its
 * pole, about 1.5 px each way.
 */
const extraSituations: [string, Partial<SurveillanceOptions>][] = [
  ['swaying foliage', { objects: 10, pillars: 1, sway: 4 }],
  ['camera shake', { objects: 10, pillars: 1, shake: 1.5 }],
  ['in view at the start', { objects: 10, pillars: 1, inView: 0.5, stopAndGo: 0.5 }],
];
/** Every situation, each seeded by its place here (the default ones first, as they always were). */
const allSituations = [...situations, ...extraSituations];
if (values.only !== undefined && !allSituations.some(([n]) => n === values.only)) refuse(`--only must name a situation (${allSituations.map(([n]) => `"${n}"`).join(', ')}), got "${values.only}"`);

const visibleEnough = 0.4;

/** The fields of a frame's features the tracker and the scores read (track(), seenTracks), as kept in the cache. */
const kept = ['label', 'x0', 'y0', 'x1', 'y1', 'histogram', 'histogramX', 'histogramY'] as const;
/** Kept fields of fractional values (the spatial histogram's means, NaN where a bin is empty: null in JSON). */
const fractional = new Set<string>(['histogramX', 'histogramY']);

type Cached = { results: (Pick<FrameResult, 'seq' | 'timeUs' | 'width' | 'height'> & { features: Record<(typeof kept)[number], number[]> })[]; base: string; truth: MotBox[] };

function toCache(results: FrameResult[], base: string, truth: MotBox[]): Cached {
  const f = (r: FrameResult) => Object.fromEntries(kept.filter((k) => r.features![k]).map((k) => [k, Array.from(r.features![k]!)])) as Cached['results'][number]['features'];
  return { results: results.map((r) => ({ seq: r.seq, timeUs: r.timeUs, width: r.width, height: r.height, features: f(r) })), base, truth };
}

/** Cached blobs as results the tracker takes (only the kept fields of their features). */
function fromCache(c: Cached): FrameResult[] {
  const values = (k: string, v: (number | null)[] | undefined) => (fractional.has(k) ? Float64Array.from(v ?? [], (x) => x ?? NaN) : Uint32Array.from((v ?? []) as number[]));
  return c.results.map((r) => ({ ...r, timings: [], features: Object.fromEntries(kept.filter((k) => !fractional.has(k) || r.features[k]).map((k) => [k, values(k, r.features[k])])) as unknown as ComponentFeatures }));
}

const f2 = (x: number) => x.toFixed(3);

/** Adds one clip's line counts into [truth's crossings, flowmark's error, the baseline's error] (errors each way). */
function addLineErrors(total: number[], want: Counts, got: Counts, theirs: Counts): void {
  const error = (c: Counts) => Math.abs(c.forward - want.forward) + Math.abs(c.backward - want.backward);
  total[0] += want.forward + want.backward;
  total[1] += error(got);
  total[2] += error(theirs);
}
const row = (s: MotScores) => `${f2(s.mota)} | ${f2(s.idf1)} | ${s.idSwitches}`;

async function main(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'bench-track-eval', profile: true, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  const dir = mkdtempSync(join(tmpdir(), 'flowmark-track-eval-'));
  const script = fileURLToPath(new URL('../../../bench/baselines/opencv-sort.py', import.meta.url));
  console.log(`flowmark tracking evaluation — ${new Date().toISOString()}, seed ${seed}, ${clipFrames} frames per clip at ${+(30 / frameStep).toFixed(2)} frames/s, H.264 crf ${values.crf}${values.filter ? `, ffmpeg filter ${values.filter}` : ''}${drop > 0 ? `, frames dropped with probability ${drop}` : ''}${gop === null ? '' : `, a keyframe every ${gop} frames`}, foreground learning ${foregroundLearning}, cleanup: ${elementText(open)} opening, ${elementText(close)} closing${density !== 1 ? `, ${density} times the objects` : ''}${people ? ', walkers shaped as people, pace and way varying' : ''}${vehicles ? ', vehicles' : ''}`);
  console.log(`device: ${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback adapter: CPU emulation)' : ''}`);
  console.log('\n| situation | objects | flowmark MOTA | IDF1 | ID switches | baseline MOTA | IDF1 | ID switches | line truth | flowmark | baseline |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  // Per situation and tracker: HOTA, the misses and false positives, and how well the reported boxes cover objects.
  const boxRows: string[] = [];
  const causeRows: string[] = [];
  const totals = { names: [] as string[], ours: [] as MotScores[], base: [] as MotScores[], oursBoxes: [] as BoxFigures[], baseBoxes: [] as BoxFigures[], line: [0, 0, 0], second: [0, 0, 0], bounds: [0, 0, 0], secondBounds: [0, 0, 0] };
  const views = noCrossingViews();
  const secondViews = noCrossingViews();
  try {
    const chosen = values.only ? allSituations.filter(([n]) => n === values.only) : values.situations === 'extra' ? extraSituations : values.situations === 'all' ? allSituations : situations;
    for (const [name, flatOptions] of chosen) {
      const [size, speed] = [flatOptions.size ?? defaultSurveillanceOptions.size, flatOptions.speed ?? defaultSurveillanceOptions.speed];
      const options: Partial<SurveillanceOptions> = street
        ? { ...flatOptions, ...streetGeometry, size: [size[0] * streetScale, size[1] * streetScale], speed: [speed[0] * streetScale, speed[1] * streetScale] }
        : flatOptions;
      // A quarter of the smallest object's box (at the top of a street scene, where objects are smallest).
      const minSize = (options.size ?? [40, 70])[0] * (1 - (options.perspective ?? 0));
      const minArea = minAreaGiven ?? Math.round(0.25 * minSize * minSize * 0.35);
      const stem = name.replace(/\W+/g, '-');
      const cached = values.cache ? join(values.cache, `seed${seed}-${frames}-crf${values.crf}${shadows ? '' : '-shadows-off'}${colorScenes ? '-color-scenes' : ''}${colorModel !== colorScenes ? (colorModel ? '-color' : '-gray') : ''}${colorModel && colorMode === 'shadows' ? '-shadows-by-color' : ''}${street ? '-street' : ''}${frameStep !== 1 ? `-step${frameStep}` : ''}${density !== 1 ? `-density${density}` : ''}${people ? '-people' : ''}${vehicles ? '-vehicles' : ''}${values.spatial ? '-spatial' : ''}${elementTag('open')}${elementTag('close')}${learningTag}${filterTag}${dropTag}${gopTag}${minAreaTag}-${stem}.json`) : null;
      let blobs: FrameResult[];
      let rows: string;
      let truth: MotBox[];
      if (cached && existsSync(cached)) {
        const c = JSON.parse(readFileSync(cached, 'utf8')) as Cached;
        [blobs, rows, truth] = [fromCache(c), c.base, c.truth];
      } else {
        const objects = Math.max(1, Math.round((options.objects ?? defaultSurveillanceOptions.objects) * density)) * keepEvery;
        const situation = allSituations.findIndex(([n]) => n === name);
        const scene = surveillanceScene(seed * 100 + situation, { ...options, ...walkerOptions, objects, frames: renderedFrames, timeStep: Math.min(1, frameStep), color: colorScenes });
        const { width: W, height: H } = scene;
        const keptFrame = (t: { frame: number }) => t.frame % keepEvery === 0;
        // The frames the recorder keeps (all without --drop), and each one's number as decoded.
        const random = rng(seed * 1000 + situation);
        const written = Array.from({ length: clipFrames }, (_, i) => i === 0 || random() >= drop);
        let count = 0;
        const decoded = written.map((w) => (w ? count++ : count));
        truth = scene.truth.filter((t) => keptFrame(t) && written[t.frame / keepEvery]).map((t) => ({ frame: decoded[t.frame / keepEvery], id: t.id, x0: t.x0, y0: t.y0, x1: t.x1, y1: t.y1, ignore: t.visible < visibleEnough }));
        const dropped = written.flatMap((w, i) => (w ? [] : [`eq(n\\,${i})`]));
        const dropFilter = dropped.length ? [`select='not(${dropped.join('+')})'`] : [];
        const vf = [...(values.filter ? [values.filter as string] : []), ...dropFilter];
        const mp4 = join(dir, `${stem}.mp4`);
        const pixFmt = colorScenes ? 'rgb24' : 'gray';
        const raw = join(dir, `frames.${pixFmt}`);
        writeFileSync(raw, Buffer.concat((colorScenes ? scene.rgb : scene.frames).filter((_, t) => t % keepEvery === 0).map((f) => Buffer.from(f))));
        execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', pixFmt, '-s', `${W}x${H}`, '-r', `${30 / frameStep}`, '-i', raw, ...(vf.length ? ['-vf', vf.join(','), '-fps_mode', 'vfr'] : []), '-c:v', 'libx264', ...(gop === null ? [] : ['-g', `${gop}`]), '-crf', values.crf as string, '-pix_fmt', 'yuv420p', mp4]);
        if ((await videoFileHasColor(mp4)) !== colorScenes) throw new Error(`${name}: videoFileHasColor does not say ${colorScenes ? 'color' : 'gray'}`);
        const format = colorModel ? 'rgba' : 'gray';
        const prime = primeSeconds ? await videoFileBackground(mp4, { seconds: primeSeconds, format }) : null;
        blobs = await lastValueFrom(fromVideoFile(ctx, mp4, { format }).pipe(blobFeatures({ history: defaultBlobSettings.history, open, close, foregroundLearning, warmup, prime, minArea, shadows, color: colorModel ? colorMode! : false, histogram: values.spatial ? 'spatial' : true }), toArray()));
        rows = execFileSync(values.python as string, [script, mp4, `${minArea}`, ...(colorScenes ? ['color'] : [])], { maxBuffer: 1 << 28 }).toString();
        if (cached) {
          mkdirSync(values.cache!, { recursive: true });
          writeFileSync(cached, JSON.stringify(toCache(blobs, rows, truth)));
        }
      }
      const { width: W, height: H } = blobs[0];
      // The second line: down the flat scenes at a quarter of the width, across the street scenes (forward downward).
      const second: CountingLine = street ? { id: 'second', a: [0, acrossAt * H], b: [W - 1, acrossAt * H] } : { id: 'second', a: [W / 4, H - 1], b: [W / 4, 0] };
      const tracker: TrackOptions = { ...blobTrackOptions({ maxUnseen: 2 }), ...(JSON.parse(values.tracker as string) as TrackOptions) };
      const results = await lastValueFrom(from(blobs).pipe(track(tracker), countLines({ lines: [{ id: 'middle', a: [W / 2, H - 1], b: [W / 2, 0] }, second] }), toArray()));
      const ours: MotBox[] = results.flatMap((r) => seenTracks(r).map(({ id, box: b }) => ({ frame: r.seq, id, x0: b[0], y0: b[1], x1: b[2], y1: b[3] })));
      const base = motBoxesFromRows(rows);
      const so = motScores(truth, ours);
      const sb = motScores(truth, base);
      const [bo, bb] = [ours, base].map((boxes): BoxFigures => {
        const h = hotaScores(truth, boxes);
        const c = boxCover(truth, boxes);
        return { hota: h.hota, detA: h.detA, assA: h.assA, median: c.median, under50: c.under50 };
      });
      boxRows.push(...([['flowmark', so, bo], ['baseline', sb, bb]] as const).map(([who, m, b]) => `| ${name} | ${who} | ${f2(b.hota)} | ${f2(b.detA)} | ${f2(b.assA)} | ${m.falsePositives} | ${m.misses} | ${f2(b.median)} | ${(100 * b.under50).toFixed(1)} % |`));
      totals.oursBoxes.push(bo);
      totals.baseBoxes.push(bb);
      const causes = boxCauses(truth, results);
      const under = boxCauseNames.reduce((n, k) => n + causes.under[k], 0);
      causeRows.push(`| ${name} | ${causes.boxes} | ${under} | ${boxCauseNames.map((k) => causes.under[k]).join(' | ')} |`);
      const want = lineCrossings(truth, W / 2);
      // What `flowmark track` writes: the counts with the crossings the last frames show (countsAtEnd).
      const end = countsAtEnd(results.at(-1)!.tracks!);
      const got = end.middle;
      const theirs = lineCrossings(base, W / 2);
      const line = (c: Counts) => `${c.forward} / ${c.backward}`;
      console.log(`| ${name} | ${new Set(truth.map((t) => t.id)).size} | ${row(so)} | ${row(sb)} | ${line(want)} | ${line(got)} | ${line(theirs)} |`);
      if (values.details) {
        for (const [who, x] of [['flowmark', so], ['baseline', sb]] as const) {
          console.log(`|   ${who}: truth ${x.truth}, hypotheses ${x.hypotheses}, misses ${x.misses}, false positives ${x.falsePositives}, IDP ${f2(x.idp)}, IDR ${f2(x.idr)} | | | | | | | | | | |`);
        }
      }
      addCrossingViews(views, crossingViews(truth, results, 'middle', W / 2));
      totals.names.push(name);
      totals.ours.push(so);
      totals.base.push(sb);
      addLineErrors(totals.line, want, got, theirs);
      // The bounds' totals: [truth's crossings, the own-blob bound's error, the wholly-on-a-side bound's error].
      const middleBounds = countBounds(truth, blobs, W / 2);
      addLineErrors(totals.bounds, want, middleBounds.own, middleBounds.wholly);
      // The same at the second line (flat scenes: clear of the pillar every situation but crossings has near the middle).
      const [at, axis] = street ? [acrossAt * H, 'y' as const] : [W / 4, 'x' as const];
      const wantSecond = lineCrossings(truth, at, axis);
      addCrossingViews(secondViews, crossingViews(truth, results, 'second', at, axis));
      addLineErrors(totals.second, wantSecond, end.second, lineCrossings(base, at, axis));
      const secondBounds = countBounds(truth, blobs, at, axis);
      addLineErrors(totals.secondBounds, wantSecond, secondBounds.own, secondBounds.wholly);
    }
    const mean = (xs: MotScores[], k: 'mota' | 'idf1') => xs.reduce((s, x) => s + x[k], 0) / xs.length;
    const sum = (xs: MotScores[]) => xs.reduce((s, x) => s + x.idSwitches, 0);
    // MOTChallenge's ID switch ratio: a tracker that follows fewer of the objects has fewer identities to switch (the
    // baseline loses most objects through a lighting step, and so switches few), so switches are also given per unit
    // of recall (the share of truth boxes matched), summed over the clips.
    const perRecall = (xs: MotScores[]) => {
      const recall = 1 - xs.reduce((s, x) => s + x.misses, 0) / xs.reduce((s, x) => s + x.truth, 0);
      return { recall, ratio: sum(xs) / recall };
    };
    const [ro, rb] = [perRecall(totals.ours), perRecall(totals.base)];
    console.log(`| **mean / total** | | **${f2(mean(totals.ours, 'mota'))}** | **${f2(mean(totals.ours, 'idf1'))}** | **${sum(totals.ours)}** | ${f2(mean(totals.base, 'mota'))} | ${f2(mean(totals.base, 'idf1'))} | ${sum(totals.base)} | ${totals.line[0]} | error ${((100 * totals.line[1]) / totals.line[0]).toFixed(1)} % | error ${((100 * totals.line[2]) / totals.line[0]).toFixed(1)} % |`);
    const pc = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;
    const secondLine = street ? `across the frame at ${acrossAt} of its height (crossed by the objects walking up or down)` : 'at a quarter of the width (clear of the pillar the situations but crossings have near the middle)';
    console.log(`\nA second line, ${secondLine}: ${totals.second[0]} crossings, line error flowmark ${pc(totals.second[1], totals.second[0])}, baseline ${pc(totals.second[2], totals.second[0])}.`);
    const bound = (t: number[]) => `where each object had a blob of its own ${pc(t[1], t[0])}, where any blob holding it lay wholly on a side ${pc(t[2], t[0])}`;
    console.log(`\nLine error from these blobs with every object's identity known (bench/evaluation/countBounds.ts): middle line ${bound(totals.bounds)}; second line ${bound(totals.secondBounds)}.`);
    console.log(`\nflowmark's line counts by what the blobs showed of each crossing object within 5 frames (bench/evaluation/crossingViews.ts): ${describeViews(views)}.`);
    console.log(`\nThe same at the second line: ${describeViews(secondViews)}.`);
    console.log(`\nRecall (all clips): flowmark ${f2(ro.recall)}, baseline ${f2(rb.recall)}. ID switches ÷ recall (MOTChallenge's ID switch ratio): flowmark ${ro.ratio.toFixed(0)}, baseline ${rb.ratio.toFixed(0)}, flowmark ÷ baseline ${f2(ro.ratio / rb.ratio)} (raw switches ${f2(sum(totals.ours) / sum(totals.base))}).`);
    console.log('\nHOTA (TrackEval\'s, mean over IoU 0.05–0.95), false positives and misses (IoU 0.5), and each reported box\'s IoU with the object it covers most:\n');
    console.log('| situation | tracker | HOTA | DetA | AssA | false positives | misses | box IoU median | boxes under IoU 0.5 |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    console.log(boxRows.join('\n'));
    console.log('\nflowmark\'s boxes under IoU 0.5 with every object, by cause (bench/evaluation/boxCauses.ts): its own blob a piece of the object, over several objects, or off any; two pieces joined; a group member\'s estimate:\n');
    console.log(`| situation | boxes | under 0.5 | ${boxCauseNames.join(' | ')} |`);
    console.log('|---|---|---|---|---|---|---|---|');
    console.log(causeRows.join('\n'));
    // The same totals for bench/evaluation/trackEvalSeeds.js, which sums them over seeds: one line, the last.
    const summary: EvalTotals = { seed, clips: totals.names.map((situation, i) => ({ situation, ours: totals.ours[i], base: totals.base[i], oursBoxes: totals.oursBoxes[i], baseBoxes: totals.baseBoxes[i] })), middle: totals.line, second: totals.second, bounds: totals.bounds, secondBounds: totals.secondBounds, views, secondViews };
    console.log(`\n${totalsPrefix}${JSON.stringify(summary)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    ctx.destroy();
  }
}

runMain(main);
