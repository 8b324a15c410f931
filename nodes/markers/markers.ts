/**
 * Fiducial markers (ArUco and AprilTag dictionaries) on the GPU: the markers' black borders are components of the
 * inverted adaptive threshold, at several windows (a small marker's border vanishes in a large window's mean, a
 * large one's in a small window). The windows' masks are made in one pass and stacked, so that one `label` (C2FL;
 * its forest's roots serve as labels) and one candidate search (components whose box and boundary could be a
 * border) serve them all. Then one workgroup per candidate
 * fits the quad its boundary spans, refines the corners to subpixel along each side's normal on the gray image,
 * and reads the cells through the corners' homography; the host decodes each grid with the dictionary's error
 * correction. Only the candidates' corners and bits are read back.
 *
 * @example
 * fromCamera(ctx).pipe(markers({ dictionary: 'DICT_4X4_50' }), readResults())
 *   .subscribe((r) => console.log(r.markers?.found)); // [{ id, corners: [[x, y] ×4], … }]
 *
 * Corners are the outer corners of the black border, as printed (top-left first, clockwise), with pixel centres
 * at integers (OpenCV's convention). The CPU reference is `detectMarkersCpu` (src/reference/), step for step.
 * After `markers()` the frame carries its gray image but no `mask` or `labels` (those were the stacked windows').
 * Throws `InvalidOptionError` for bad options (an unknown dictionary included); `InvalidFrameError` on the stream
 * for a frame the device cannot take.
 */
import type { OperatorFunction } from 'rxjs';
import type { GpuFrame } from '../../src/core/GpuFrame.js';
import { InvalidOptionError } from '../../src/core/errors.js';
import { checkOptions } from '../../src/core/checkOptions.js';
import { label } from '../components/label.js';
import { markerDictionary, MarkerDictionary } from './MarkerDictionary.js';
import { markerCandidates } from './markerCandidates.js';
import { markerThreshold } from './markerThreshold.js';
import { markerFit } from './markerFit.js';
import { defaultWindows, defaultMinContrast } from '../../src/markers/params.js';

export interface MarkersOptions {
  /**
   * A dictionary, or its name as OpenCV spells it (any case): `'DICT_4X4_50'`, `'DICT_APRILTAG_36h11'`…; or several,
   * read in one pass: each marker says its `dictionary`, and where a marker reads in two, the one with fewer
   * corrected bits is kept, the first listed on a tie.
   */
  dictionary: string | MarkerDictionary | readonly (string | MarkerDictionary)[];
  /** Adaptive threshold windows (odd, 3..255, at most 8; default 31 and 9); a marker seen at several is kept from the first. */
  windows?: number[];
  /** Adaptive threshold offset (default 7): a border pixel is darker than its window's mean by more than this. */
  offset?: number;
  /** Smallest side of a candidate's box in pixels (default 8). */
  minSide?: number;
  /**
   * Candidates examined per frame at most, over all windows (default 1024; `overflow` says when there were more).
   * Where there are more, the largest are examined and the smallest sides left out, a whole side at a time, so that
   * a frame gives the same markers every run.
   */
  maxCandidates?: number;
  /** Boundary pixels of all candidates per frame at most (default 2^20). */
  maxPoints?: number;
  /** Share of each marker's error-correction radius used (0..1, default 0.6, as OpenCV's `errorCorrectionRate`). */
  correctionRate?: number;
  /** Least difference between black and white cell means, in gray levels (default 20). */
  minContrast?: number;
}

function integer(name: string, v: number, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max) throw new InvalidOptionError(`markers: ${name} must be an integer ${min}..${max}, got ${v}`);
  return v;
}

function dictionaryList(given: MarkersOptions['dictionary']): MarkerDictionary[] {
  const list = Array.isArray(given) ? given : [given];
  if (list.length === 0) throw new InvalidOptionError('markers: dictionary must name at least one dictionary');
  const dictionaries = list.map((d: string | MarkerDictionary) => (d instanceof MarkerDictionary ? d : markerDictionary(d)));
  const names = dictionaries.map((d) => d.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new InvalidOptionError(`markers: dictionary ${twice} is listed twice`);
  return dictionaries;
}

export function markers(options: MarkersOptions): OperatorFunction<GpuFrame, GpuFrame> {
  return markersWith(options, {});
}

/** @internal `markers()` with the fit's invocations per workgroup chosen (tests run both); not public API. */
export function markersWith(options: MarkersOptions, tuning: { fitInvocations?: 256 | 512 }): OperatorFunction<GpuFrame, GpuFrame> {
  if (!options || typeof options !== 'object') throw new InvalidOptionError('markers: options with a dictionary are required');
  checkOptions('markers', options, ['dictionary', 'windows', 'offset', 'minSide', 'maxCandidates', 'maxPoints', 'correctionRate', 'minContrast']);
  if (options.dictionary === undefined) throw new InvalidOptionError(`markers: dictionary is required, e.g. markers({ dictionary: 'DICT_4X4_50' })`);
  const dictionaries = dictionaryList(options.dictionary);
  const windows = options.windows ?? defaultWindows;
  if (!Array.isArray(windows) || windows.length === 0 || windows.length > 8) throw new InvalidOptionError('markers: windows must be a list of 1 to 8 odd sizes');
  for (const w of windows) {
    integer('each window', w, 3, 255);
    if (w % 2 === 0) throw new InvalidOptionError(`markers: windows must be odd, got ${w}`);
  }
  const offset = integer('offset', options.offset ?? 7, -255, 255);
  const minSide = integer('minSide', options.minSide ?? 8, 4, 65535);
  const maxCandidates = integer('maxCandidates', options.maxCandidates ?? 1024, 1, 65535);
  const pointCapacity = integer('maxPoints', options.maxPoints ?? 1 << 20, 64, 1 << 26);
  const correctionRate = options.correctionRate ?? 0.6;
  if (typeof correctionRate !== 'number' || !(correctionRate >= 0 && correctionRate <= 1)) {
    throw new InvalidOptionError(`markers: correctionRate must be a number 0..1, got ${String(correctionRate)}`);
  }
  const minContrast = options.minContrast ?? defaultMinContrast;
  if (typeof minContrast !== 'number' || !(minContrast >= 0 && minContrast <= 255)) {
    throw new InvalidOptionError(`markers: minContrast must be a number 0..255, got ${String(minContrast)}`);
  }
  return (source) =>
    source.pipe(
      markerThreshold({ windows, offset }),
      // The forest's roots are labels enough: candidates index their table by root pixel (no canonical renumbering).
      label({ algorithm: 'c2fl', connectivity: 8, canonical: false }),
      markerCandidates({ windows: windows.length, maxCandidates, pointCapacity, minSide }),
      markerFit({ dictionaries, maxCandidates, correctionRate, minContrast, invocations: tuning.fitInvocations }),
    );
}
