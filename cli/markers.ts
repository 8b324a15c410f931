/**
 * `flowmark markers <png|mp4...> --dictionary NAME --out-dir DIR`: fiducial markers of each image as
 * DIR/<name>.json, and of each video frame as a line of DIR/<name>.jsonl. One GPU device serves every file; a
 * file that fails is reported and the rest still run. Built on the public entry points only.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lastValueFrom, tap } from 'rxjs';
import { fromPixels, markerDictionaryNames, markers, readResults, type DetectedMarker, type GpuContext, type MarkersOptions, type VideoInfo } from '../index.js';
import { fromVideoFile, readPng } from '../node.js';
import { UsageError, checkOutputClashes, integerArg, isVideo, outputStem, progressBar, runOverInputs, videoExtensions } from './outputs.js';

export interface MarkersCommand {
  files: string[];
  outDir: string;
  options: MarkersOptions;
}

export const markersUsage = `Usage: flowmark markers <png|mp4...> --dictionary NAME --out-dir DIR [options]

Finds fiducial markers on the GPU. For an image it writes DIR/<name>.json:
  {"width","height","markers":[{"id","corners":[[x,y],[x,y],[x,y],[x,y]]}]}
corners are the outer corners of each marker's black border as printed (top-left, top-right, bottom-right,
bottom-left), in pixels with pixel centres at integers (OpenCV's convention).

Video files (${videoExtensions.join(', ')}) give DIR/<name>.jsonl, one line per frame as it is done:
  {"frame","timeUs","markers":[...]}
with a progress bar on a terminal. A video that fails part way keeps the lines of the frames done.

Options:
  --dictionary NAME        ${markerDictionaryNames.join(', ')} (any case; required)
  --out-dir DIR            where to write (created if missing); two inputs that would write one file are refused
  --windows W,W,...        adaptive threshold windows, odd (default 31,9)
  --offset C               adaptive threshold offset (default 7)
  --min-side N             smallest marker side in pixels (default 8)
`;

export function parseMarkersArgs(values: Record<string, string | boolean | undefined>, files: string[]): MarkersCommand {
  if (files.length === 0) throw new UsageError('no input images given');
  const outDir = values['out-dir'];
  if (typeof outDir !== 'string' || !outDir) throw new UsageError('--out-dir DIR is required');
  if (typeof values.dictionary !== 'string' || !values.dictionary) throw new UsageError('--dictionary NAME is required');
  const options: MarkersOptions = {
    dictionary: values.dictionary,
    offset: integerArg('offset', values.offset, 7, -255, 255),
    minSide: integerArg('min-side', values['min-side'], 8, 4, 65535),
  };
  if (values.windows !== undefined) options.windows = String(values.windows).split(',').map((w) => integerArg('windows', w, 0, 3, 255));
  try {
    markers(options); // validates the options (the dictionary's name, even windows), as the stream would
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^markers: /, '--'));
  }
  checkOutputClashes(files, outDir, (f) => ({ names: [`${outputStem(f)}.${isVideo(f) ? 'jsonl' : 'json'}`], framePrefix: null }));
  return { files, outDir, options };
}

const markersJson = (found: DetectedMarker[]) => found.map((m) => ({ id: m.id, corners: m.corners }));

/** Runs the command; returns the process exit code (1 if any file failed). */
export function runMarkers(cmd: MarkersCommand, log = console.log, warn = console.error): Promise<number> {
  return runOverInputs(cmd.files, cmd.outDir, async (ctx, file) => {
    if (isVideo(file)) return markersOfVideo(ctx, file, cmd, log);
    const img = await readPng(file, { maxPixels: ctx.maxFramePixels });
    const result = await lastValueFrom(fromPixels(ctx, [img]).pipe(markers(cmd.options), readResults()));
    const found = result.markers!.found;
    await writeFile(join(cmd.outDir, `${outputStem(file)}.json`), JSON.stringify({ width: img.width, height: img.height, markers: markersJson(found) }) + '\n');
    const gpuMs = result.timings.reduce((s, t) => s + t.ms, 0);
    log(`${file}: ${img.width}x${img.height}, ${found.length} markers${found.length ? ` (${found.map((m) => m.id).join(', ')})` : ''}, GPU ${ctx.features.timestamps ? gpuMs.toFixed(3) + ' ms' : 'n/a'}`);
  }, warn);
}

/** One video: a JSON line per frame, written as each frame completes (synchronously, so an error cannot overtake a line). */
async function markersOfVideo(ctx: GpuContext, file: string, cmd: MarkersCommand, log: (s: string) => void): Promise<void> {
  const name = outputStem(file);
  const path = join(cmd.outDir, `${name}.jsonl`);
  const out = openSync(path, 'w');
  let info: VideoInfo | null = null;
  const start = performance.now();
  const bar = progressBar(name, () => info?.frames ?? 0);
  let frames = 0;
  let seen = 0;
  try {
    await lastValueFrom(
      fromVideoFile(ctx, file, { onInfo: (i) => (info = i) }).pipe(
        markers(cmd.options),
        readResults(),
        tap((r) => {
          const found = r.markers!.found;
          writeSync(out, JSON.stringify({ frame: r.seq, timeUs: r.timeUs, markers: markersJson(found) }) + '\n');
          frames++;
          seen += found.length;
          bar?.(frames);
        }),
      ),
      { defaultValue: null },
    );
  } catch (e) {
    throw new Error(`${(e as Error).message} (${frames} frames written to ${path})`, { cause: e });
  } finally {
    if (bar) process.stderr.write('\n');
    closeSync(out);
  }
  const seconds = (performance.now() - start) / 1000;
  const v = info as VideoInfo | null;
  log(`${file}: ${v?.width}x${v?.height} ${v?.codec}, ${frames} frames, ${seen} markers, ${(frames / seconds).toFixed(1)} frames/s`);
}
