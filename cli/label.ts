/**
 * `flowmark label <png|mp4...>`: canonical labels for each image, written as DIR/<name>.u32 (little-endian uint32
 * per pixel, row-major), and for each video a JSON line per frame. One GPU device serves every file; a file that
 * fails is reported and the rest still run. Built on the public entry points only, as a user's program would be.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { concatMap, lastValueFrom } from 'rxjs';
import {
  GpuContext,
  FlowmarkError,
  features,
  fromPixels,
  label,
  labelAlgorithms,
  readResults,
  threshold,
  type ComponentFeatures,
  type LabelOptions,
  type VideoInfo,
} from '../index.js';
import { fromVideoFile, readPng } from '../node.js';

export interface LabelCommand {
  files: string[];
  outDir: string;
  connectivity: 4 | 8;
  algorithm: string;
  passes: number | 'until-converged';
  threshold: number | null;
  stats: boolean;
  /** Videos: also write each frame's labels as DIR/<name>-<frame>.u32. */
  labels: boolean;
  /** Videos: components written per frame at most. */
  maxComponents: number;
}

/** Files taken as video (MP4 container); everything else is read as PNG. */
export const videoExtensions = ['.mp4', '.m4v', '.mov'];

export class UsageError extends FlowmarkError {
  override name = 'UsageError';
}

export const labelUsage = `Usage: flowmark label <png|mp4...> --out-dir DIR [options]

Labels the connected components of each image on the GPU and writes DIR/<name>.u32: one little-endian uint32
per pixel, row-major; 0 is background, components are 1..N in raster order of their first pixel.

Options:
  --out-dir DIR            where to write the label files (created if missing)
  --connectivity 4|8       pixel connectivity (default 8)
  --algorithm NAME         ${labelAlgorithms.join(', ')}, auto (default shibata)
  --passes N|until-converged
                           propagation passes for shibata (default until-converged: exact labels)
  --threshold T            foreground is gray > T (default: any nonzero gray value)
  --stats                  also write DIR/<name>.json: per component area, box, centroid, perimeter,
                           orientation, eccentricity and mean gray, computed on the GPU

Video files (${videoExtensions.join(', ')}: H.264, VP9, AV1 in MP4, decoded by ffmpeg) give DIR/<name>.jsonl, one
line per frame: {"frame","timeUs","count","components":[...the --stats fields]}, with a progress bar on a terminal.
  --labels                 videos: also write DIR/<name>-<frame>.u32 for every frame
  --max-components N       videos: components written per frame at most (default 4096; more sets "truncated")
`;

export function parseLabelArgs(values: Record<string, string | boolean | undefined>, files: string[]): LabelCommand {
  if (files.length === 0) throw new UsageError('no input images given');
  const outDir = values['out-dir'];
  if (typeof outDir !== 'string' || !outDir) throw new UsageError('--out-dir DIR is required');
  const conn = Number(values.connectivity ?? 8);
  if (conn !== 4 && conn !== 8) throw new UsageError(`--connectivity must be 4 or 8, got ${values.connectivity}`);
  const passesArg = String(values.passes ?? 'until-converged');
  const passes = passesArg === 'until-converged' ? passesArg : Number(passesArg);
  let t: number | null = null;
  if (values.threshold !== undefined) {
    t = Number(values.threshold);
    if (!Number.isInteger(t) || t < 0 || t > 255) throw new UsageError(`--threshold must be an integer 0..255, got ${values.threshold}`);
  }
  const cmd: LabelCommand = {
    files,
    outDir,
    connectivity: conn,
    algorithm: String(values.algorithm ?? 'shibata'),
    passes,
    threshold: t,
    stats: values.stats === true,
    labels: values.labels === true,
    maxComponents: Number(values['max-components'] ?? 4096),
  };
  if (!Number.isInteger(cmd.maxComponents) || cmd.maxComponents < 1) throw new UsageError(`--max-components must be a positive integer, got ${values['max-components']}`);
  try {
    label(labelOptions(cmd)); // validates the options, as the stream would
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^label: /, '--'));
  }
  return cmd;
}

function labelOptions(cmd: LabelCommand): LabelOptions {
  return { algorithm: cmd.algorithm as LabelOptions['algorithm'], connectivity: cmd.connectivity, passes: cmd.passes, readLabels: true };
}

/** Runs the command; returns the process exit code (1 if any image failed). */
export async function runLabel(cmd: LabelCommand, log = console.log, warn = console.error): Promise<number> {
  await mkdir(cmd.outDir, { recursive: true });
  const ctx = await GpuContext.create({ label: 'flowmark-cli' });
  let failed = 0;
  try {
    for (const file of cmd.files) {
      try {
        if (videoExtensions.includes(extname(file).toLowerCase())) {
          await labelVideo(ctx, file, cmd, log);
          continue;
        }
        const img = await readPng(file);
        const result = await lastValueFrom(
          fromPixels(ctx, [img]).pipe(threshold({ level: cmd.threshold ?? 0 }), label(labelOptions(cmd)), readResults()),
        );
        const name = basename(file, extname(file));
        const labels = result.labels!;
        await writeFile(join(cmd.outDir, `${name}.u32`), new Uint8Array(labels.buffer, labels.byteOffset, labels.byteLength));
        if (cmd.stats) {
          // A second run sized by the count just read, so the readback holds every component and no more.
          const withStats = await lastValueFrom(
            fromPixels(ctx, [img]).pipe(
              threshold({ level: cmd.threshold ?? 0 }),
              label({ ...labelOptions(cmd), readLabels: false }),
              features({ maxResults: Math.max(1, result.labeling!.count) }),
              readResults(),
            ),
          );
          await writeFile(join(cmd.outDir, `${name}.json`), statsJson(img.width, img.height, withStats.features!));
        }
        const gpuMs = result.timings.reduce((s, t) => s + t.ms, 0);
        const info = result.labeling!;
        log(
          `${file}: ${img.width}x${img.height}, ${info.count} components, converged ${info.converged ? 'yes' : 'no'} ` +
            `(${info.passes} passes), GPU ${ctx.features.timestamps ? gpuMs.toFixed(3) + ' ms' : 'n/a'}`,
        );
      } catch (e) {
        failed++;
        warn(`${file}: error: ${(e as Error).message.replace(`${file}: `, '')}`);
        if (ctx.lostError) throw ctx.lostError;
      }
    }
  } finally {
    ctx.destroy();
  }
  return failed ? 1 : 0;
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

/** One video: a JSON line per frame, a progress bar on a terminal, a summary line at the end. */
async function labelVideo(ctx: GpuContext, file: string, cmd: LabelCommand, log: (s: string) => void): Promise<void> {
  const name = basename(file, extname(file));
  const lines: string[] = [];
  let info: VideoInfo | null = null;
  const start = performance.now();
  const bar = process.stderr.isTTY ? (n: number) => {
    const total = info?.frames ?? 0;
    const done = total ? Math.round((20 * n) / total) : 0;
    const fps = n / ((performance.now() - start) / 1000);
    process.stderr.write(`\r${name} [${'#'.repeat(done)}${'.'.repeat(20 - done)}] ${n}/${total} frames, ${fps.toFixed(0)} frames/s `);
  } : null;
  let frames = 0;
  await lastValueFrom(
    fromVideoFile(ctx, file, { onInfo: (i) => (info = i) }).pipe(
      threshold({ level: cmd.threshold ?? 0 }),
      label({ ...labelOptions(cmd), readLabels: cmd.labels }),
      features({ maxResults: cmd.maxComponents }),
      readResults(),
      concatMap(async (r) => {
        const f = r.features!;
        lines.push(JSON.stringify({ frame: r.seq, timeUs: r.timeUs, count: r.labeling!.count, ...(f.truncated ? { truncated: true } : {}), components: componentsJson(f) }));
        if (cmd.labels) {
          const l = r.labels!;
          await writeFile(join(cmd.outDir, `${name}-${String(r.seq).padStart(5, '0')}.u32`), new Uint8Array(l.buffer, l.byteOffset, l.byteLength));
        }
        bar?.(++frames);
        return r;
      }),
    ),
    { defaultValue: null },
  );
  if (bar) process.stderr.write('\n');
  await writeFile(join(cmd.outDir, `${name}.jsonl`), lines.length ? lines.join('\n') + '\n' : '');
  const seconds = (performance.now() - start) / 1000;
  const v = info as VideoInfo | null;
  log(`${file}: ${v?.width}x${v?.height} ${v?.codec}, ${lines.length} frames, ${(lines.length / seconds).toFixed(1)} frames/s`);
}
