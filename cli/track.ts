/**
 * `flowmark track <video...> --out-dir DIR [--line x1,y1,x2,y2 ...]`: blob tracking for fixed cameras. Each video
 * runs background() → morphology() → features() on the GPU and track() on the CPU; DIR/<name>.csv gets
 * MOTChallenge rows as frames complete, and with lines DIR/<name>.counts.json the crossings each way. One GPU
 * device serves every file; a file that fails is reported and the rest still run.
 */
import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blobTracking, countsAtEnd, defaultBlobSettings, defaultTrackSettings, seenTracks, defaultVideoBackgroundSettings, type CountingLine, type FrameResult, type GpuContext, type MorphElement, type TrackResults } from '../index.js';
import { probeVideoFile, videoFileBackground, videoFileHasColor } from '../node.js';
import { checkOutputClashes, isVideo, outputStem, runOverInputs, videoExtensions, videoFilesText, writeVideoLines } from './outputs.js';
import { UsageError, countingLineArg, elementArg, integerArg, learningArg } from './args.js';

export interface TrackCommand {
  files: string[];
  outDir: string;
  lines: CountingLine[];
  minArea: number;
  history: number;
  open: MorphElement;
  close: MorphElement;
  foregroundLearning: number;
  /** Seconds at the start of each video whose median frame starts the background model (videoFileBackground); 0: none. */
  prime: number;
  /** background()'s warmup: frames at the start learning at least at OpenCV's starting rate; null: 0 with a prime, defaultBlobSettings.warmup without. */
  warmup: number | null;
  maxUnseen: number;
  /** track()'s sizeFloor: blobs small for the objects tracked left out (0: none). */
  sizeFloor: number;
  /** Background model: shadows (darker copies of the background) left out of the foreground; its variance threshold. */
  shadows: boolean;
  varThreshold: number;
  /** Decode RGBA and tell shadows by their color (background({ color: 'shadows' })); 'auto': where the video has color. */
  color: boolean | 'auto';
  /** track()'s placeByGray, with the blobs' spatial histograms. */
  placeByGray: boolean;
}

export const trackUsage = `Usage: flowmark track <video...> --out-dir DIR [--line x1,y1,x2,y2 ...] [options]

Tracks moving objects seen by a fixed camera: a background model (MOG2, as OpenCV's, with changes of the whole
scene's light compensated) and cleanup on the GPU, blobs, then tracks with lasting ids. Videos
(${videoFilesText}) give DIR/<name>.csv, MOTChallenge rows written as frames complete:
  frame,id,x,y,w,h,conf,-1,-1,-1
frame 1-based, (x, y) the box's top-left pixel 1-based, w×h its size in pixels, conf 1. With lines,
DIR/<name>.counts.json: {"frames","lines":{"<x1,y1,x2,y2>":{"forward","backward"}}}, forward being a crossing
from the line's left to its right as seen going from (x1,y1) to (x2,y2); an object on a line in the last
frame counts where its centre has passed it. A run that stops early (an error part way, Ctrl-C, SIGTERM) still
writes the counts of the frames done, with "partial":true and the "error" or the signal ("stopped"). A line that
misses the picture counts nothing; the summary says so. Progress on stderr (a bar on
a terminal, else a line every 10 s).

Options:
  --out-dir DIR       where to write (created if missing); two inputs that would write one file are refused
  --line x1,y1,x2,y2  a counting line in pixels (repeat for more)
  --min-area N        smallest blob in pixels (default ${defaultBlobSettings.minArea}); the tracker also leaves out
                      what is small for the objects it tracks: under a fifth of their size near them (their
                      pieces), under a tenth anywhere
  --history N         frames the background model averages over (default 500)
  --open N|WxH        opening square of odd side N, or rectangle W wide and H tall (odd, 1..31; default 3)
  --close N|WxH       closing square or rectangle, the same way (default 5x9: taller than wide, it joins an
                      upright figure's pieces and not neighbours side by side)
  --foreground-learning F
                      how fast the background model takes in what it finds foreground, as a share of
                      its rate (0..1, default 0.5; 1 is OpenCV's): what stops or moves slowly over a plain
                      stretch stays foreground about 1/F times longer (an object walking toward the camera
                      is not eaten away from inside), and so does what stood there in the first frame
  --prime S           start the background model from the scene behind what moves: the median of
                      ${defaultVideoBackgroundSettings.samples} frames spread over the video's first S seconds (default ${defaultVideoBackgroundSettings.seconds}; the whole video where
                      shorter). What stands in view when the video begins is an object from the first frame on
                      and leaves no ghost where it stood, and nothing walking in early is learnt. Whatever
                      stands still for more than half of those seconds is taken for scene. 0: the model starts
                      from the first frame, as OpenCV's
  --warmup N          frames at the start in which the model learns as fast as OpenCV's does then (its rate
                      1/(2·frame)), faster than 1/history: what stood in view when the video began and left is
                      learnt away in a few frames rather than staying a ghost for about 0.1·history/F frames
                      (F the foreground learning; default 0 with a prime, ${defaultBlobSettings.warmup} with --prime 0)
  --max-unseen S      seconds a track may go unseen before it ends (default 2)
  --size-floor F      the tracker leaves out blobs under F of the median size of the objects it tracks near
                      them, under F/2 anywhere (0 to under 1, default ${defaultTrackSettings.sizeFloor}); 0 where the objects of interest are far
                      smaller than most of what moves (people far off beyond near cars)
  --shadows on|off    whether a darker copy of the background is shadow, not an object (default on). Off for
                      scenes without cast shadows (indoor, overcast) where objects are darker than what they
                      pass: on gray footage the shadow test takes such objects for shadow
  --var-threshold V   how far from the background, in squared standard deviations, a pixel is foreground
                      (default 16, as OpenCV's MOG2; in color summed over the channels): higher for noisier
                      footage, lower for faint objects
  --color, --gray     the model's pixels. By default color where the video has color (its first frames
                      looked at), else gray. In color the foreground is still found on gray (a video keeps its
                      color at half resolution: color edges bleed), but what gray takes for shadow is an object
                      where its color is not the background's darkened (dark clothes and cars); it decodes 4
                      bytes a pixel and keeps a color model beside the gray one
  --place-by-gray     place objects that walk together in one blob by where each one's grays lie in it (a
                      dark and a light one, say), rather than by their motion alone: fewer id switches on the
                      evaluation's scenes (3–12 %), 0.02 ms more GPU time a 1080p frame
`;

export function parseTrackArgs(values: Record<string, string | boolean | string[] | undefined>, files: string[]): TrackCommand {
  if (files.length === 0) throw new UsageError('no input videos given');
  const notVideo = files.find((f) => !isVideo(f));
  if (notVideo) throw new UsageError(`${notVideo}: track takes videos (${videoExtensions.join(', ')})`);
  const outDir = values['out-dir'];
  if (typeof outDir !== 'string' || !outDir) throw new UsageError('--out-dir DIR is required');
  const given = values.line === undefined ? [] : ([] as string[]).concat(values.line as string | string[]);
  const lines = given.map(countingLineArg);
  const twice = lines.find((l, i) => lines.findIndex((m) => m.id === l.id) !== i);
  if (twice) throw new UsageError(`--line ${twice.id} is given twice`);
  const shadows = values.shadows === undefined ? 'on' : String(values.shadows).trim();
  if (shadows !== 'on' && shadows !== 'off') throw new UsageError(`--shadows must be on or off, got "${values.shadows}"`);
  const varThreshold = values['var-threshold'] === undefined ? 16 : Number(String(values['var-threshold']).trim() || NaN);
  if (!(varThreshold > 0 && Number.isFinite(varThreshold))) throw new UsageError(`--var-threshold must be a positive number, got "${values['var-threshold']}"`);
  const maxUnseen = values['max-unseen'] === undefined ? 2 : Number(values['max-unseen']);
  if (!(maxUnseen > 0 && Number.isFinite(maxUnseen))) throw new UsageError(`--max-unseen must be a positive number of seconds, got "${values['max-unseen']}"`);
  const sizeFloor = values['size-floor'] === undefined ? defaultTrackSettings.sizeFloor : Number(String(values['size-floor']).trim() || NaN);
  if (!(sizeFloor >= 0 && sizeFloor < 1)) throw new UsageError(`--size-floor must be a share at least 0 and under 1, got "${values['size-floor']}"`);
  if (values.color === true && values.gray === true) throw new UsageError('--color and --gray: give one');
  checkOutputClashes(files, outDir, (f) => ({ names: [`${outputStem(f)}.csv`, `${outputStem(f)}.counts.json`], framePrefix: null }));
  return {
    files,
    outDir,
    lines,
    minArea: integerArg('min-area', values['min-area'] as string | undefined, defaultBlobSettings.minArea, 1, 1 << 30),
    history: integerArg('history', values.history as string | undefined, defaultBlobSettings.history, 1, 1 << 20),
    open: elementArg('open', values.open, defaultBlobSettings.open),
    close: elementArg('close', values.close, defaultBlobSettings.close),
    foregroundLearning: learningArg(values['foreground-learning'], defaultBlobSettings.foregroundLearning),
    prime: primeArg(values.prime),
    warmup: values.warmup === undefined ? null : integerArg('warmup', values.warmup as string, 0, 0, 1 << 20),
    maxUnseen,
    sizeFloor,
    shadows: shadows === 'on',
    varThreshold,
    color: values.color === true ? true : values.gray === true ? false : 'auto',
    placeByGray: values['place-by-gray'] === true,
  };
}

/** `--prime S`: seconds, 0 or more (0: no prime). */
function primeArg(value: unknown): number {
  if (value === undefined) return defaultVideoBackgroundSettings.seconds;
  const n = Number(String(value).trim() || NaN);
  if (!(n >= 0 && Number.isFinite(n))) throw new UsageError(`--prime must be a number of seconds, 0 or more, got "${String(value)}"`);
  return n;
}

/**
 * Whether line l's segment meets the picture, pixels [0, width − 1] × [0, height − 1]: an end inside it, or the segment
 * crossing one of its sides.
 */
export function segmentMeetsFrame(l: CountingLine, width: number, height: number): boolean {
  const [x0, y0, x1, y1] = [0, 0, width - 1, height - 1];
  const inside = (p: readonly [number, number]) => p[0] >= x0 && p[0] <= x1 && p[1] >= y0 && p[1] <= y1;
  if (inside(l.a) || inside(l.b)) return true;
  // Both ends outside: it meets the picture where it crosses a side (Liang–Barsky: the parameter range left).
  const [dx, dy] = [l.b[0] - l.a[0], l.b[1] - l.a[1]];
  let [t0, t1] = [0, 1];
  for (const [p, q] of [[-dx, l.a[0] - x0], [dx, x1 - l.a[0]], [-dy, l.a[1] - y0], [dy, y1 - l.a[1]]]) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
  }
  return t0 <= t1;
}

/** MOTChallenge rows of the tracks a frame's result reports as seen (`seenTracks`). */
function motRows(r: FrameResult): string {
  let out = '';
  for (const { id, box: b } of seenTracks(r)) out += `${r.seq + 1},${id},${b[0] + 1},${b[1] + 1},${b[2] - b[0] + 1},${b[3] - b[1] + 1},1,-1,-1,-1\n`;
  return out;
}

export function runTrack(cmd: TrackCommand, log = console.log, warn = console.error): Promise<number> {
  return runOverInputs(cmd.files, cmd.outDir, (ctx, file) => trackVideo(ctx, file, cmd, log), warn);
}

async function trackVideo(ctx: GpuContext, file: string, cmd: TrackCommand, log: (s: string) => void): Promise<void> {
  const name = outputStem(file);
  // A file the probe cannot read fails in the decode below, with its frames written and the decoder's message.
  const color = cmd.color === 'auto' ? await videoFileHasColor(file).catch(() => false) : cmd.color;
  const format = color ? 'rgba' : 'gray';
  // Probed once for the prime and the decode (another container's ffprobe reads every packet). A file that cannot be
  // read fails in the decode below as it would without a prime (its decodable frames written).
  const info = await probeVideoFile(file).catch(() => undefined);
  const prime = cmd.prime > 0 && info ? await videoFileBackground(file, { seconds: cmd.prime, format, info }).catch(() => null) : null;
  let last: TrackResults | null = null;
  let frames = 0;
  const ids = new Set<number>();
  const { lines, minArea, history, open, close, foregroundLearning, maxUnseen, sizeFloor, shadows, varThreshold, placeByGray } = cmd;
  const settings = { lines, minArea, history, open, close, foregroundLearning, maxUnseen, sizeFloor, shadows, varThreshold, placeByGray };
  const chain = blobTracking({ ...settings, warmup: cmd.warmup ?? undefined, prime, color: color ? 'shadows' : false });
  const countsPath = join(cmd.outDir, `${name}.counts.json`);
  const zeros = () => Object.fromEntries(cmd.lines.map((l) => [l.id, { forward: 0, backward: 0 }]));
  // Counts are often the point of a run: a run that stops early (an error part way, Ctrl-C, SIGTERM) still writes
  // those of the frames done, marked partial, synchronously so that nothing overtakes them.
  const writePartial = (why: Record<string, string>) => {
    const end = last as TrackResults | null;
    writeFileSync(countsPath, JSON.stringify({ frames, lines: end ? end.counts : zeros(), partial: true, ...why }) + '\n');
  };
  const onSignal = (signal: NodeJS.Signals) => {
    writePartial({ stopped: signal });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  if (cmd.lines.length) for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, onSignal);
  let done: Awaited<ReturnType<typeof writeVideoLines>>;
  try {
    done = await writeVideoLines(ctx, file, join(cmd.outDir, `${name}.csv`), chain, (r) => {
      last = r.tracks!;
      frames++;
      for (const t of last.tracks) if (t.state === 'confirmed') ids.add(t.id);
      return motRows(r);
    }, format, info);
  } catch (e) {
    if (cmd.lines.length) writePartial({ error: (e as Error).message });
    throw e;
  } finally {
    for (const s of ['SIGINT', 'SIGTERM'] as const) process.off(s, onSignal);
  }
  const end = last as TrackResults | null;
  const counts = end ? countsAtEnd(end) : zeros();
  if (cmd.lines.length) await writeFile(countsPath, JSON.stringify({ frames: done.frames, lines: counts }) + '\n');
  const v = done.info;
  // A line that misses the picture (a size from another camera, coordinates swapped) counts nothing: said so.
  const misses = (l: CountingLine) => v != null && !segmentMeetsFrame(l, v.width, v.height);
  const said = cmd.lines.map((l) => ` line ${l.id}: ${counts[l.id].forward} forward, ${counts[l.id].backward} backward${misses(l) ? ` (outside the ${v!.width}x${v!.height} picture)` : ''};`).join('');
  log(`${file}: ${v?.width}x${v?.height} ${v?.codec}, ${done.frames} frames, ${color ? 'color' : 'gray'} model${cmd.placeByGray ? ', placed by gray' : ''}, ${ids.size} tracks;${said} processed at ${(done.frames / done.seconds).toFixed(1)} frames/s`);
}
