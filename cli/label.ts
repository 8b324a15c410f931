/**
 * `flowmark label <image|video...>`: canonical labels for each image, written as DIR/<name>.u32 (little-endian uint32
 * per pixel, row-major), and for each video a JSON line per frame. One GPU device serves every file; a file that
 * fails is reported and the rest still run. Built on the public entry points only, as a user's program would be.
 */
import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lastValueFrom, type OperatorFunction } from 'rxjs';
import {
  type FrameResult,
  type GpuContext,
  type GpuFrame,
  features,
  fromPixels,
  label,
  labelAlgorithms,
  readResults,
  threshold,
  type ComponentFeatures,
  type LabelOptions,
  type ThresholdOptions,
} from '../index.js';
import { readImage } from '../node.js';
import { blankFrame, checkOutputClashes, isVideo, labelOutputs, outputStem, runOverInputs, videoFilesText, writeVideoLines } from './outputs.js';
import { UsageError, integerArg } from './args.js';

export { OutputError, videoExtensions } from './outputs.js';
export { UsageError } from './args.js';

export interface LabelCommand {
  files: string[];
  outDir: string;
  connectivity: 4 | 8;
  algorithm: string;
  passes: number | 'until-converged';
  /** How the foreground is found (threshold() options). */
  threshold: ThresholdOptions;
  /**
   * Whether --method or --threshold chose the rule. Unchosen, an image is taken as a mask (any nonzero gray value)
   * and a video's frames, which are never masks, are split at Otsu's level per frame.
   */
  thresholdChosen: boolean;
  stats: boolean;
  /** Videos: also write each frame's labels as DIR/<name>-<frame>.u32. */
  labels: boolean;
  /** Videos: components written per frame at most. */
  maxComponents: number;
}

export const labelUsage = `Usage: flowmark label <image|video...> --out-dir DIR [options]

Labels the connected components of each image (PNG, JPEG or WebP) or video frame on the GPU. For an image it writes DIR/<name>.u32:
one little-endian uint32 per pixel, row-major; 0 is background, components are 1..N in raster order of their
first pixel.

Options:
  --out-dir DIR            where to write (created if missing); two inputs that would write one file are refused
  --connectivity 4|8       pixel connectivity (default 8)
  --algorithm NAME         ${labelAlgorithms.join(', ')}, auto (default shibata)
  --passes N|until-converged
                           propagation passes for shibata (default until-converged: exact labels)

Foreground (default: any nonzero gray value for an image, as in a mask; Otsu's level per frame for a video):
  --method fixed|otsu|adaptive
                           fixed: gray > --threshold T; otsu: Otsu's level per frame; adaptive: gray > the mean of
                           the --window W × W neighbourhood (odd, default 15) minus --offset C (default 5)
  --threshold T            fixed level 0..255 (default 0)
  --invert                 foreground is what the rule leaves out (dark objects on a light background)

  --stats                  also write DIR/<name>.json: per component area, box, centroid, perimeter,
                           orientation, eccentricity and mean gray, computed on the GPU

Video files (${videoFilesText}; decoded by ffmpeg) give DIR/<name>.jsonl, one
line per frame as it is labelled: {"frame","timeUs","count","components":[...the --stats fields]}, with progress
on stderr (a bar on a terminal, else a line every 10 s). A video that fails part way keeps the lines of the frames done.
  --labels                 videos: also write DIR/<name>-<frame>.u32 for every frame
  --max-components N       videos: components written per frame at most (default 4096; more sets "truncated")
`;

function thresholdArgs(values: Record<string, string | boolean | undefined>): ThresholdOptions {
  const method = String(values.method ?? 'fixed');
  const invert = values.invert === true;
  const onlyFor = (option: string, wanted: string) => {
    if (values[option] !== undefined && method !== wanted) throw new UsageError(`--${option} goes with --method ${wanted}, not ${method}`);
  };
  onlyFor('threshold', 'fixed');
  onlyFor('window', 'adaptive');
  onlyFor('offset', 'adaptive');
  let options: ThresholdOptions;
  if (method === 'fixed') options = { method, level: integerArg('threshold', values.threshold, 0, 0, 255), invert };
  else if (method === 'otsu') options = { method, invert };
  else if (method === 'adaptive') {
    options = { method, window: integerArg('window', values.window, 15, 3, 255), offset: integerArg('offset', values.offset, 5, -255, 255), invert };
  } else throw new UsageError(`--method must be fixed, otsu or adaptive, got "${method}"`);
  try {
    threshold(options); // validates the rest (an even window), as the stream would
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^threshold: /, '--'));
  }
  return options;
}

export function parseLabelArgs(values: Record<string, string | boolean | undefined>, files: string[]): LabelCommand {
  if (files.length === 0) throw new UsageError('no input images given');
  const outDir = values['out-dir'];
  if (typeof outDir !== 'string' || !outDir) throw new UsageError('--out-dir DIR is required');
  const conn = Number(values.connectivity ?? 8);
  if (conn !== 4 && conn !== 8) throw new UsageError(`--connectivity must be 4 or 8, got ${values.connectivity}`);
  const passesArg = String(values.passes ?? 'until-converged');
  const passes = passesArg === 'until-converged' ? passesArg : Number(passesArg);
  const cmd: LabelCommand = {
    files,
    outDir,
    connectivity: conn,
    algorithm: String(values.algorithm ?? 'shibata'),
    passes,
    threshold: thresholdArgs(values),
    thresholdChosen: values.method !== undefined || values.threshold !== undefined,
    stats: values.stats === true,
    labels: values.labels === true,
    maxComponents: integerArg('max-components', values['max-components'], 4096, 1, 2 ** 24),
  };
  try {
    label(labelOptions(cmd)); // validates the options, as the stream would
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^label: /, '--'));
  }
  checkOutputClashes(files, outDir, (f) => labelOutputs(f, cmd.stats, cmd.labels));
  return cmd;
}

function labelOptions(cmd: LabelCommand): LabelOptions {
  return { algorithm: cmd.algorithm as LabelOptions['algorithm'], connectivity: cmd.connectivity, passes: cmd.passes, readLabels: true };
}

/** Runs the command; returns the process exit code (1 if any image failed). */
export function runLabel(cmd: LabelCommand, log = console.log, warn = console.error): Promise<number> {
  return runOverInputs(cmd.files, cmd.outDir, async (ctx, file) => {
    if (isVideo(file)) return labelVideo(ctx, file, cmd, log);
    const img = await readImage(file, { maxPixels: ctx.maxFramePixels });
    const result = await lastValueFrom(fromPixels(ctx, [img]).pipe(threshold(cmd.threshold), label(labelOptions(cmd)), readResults()));
    const name = outputStem(file);
    const labels = result.labels!;
    await writeFile(join(cmd.outDir, `${name}.u32`), new Uint8Array(labels.buffer, labels.byteOffset, labels.byteLength));
    if (cmd.stats) {
      // A second run sized by the count just read, so the readback holds every component and no more.
      const withStats = await lastValueFrom(
        fromPixels(ctx, [img]).pipe(
          threshold(cmd.threshold),
          label({ ...labelOptions(cmd), readLabels: false }),
          features({ maxResults: Math.max(1, result.labeling!.count) }),
          readResults(),
        ),
      );
      await writeFile(join(cmd.outDir, `${name}.json`), statsJson(img.width, img.height, withStats.features!));
    }
    const gpuMs = result.timings.reduce((s, t) => s + t.ms, 0);
    const info = result.labeling!;
    // A photo taken for a mask: every pixel is foreground under the default rule, one component of the whole image.
    const photo = !cmd.thresholdChosen && info.count === 1 && labels.every((v) => v !== 0) ? ' (every pixel is nonzero: a photo rather than a mask? try --method otsu)' : '';
    log(
      `${file}: ${img.width}x${img.height}, ${info.count} components, converged ${info.converged ? 'yes' : 'no'} ` +
        `(${info.passes} passes), GPU ${ctx.features.timestamps ? gpuMs.toFixed(3) + ' ms' : 'n/a'}${photo}`,
    );
  }, warn, (ctx) => fromPixels(ctx, [blankFrame()]).pipe(threshold(cmd.threshold), label(labelOptions(cmd)), features({ maxResults: 1 }), readResults()));
}

/** The `--stats` file: one object per component, canonical labels ascending. */
export function statsJson(width: number, height: number, f: ComponentFeatures): string {
  return JSON.stringify({ width, height, count: f.count, components: componentsJson(f) }) + '\n';
}

function componentsJson(f: ComponentFeatures) {
  return Array.from(f.label, (labelValue, i) => ({
    label: labelValue,
    area: f.area[i],
    x0: f.x0[i],
    y0: f.y0[i],
    x1: f.x1[i],
    y1: f.y1[i],
    cx: f.cx[i],
    cy: f.cy[i],
    perimeter: f.perimeter[i],
    orientation: f.orientation[i],
    eccentricity: f.eccentricity[i],
    meanGray: f.meanGray[i],
  }));
}

/** One video: a JSON line per frame, written as each frame completes, and with --labels each frame's labels. */
async function labelVideo(ctx: GpuContext, file: string, cmd: LabelCommand, log: (s: string) => void): Promise<void> {
  const name = outputStem(file);
  const rule: ThresholdOptions = cmd.thresholdChosen ? cmd.threshold : { method: 'otsu', invert: cmd.threshold.invert };
  const chain: OperatorFunction<GpuFrame, FrameResult> = (frames) =>
    frames.pipe(threshold(rule), label({ ...labelOptions(cmd), readLabels: cmd.labels }), features({ maxResults: cmd.maxComponents }), readResults());
  const done = await writeVideoLines(ctx, file, join(cmd.outDir, `${name}.jsonl`), chain, (r) => {
    const f = r.features!;
    if (cmd.labels) {
      const l = r.labels!;
      writeFileSync(join(cmd.outDir, `${name}-${String(r.seq).padStart(5, '0')}.u32`), new Uint8Array(l.buffer, l.byteOffset, l.byteLength));
    }
    return JSON.stringify({ frame: r.seq, timeUs: r.timeUs, count: r.labeling!.count, ...(f.truncated ? { truncated: true } : {}), components: componentsJson(f) }) + '\n';
  });
  const v = done.info;
  const said = cmd.thresholdChosen ? '' : " (foreground: Otsu's level per frame, the default for video)";
  log(`${file}: ${v?.width}x${v?.height} ${v?.codec}, ${done.frames} frames${said}, processed at ${(done.frames / done.seconds).toFixed(1)} frames/s`);
}
