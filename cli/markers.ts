/**
 * `flowmark markers <image|video...> --dictionary NAME --out-dir DIR`: fiducial markers of each image as
 * DIR/<name>.json, and of each video frame as a line of DIR/<name>.jsonl. One GPU device serves every file; a
 * file that fails is reported and the rest still run. Built on the public entry points only.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { map } from 'rxjs';
import {
  MarkerPoser,
  fromPixels,
  markerDictionaryNames,
  markers,
  parseCamera,
  poseSettings,
  readOpenCvCalibration,
  readResults,
  type CameraModel,
  type FrameResult,
  type GpuContext,
  type MarkerPose,
  type MarkersOptions,
} from '../index.js';
import { readImage } from '../node.js';
import { blankFrame, checkOutputClashes, isVideo, outputStem, runOverInputs, videoFilesText, writeVideoLines } from './outputs.js';
import { UsageError, integerArg } from './args.js';

export interface MarkersCommand {
  files: string[];
  outDir: string;
  options: MarkersOptions;
  /** With --camera (or --camera-file) and --marker-size: each marker's pose too. */
  pose: { camera: CameraModel; markerSize: number } | null;
}

/** Names joined by commas in lines of at most `width` characters, each indented by `indent`. */
function wrapped(names: readonly string[], indent: number, width: number): string {
  const lines = [''];
  for (const n of names) {
    const last = lines.length - 1;
    if (lines[last] && indent + lines[last].length + n.length + 2 > width) lines.push('');
    lines[lines.length - 1] += (lines[lines.length - 1] ? ' ' : '') + n + ',';
  }
  return lines.map((l) => ' '.repeat(indent) + l).join('\n').replace(/,$/, '.');
}

export const markersUsage = `Usage: flowmark markers <image|video...> --dictionary NAME --out-dir DIR [options]

Finds fiducial markers on the GPU. For an image (PNG, JPEG or WebP) it writes DIR/<name>.json:
  {"width","height","markers":[{"id","dictionary","corners":[[x,y],[x,y],[x,y],[x,y]]}]}
corners are the outer corners of each marker's black border as printed (top-left, top-right, bottom-right,
bottom-left), in pixels with pixel centres at integers (OpenCV's convention).

Video files (${videoFilesText}) give DIR/<name>.jsonl, one line per frame as it is done:
  {"frame","timeUs","markers":[...]}
with progress on stderr (a bar on a terminal, else a line every 10 s). A video that fails part way keeps the lines of the frames done.

Options:
  --dictionary NAME[,NAME...]
                           the markers' dictionary, as OpenCV names it (any case; required), one of
${wrapped(markerDictionaryNames, 27, 116)}
                           Several, comma-separated, are read in one pass; a marker valid in two is reported once,
                           in the one with fewer corrected bits (the first listed on a tie)
  --out-dir DIR            where to write (created if missing); two inputs that would write one file are refused
  --windows W,W,...        adaptive threshold windows, odd (default 31,9)
  --offset C               adaptive threshold offset (default 7)
  --min-side N             smallest marker side in pixels (default 8)
  --camera fx,fy,cx,cy[,k1,k2,p1,p2[,k3]]
                           the camera's intrinsics and distortion (OpenCV's model), to add each marker's pose
  --camera-file FILE       the same from an OpenCV calibration file (cv::FileStorage YAML or JSON)
  --marker-size S          the markers' printed side (outer black border), in the unit wanted for tvec

With a camera and --marker-size each marker also gets "rvec" and "tvec" as OpenCV's solvePnP gives them (the
marker's centre and axes in the camera's frame: x right, y up, z out of the marker; tvec in the unit of S),
"quaternion" [x,y,z,w] and "error" (reprojection, pixels): IPPE refined by Gauss-Newton; in a video the pose of the
two a square allows that agrees with the marker's previous frame is kept where both fit about as well. No smoothing.
`;

export function parseMarkersArgs(values: Record<string, string | boolean | undefined>, files: string[]): MarkersCommand {
  if (files.length === 0) throw new UsageError('no input images given');
  const outDir = values['out-dir'];
  if (typeof outDir !== 'string' || !outDir) throw new UsageError('--out-dir DIR is required');
  if (typeof values.dictionary !== 'string' || !values.dictionary) throw new UsageError('--dictionary NAME is required');
  const names = values.dictionary.split(',').map((n) => n.trim());
  const options: MarkersOptions = {
    dictionary: names.length === 1 ? names[0] : names,
    offset: integerArg('offset', values.offset, 7, -255, 255),
    minSide: integerArg('min-side', values['min-side'], 8, 4, 65535),
  };
  if (values.windows !== undefined) options.windows = String(values.windows).split(',').map((w) => integerArg('windows', w, 0, 3, 255));
  try {
    markers(options); // validates the options (the dictionary's name, even windows), as the stream would
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^markers: /, '--'));
  }
  let pose: MarkersCommand['pose'] = null;
  const cameraText = values.camera;
  const cameraFile = values['camera-file'];
  const size = values['marker-size'];
  if (cameraText !== undefined || cameraFile !== undefined || size !== undefined) {
    if ((cameraText === undefined) === (cameraFile === undefined)) throw new UsageError('a pose needs one of --camera or --camera-file, and --marker-size');
    // The camera first: what is wrong with it is said as such, whatever else is missing.
    let camera: CameraModel;
    try {
      camera = typeof cameraText === 'string' ? parseCamera(cameraText) : readOpenCvCalibration(readCameraFile(String(cameraFile)));
    } catch (e) {
      throw new UsageError((e as Error).message.replace(/^camera: /, typeof cameraText === 'string' ? '--camera: ' : '--camera-file: '));
    }
    if (size === undefined) throw new UsageError('a pose needs --marker-size, the markers\' printed side, with the camera');
    const markerSize = Number(size);
    if (!(markerSize > 0) || !Number.isFinite(markerSize)) throw new UsageError(`--marker-size must be a positive number, got ${String(size)}`);
    pose = { camera, markerSize };
  }
  checkOutputClashes(files, outDir, (f) => ({ names: [`${outputStem(f)}.${isVideo(f) ? 'jsonl' : 'json'}`], framePrefix: null }));
  return { files, outDir, options, pose };
}

function readCameraFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--camera-file: cannot read ${path}: ${(e as Error).message}`);
  }
}

/** Poses for each frame of one input (a poser per input: a video's flips are kept from frame to frame), no smoothing. */
function poses(cmd: MarkersCommand): (r: FrameResult) => FrameResult {
  if (!cmd.pose) return (r) => r;
  const poser = new MarkerPoser(poseSettings({ ...cmd.pose, smoothing: false }));
  return (r) => ({ ...r, poses: poser.update(r.markers!.found, r.timeUs) });
}

function markersJson(r: FrameResult) {
  const byId = new Map<number, MarkerPose>((r.poses?.markers ?? []).map((p) => [p.id, p]));
  const posed = new Set<number>();
  return r.markers!.found.map((m) => {
    // The poser follows one marker per id, the first found: a second marker with that id has no pose of its own.
    const p = posed.has(m.id) ? undefined : byId.get(m.id);
    posed.add(m.id);
    if (!p) return { id: m.id, dictionary: m.dictionary, corners: m.corners };
    return { id: m.id, dictionary: m.dictionary, corners: m.corners, rvec: p.rvec, tvec: p.tvec, quaternion: p.quaternion, error: p.error };
  });
}

/** Runs the command; returns the process exit code (1 if any file failed). */
export function runMarkers(cmd: MarkersCommand, log = console.log, warn = console.error): Promise<number> {
  return runOverInputs(cmd.files, cmd.outDir, async (ctx, file) => {
    if (isVideo(file)) return markersOfVideo(ctx, file, cmd, log);
    const img = await readImage(file, { maxPixels: ctx.maxFramePixels });
    const result = await lastValueFrom(fromPixels(ctx, [img]).pipe(markers(cmd.options), readResults(), map(poses(cmd))));
    const found = result.markers!.found;
    await writeFile(join(cmd.outDir, `${outputStem(file)}.json`), JSON.stringify({ width: img.width, height: img.height, markers: markersJson(result) }) + '\n');
    const gpuMs = result.timings.reduce((s, t) => s + t.ms, 0);
    log(`${file}: ${img.width}x${img.height}, ${found.length} markers${found.length ? ` (${found.map((m) => m.id).join(', ')})` : ''}, GPU ${ctx.features.timestamps ? gpuMs.toFixed(3) + ' ms' : 'n/a'}`);
  }, warn, (ctx) => fromPixels(ctx, [blankFrame()]).pipe(markers(cmd.options), readResults()));
}

/** One video: a JSON line per frame, written as each frame completes. */
async function markersOfVideo(ctx: GpuContext, file: string, cmd: MarkersCommand, log: (s: string) => void): Promise<void> {
  let seen = 0;
  const done = await writeVideoLines(ctx, file, join(cmd.outDir, `${outputStem(file)}.jsonl`), (frames) => frames.pipe(markers(cmd.options), readResults(), map(poses(cmd))), (r) => {
    seen += r.markers!.found.length;
    return JSON.stringify({ frame: r.seq, timeUs: r.timeUs, markers: markersJson(r) }) + '\n';
  });
  const v = done.info;
  log(`${file}: ${v?.width}x${v?.height} ${v?.codec}, ${done.frames} frames, ${seen} markers, processed at ${(done.frames / done.seconds).toFixed(1)} frames/s`);
}
