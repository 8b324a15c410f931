/**
 * `flowmark markers <png|mp4...> --dictionary NAME --out-dir DIR`: fiducial markers of each image as
 * DIR/<name>.json, and of each video frame as a line of DIR/<name>.jsonl. One GPU device serves every file; a
 * file that fails is reported and the rest still run. Built on the public entry points only.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { fromPixels, markerDictionaryNames, markers, readResults, type DetectedMarker, type GpuContext, type MarkersOptions } from '../index.js';
import { readPng } from '../node.js';
import { UsageError, checkOutputClashes, integerArg, isVideo, outputStem, runOverInputs, videoExtensions, writeVideoLines } from './outputs.js';

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

/** One video: a JSON line per frame, written as each frame completes. */
async function markersOfVideo(ctx: GpuContext, file: string, cmd: MarkersCommand, log: (s: string) => void): Promise<void> {
  let seen = 0;
  const done = await writeVideoLines(ctx, file, join(cmd.outDir, `${outputStem(file)}.jsonl`), (frames) => frames.pipe(markers(cmd.options), readResults()), (r) => {
    const found = r.markers!.found;
    seen += found.length;
    return JSON.stringify({ frame: r.seq, timeUs: r.timeUs, markers: markersJson(found) }) + '\n';
  });
  const v = done.info;
  log(`${file}: ${v?.width}x${v?.height} ${v?.codec}, ${done.frames} frames, ${seen} markers, ${(done.frames / done.seconds).toFixed(1)} frames/s`);
}
