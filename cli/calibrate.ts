/**
 * `flowmark calibrate <image|video...> --dictionary NAME --board C,R,SIZE,GAP[,FIRST] --out FILE`: the camera's
 * intrinsics and distortion from images (or video frames) of a printed grid board of markers, written as OpenCV's
 * calibration YAML (readable by `cv2.FileStorage`, `flowmark markers --camera-file` and `readOpenCvCalibration`).
 * Markers are found on the GPU; the calibration (Zhang's closed form, then Levenberg–Marquardt over everything) runs
 * on the CPU. Built on the public entry points only.
 */
import { writeFileSync } from 'node:fs';
import { lastValueFrom, toArray } from 'rxjs';
import { DecodeError, GpuContext, InvalidFrameError, boardViews, calibrateCamera, fromPixels, gridBoard, markers, readResults, writeOpenCvCalibration, type Board, type CalibrationView, type DetectedMarker, type FrameResult, type MarkersOptions } from '../index.js';
import { fromVideoFile, readImage } from '../node.js';
import { blankFrame, checkOutFile, compileKernels, isVideo, OutputError, videoFilesText } from './outputs.js';
import { UsageError, integerArg } from './args.js';

export interface CalibrateCommand {
  files: string[];
  out: string;
  options: MarkersOptions;
  board: Board;
  terms: 0 | 2 | 4 | 5;
  maxViews: number;
  minMarkers: number;
}

export const calibrateUsage = `Usage: flowmark calibrate <image|video...> --dictionary NAME --board C,R,SIZE,GAP[,FIRST] --out FILE [options]

Calibrates a camera from images (PNG, JPEG or WebP; or the frames of videos: ${videoFilesText}) of a printed grid board of
markers laid out as OpenCV's aruco.GridBoard (C columns and R rows of markers of side SIZE, GAP apart, ids row by
row from FIRST, default 0). Tilt the board between views (30-45 degrees, every way) and fill the frame's corners:
views taken face-on cannot fix the focal length. Writes FILE as OpenCV's calibration YAML (camera_matrix,
distortion_coefficients k1,k2,p1,p2,k3, image size, avg_reprojection_error) and prints the RMS reprojection error.

Options:
  --dictionary NAME        the board's marker dictionary (required)
  --board C,R,SIZE,GAP[,FIRST]
                           the board's layout (required; SIZE and GAP in any unit, metres say)
  --out FILE               where to write the YAML (required)
  --terms N                distortion terms to estimate: 0, 2 (k1,k2), 4 (and p1,p2) or 5 (and k3; default)
  --max-views N            views used at most, spread over those found (default 20)
  --min-markers N          board markers a view needs (default 4)
`;

export function parseCalibrateArgs(values: Record<string, string | boolean | undefined>, files: string[]): CalibrateCommand {
  if (files.length === 0) throw new UsageError('no input images given');
  if (typeof values.out !== 'string' || !values.out) throw new UsageError('--out FILE is required');
  if (typeof values.dictionary !== 'string' || !values.dictionary) throw new UsageError('--dictionary NAME is required');
  if (typeof values.board !== 'string') throw new UsageError('--board C,R,SIZE,GAP[,FIRST] is required');
  const b = values.board.split(',').map(Number);
  if ((b.length !== 4 && b.length !== 5) || b.some((x) => !Number.isFinite(x))) throw new UsageError(`--board must be C,R,SIZE,GAP[,FIRST], got ${values.board}`);
  let board: Board;
  try {
    board = gridBoard({ name: 'calibration', columns: b[0], rows: b[1], markerSize: b[2], separation: b[3], firstId: b[4] ?? 0 });
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^gridBoard: /, '--board: '));
  }
  const options: MarkersOptions = { dictionary: values.dictionary };
  try {
    markers(options);
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^markers: /, '--'));
  }
  const terms = integerArg('terms', values.terms, 5, 0, 5);
  if (terms !== 0 && terms !== 2 && terms !== 4 && terms !== 5) throw new UsageError(`--terms must be 0, 2, 4 or 5, got ${terms}`);
  return { files, out: values.out, options, board, terms, maxViews: integerArg('max-views', values['max-views'], 20, 2, 200), minMarkers: integerArg('min-markers', values['min-markers'], 4, 1, 10_000) };
}

/** Runs the command; returns the process exit code (1 if an input could not be read, the calibration made from the rest). */
export async function runCalibrate(cmd: CalibrateCommand, log = console.log, warn = console.error): Promise<number> {
  await checkOutFile('--out', cmd.out);
  const ctx = await GpuContext.create({ label: 'flowmark-calibrate' });
  const frames: { source: string; found: DetectedMarker[] }[] = [];
  let size: [number, number] | null = null;
  let failed = 0;
  try {
    await compileKernels(ctx, (c) => fromPixels(c, [blankFrame()]).pipe(markers(cmd.options), readResults()), warn);
    // An input that cannot be read is said and skipped, as label and markers do: the others may still calibrate.
    for (const [i, file] of cmd.files.entries()) {
      let results: FrameResult[];
      try {
        results = isVideo(file)
          ? await lastValueFrom(fromVideoFile(ctx, file).pipe(markers(cmd.options), readResults(), toArray()))
          : await lastValueFrom(fromPixels(ctx, [await readImage(file, { maxPixels: ctx.maxFramePixels })]).pipe(markers(cmd.options), readResults(), toArray()));
      } catch (e) {
        if (ctx.lostError || !(e instanceof DecodeError || e instanceof InvalidFrameError)) throw e;
        failed++;
        warn(`${file}: error: ${e.message.replace(`${file}: `, '')}`);
        continue;
      }
      for (const r of results) {
        if (size && (size[0] !== r.width || size[1] !== r.height)) throw new UsageError(`${file} is ${r.width}x${r.height}, the inputs before it ${size[0]}x${size[1]}: one camera, one size`);
        size = [r.width, r.height];
        frames.push({ source: isVideo(file) ? `${file} frame ${r.seq}` : file, found: r.markers!.found });
      }
      const markersSeen = results.reduce((n, r) => n + r.markers!.found.length, 0);
      warn(`${file} (${i + 1}/${cmd.files.length}): ${results.length} frame${results.length === 1 ? '' : 's'}, ${markersSeen} markers`);
    }
  } finally {
    ctx.destroy();
  }
  // The frames with enough of the board, then at most maxViews of them spread evenly.
  const usable = frames.map((f) => ({ ...f, view: boardViews(cmd.board, [f.found], cmd.minMarkers)[0] })).filter((f): f is typeof f & { view: CalibrationView } => f.view !== undefined);
  if (usable.length < 2) throw new Error(`${usable.length} of ${frames.length} frames show at least ${cmd.minMarkers} of the board's markers: calibration needs two or more (check --dictionary and --board)`);
  const step = Math.max(1, usable.length / cmd.maxViews);
  const chosen = Array.from({ length: Math.min(cmd.maxViews, usable.length) }, (_, k) => usable[Math.floor(k * step)]);
  const c = calibrateCamera(chosen.map((f) => f.view), size![0], size![1], { terms: cmd.terms });
  const k = c.camera;
  // Printed first: a file that cannot be written after all (removed or made read-only during the run) loses nothing.
  log(`${chosen.length} views of ${frames.length} frames (${usable.length} showed the board), ${size![0]}x${size![1]}`);
  chosen.forEach((f, i) => log(`  ${f.source}: ${f.view.object.length / 4} markers, error ${c.views[i].error.toFixed(3)} px`));
  log(`fx ${k.fx.toFixed(2)} fy ${k.fy.toFixed(2)} cx ${k.cx.toFixed(2)} cy ${k.cy.toFixed(2)} distortion ${k.distortion.map((d) => d.toFixed(5)).join(',')}`);
  log(`RMS reprojection error ${c.error.toFixed(3)} px`);
  try {
    writeFileSync(cmd.out, writeOpenCvCalibration(c.camera, { width: size![0], height: size![1], error: c.error }));
  } catch (e) {
    throw new OutputError(`--out ${cmd.out}: cannot write it (${(e as Error).message}); the calibration is printed above`);
  }
  log(`written to ${cmd.out}`);
  return failed ? 1 : 0;
}
