/**
 * `flowmark calibrate <image|video...> --dictionary NAME (--board C,R,SIZE,GAP[,FIRST] | --charuco X,Y,SQUARE,MARKER)
 * --out FILE`: the camera's intrinsics and distortion from images (or video frames) of a printed grid board of
 * markers or a ChArUco board, written as OpenCV's calibration YAML (readable by `cv2.FileStorage`, `flowmark markers
 * --camera-file` and `readOpenCvCalibration`). Markers are found on the GPU; a ChArUco board's chessboard corners are
 * placed from them and refined on each frame's pixels, which are kept only until the frame's markers arrive; the
 * calibration (Zhang's closed form, then Levenberg–Marquardt over everything) runs on the CPU. Built on the public
 * entry points only.
 */
import { writeFileSync } from 'node:fs';
import { lastValueFrom, map, toArray } from 'rxjs';
import { DecodeError, GpuContext, InvalidFrameError, boardViews, calibrateCamera, charucoBoard, charucoCorners, charucoViews, fromPixels, grayFromRgba, gridBoard, markers, readResults, refineChessCorners, writeOpenCvCalibration, type Board, type CalibrationView, type CharucoBoard, type MarkersOptions, type PixelImage } from '../index.js';
import { readImage, readVideoFrames } from '../node.js';
import { blankFrame, checkOutFile, compileKernels, isVideo, OutputError, videoFilesText } from './outputs.js';
import { UsageError, integerArg } from './args.js';

export interface CalibrateCommand {
  files: string[];
  out: string;
  options: MarkersOptions;
  /** A grid board (views from its markers' corners) or a ChArUco board (views from its chessboard corners). */
  board: { kind: 'grid'; board: Board; minMarkers: number } | { kind: 'charuco'; board: CharucoBoard; minCorners: number };
  terms: 0 | 2 | 4 | 5;
  maxViews: number;
}

export const calibrateUsage = `Usage: flowmark calibrate <image|video...> --dictionary NAME (--board C,R,SIZE,GAP[,FIRST] | --charuco X,Y,SQUARE,MARKER) --out FILE [options]

Calibrates a camera from images (PNG, JPEG or WebP; or the frames of videos: ${videoFilesText}) of a printed board:
a grid board of markers laid out as OpenCV's aruco.GridBoard (C columns and R rows of markers of side SIZE, GAP
apart, ids row by row from FIRST, default 0), or a ChArUco board laid out as OpenCV's aruco.CharucoBoard (X by Y
squares of side SQUARE, markers of side MARKER on the white ones, ids from 0), whose chessboard corners are placed
more exactly than marker corners. Tilt the board between views (30-45 degrees, every way) and fill the frame's
corners: views taken face-on cannot fix the focal length. Writes FILE as OpenCV's calibration YAML (camera_matrix,
distortion_coefficients k1,k2,p1,p2,k3, image size, avg_reprojection_error) and prints the RMS reprojection error.

Options:
  --dictionary NAME        the board's marker dictionary (required)
  --board C,R,SIZE,GAP[,FIRST]
                           a grid board's layout (SIZE and GAP in any unit, metres say)
  --charuco X,Y,SQUARE,MARKER
                           a ChArUco board's layout (one of --board and --charuco is required)
  --out FILE               where to write the YAML (required)
  --terms N                distortion terms to estimate: 0, 2 (k1,k2), 4 (and p1,p2) or 5 (and k3; default)
  --max-views N            views used at most, spread over those found (default 20)
  --min-markers N          grid board: board markers a view needs (default 4)
  --min-corners N          ChArUco board: chessboard corners a view needs (default 6)
`;

export function parseCalibrateArgs(values: Record<string, string | boolean | undefined>, files: string[]): CalibrateCommand {
  if (files.length === 0) throw new UsageError('no input images given');
  if (typeof values.out !== 'string' || !values.out) throw new UsageError('--out FILE is required');
  if (typeof values.dictionary !== 'string' || !values.dictionary) throw new UsageError('--dictionary NAME is required');
  if (typeof values.board === 'string' && typeof values.charuco === 'string') throw new UsageError('give --board or --charuco, not both');
  const options: MarkersOptions = { dictionary: values.dictionary };
  try {
    markers(options);
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^markers: /, '--'));
  }
  const numbers = (name: string, text: string, counts: number[], form: string) => {
    const b = text.split(',').map((x) => (x.trim() === '' ? NaN : Number(x)));
    if (!counts.includes(b.length) || b.some((x) => !Number.isFinite(x))) throw new UsageError(`--${name} must be ${form}, got ${text}`);
    return b;
  };
  let board: CalibrateCommand['board'];
  try {
    if (typeof values.charuco === 'string') {
      const [squaresX, squaresY, squareLength, markerLength] = numbers('charuco', values.charuco, [4], 'X,Y,SQUARE,MARKER');
      board = { kind: 'charuco', board: charucoBoard({ squaresX, squaresY, squareLength, markerLength, dictionary: values.dictionary }), minCorners: integerArg('min-corners', values['min-corners'], 6, 4, 100_000) };
    } else if (typeof values.board === 'string') {
      const b = numbers('board', values.board, [4, 5], 'C,R,SIZE,GAP[,FIRST]');
      board = { kind: 'grid', board: gridBoard({ name: 'calibration', columns: b[0], rows: b[1], markerSize: b[2], separation: b[3], firstId: b[4] ?? 0 }), minMarkers: integerArg('min-markers', values['min-markers'], 4, 1, 10_000) };
    } else {
      throw new UsageError('--board C,R,SIZE,GAP[,FIRST] or --charuco X,Y,SQUARE,MARKER is required');
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError((e as Error).message.replace(/^gridBoard: /, '--board: ').replace(/^charucoBoard: /, '--charuco: '));
  }
  const terms = integerArg('terms', values.terms, 5, 0, 5);
  if (terms !== 0 && terms !== 2 && terms !== 4 && terms !== 5) throw new UsageError(`--terms must be 0, 2, 4 or 5, got ${terms}`);
  return { files, out: values.out, options, board, terms, maxViews: integerArg('max-views', values['max-views'], 20, 2, 200) };
}

/** A frame's calibration view, if it shows enough of the board: its markers' corners, or its chessboard corners refined on its pixels. */
function viewOf(cmd: CalibrateCommand, found: Parameters<typeof boardViews>[1][number], image: PixelImage): CalibrationView | undefined {
  const b = cmd.board;
  if (b.kind === 'grid') return boardViews(b.board, [found], b.minMarkers)[0];
  const placed = charucoCorners(b.board, found);
  if (placed.length < b.minCorners) return undefined;
  const gray = image.format === 'gray' ? image.data : grayFromRgba(image.data, image.width * image.height);
  const refined = refineChessCorners(gray, image.width, image.height, placed.map((c) => c.at), { half: placed.map((c) => c.window) });
  return charucoViews(b.board, [placed.map((c, i) => ({ id: c.id, at: refined[i] }))], b.minCorners)[0];
}

/** Runs the command; returns the process exit code (1 if an input could not be read, the calibration made from the rest). */
export async function runCalibrate(cmd: CalibrateCommand, log = console.log, warn = console.error): Promise<number> {
  await checkOutFile('--out', cmd.out);
  const ctx = await GpuContext.create({ label: 'flowmark-calibrate' });
  const frames: { source: string; view: CalibrationView | undefined }[] = [];
  let size: [number, number] | null = null;
  let failed = 0;
  try {
    await compileKernels(ctx, (c) => fromPixels(c, [blankFrame()]).pipe(markers(cmd.options), readResults()), warn);
    // An input that cannot be read is said and skipped, as label and markers do: the others may still calibrate.
    for (const [i, file] of cmd.files.entries()) {
      // Each frame's pixels are held until its markers arrive (results come in frame order), then let go.
      const held: PixelImage[] = [];
      async function* pixels(): AsyncGenerator<PixelImage> {
        const source = isVideo(file) ? readVideoFrames(file) : [await readImage(file, { maxPixels: ctx.maxFramePixels })];
        for await (const image of source) {
          held.push(image);
          yield image;
        }
      }
      let results: { seq: number; width: number; height: number; markers: number; view: CalibrationView | undefined }[];
      try {
        results = await lastValueFrom(
          fromPixels(ctx, pixels()).pipe(
            markers(cmd.options),
            readResults(),
            map((r) => ({ seq: r.seq, width: r.width, height: r.height, markers: r.markers!.found.length, view: viewOf(cmd, r.markers!.found, held.shift()!) })),
            toArray(),
          ),
        );
      } catch (e) {
        if (ctx.lostError || !(e instanceof DecodeError || e instanceof InvalidFrameError)) throw e;
        failed++;
        warn(`${file}: error: ${e.message.replace(`${file}: `, '')}`);
        continue;
      }
      for (const r of results) {
        if (size && (size[0] !== r.width || size[1] !== r.height)) throw new UsageError(`${file} is ${r.width}x${r.height}, the inputs before it ${size[0]}x${size[1]}: one camera, one size`);
        size = [r.width, r.height];
        frames.push({ source: isVideo(file) ? `${file} frame ${r.seq}` : file, view: r.view });
      }
      const markersSeen = results.reduce((n, r) => n + r.markers, 0);
      warn(`${file} (${i + 1}/${cmd.files.length}): ${results.length} frame${results.length === 1 ? '' : 's'}, ${markersSeen} markers`);
    }
  } finally {
    ctx.destroy();
  }
  // The frames with enough of the board, then at most maxViews of them spread evenly.
  const usable = frames.filter((f): f is typeof f & { view: CalibrationView } => f.view !== undefined);
  const enough = cmd.board.kind === 'grid' ? `at least ${cmd.board.minMarkers} of the board's markers` : `at least ${cmd.board.minCorners} of the board's chessboard corners`;
  if (usable.length < 2) throw new Error(`${usable.length} of ${frames.length} frames show ${enough}: calibration needs two or more (check --dictionary and ${cmd.board.kind === 'grid' ? '--board' : '--charuco'})`);
  const step = Math.max(1, usable.length / cmd.maxViews);
  const chosen = Array.from({ length: Math.min(cmd.maxViews, usable.length) }, (_, k) => usable[Math.floor(k * step)]);
  const c = calibrateCamera(chosen.map((f) => f.view), size![0], size![1], { terms: cmd.terms });
  const k = c.camera;
  // Printed first: a file that cannot be written after all (removed or made read-only during the run) loses nothing.
  log(`${chosen.length} views of ${frames.length} frames (${usable.length} showed the board), ${size![0]}x${size![1]}`);
  const points = (v: CalibrationView) => (cmd.board.kind === 'grid' ? `${v.object.length / 4} markers` : `${v.object.length} corners`);
  chosen.forEach((f, i) => log(`  ${f.source}: ${points(f.view)}, error ${c.views[i].error.toFixed(3)} px`));
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
