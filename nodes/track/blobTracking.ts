/**
 * `blobTracking()`: the surveillance chain as measured (background → morphology → features → readResults → track),
 * one operator composed of the library's own, as `markers()` composes its parts. `flowmark track`, the examples, the
 * benchmarks and the browser tests all run it, so the defaults a user gets are the ones measured.
 */
import { identity, type OperatorFunction } from 'rxjs';
import type { GpuFrame } from '../../src/core/GpuFrame.js';
import type { FrameResult } from '../../src/core/results.js';
import type { PrimeImage } from '../../src/image/backgroundSettings.js';
import type { CountingLine } from '../../src/count/CountingLine.js';
import { background } from '../image/background.js';
import { morphology, type MorphElement } from '../image/morphology.js';
import { features } from '../components/features.js';
import { readResults } from '../sinks/readResults.js';
import { countLines } from './countLines.js';
import { track, type TrackOptions } from './track.js';
import { trails } from './trails.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';
import { InvalidOptionError } from '../../src/core/errors.js';

/** What the blob chain takes of `flowmark track`'s command (TrackCommand); `color` as `background()` takes it. */
export interface BlobSettings {
  history: number;
  open: MorphElement;
  close: MorphElement;
  /** background()'s factor on the learning rate of foreground pixels: what stops stays foreground 1/F times longer. */
  foregroundLearning: number;
  minArea: number;
  shadows?: boolean;
  varThreshold?: number;
  color?: boolean | 'shadows';
  /** background()'s warmup: frames at the start learning at least at OpenCV's starting rate (default: 0 with a prime, else defaultBlobSettings'). */
  warmup?: number;
  /** background()'s prime: the model's first frame, an image of the empty scene (videoFileBackground); its warmup is then not needed. */
  prime?: PrimeImage | null;
  /** features()'s histogram: true (default, as `flowmark track` runs it) or 'spatial' (track()'s placeByGray). */
  histogram?: true | 'spatial';
}

/**
 * The blob chain's measured defaults: the model learns at 1/history, what it finds foreground at half that, a 3×3
 * opening and a closing taller than wide, a warmup of 60 frames where there is no prime, blobs from 20 px (the
 * tracker's size floor leaves out the pieces). Why each: docs/decisions/background.md.
 */
export const defaultBlobSettings: Required<Pick<BlobSettings, 'history' | 'open' | 'close' | 'foregroundLearning' | 'warmup' | 'minArea'>> = { history: 500, open: 3, close: { size: [5, 9] }, foregroundLearning: 0.5, warmup: 60, minArea: 20 };

/** The fields of `from` named in `keys` (those it has). */
const pick = <T extends object>(from: T, keys: readonly string[]): Partial<T> => Object.fromEntries(Object.entries(from).filter(([k]) => keys.includes(k))) as Partial<T>;

/** BlobSettings with the measured defaults' fields optional: what `blobTracking` and `blobFeatures` take. */
export type BlobOptions = Partial<Pick<BlobSettings, keyof typeof defaultBlobSettings>> & Omit<BlobSettings, keyof typeof defaultBlobSettings>;

const blobSettingKeys = optionKeys<BlobSettings>({ history: true, open: true, close: true, foregroundLearning: true, minArea: true, shadows: true, varThreshold: true, color: true, warmup: true, prime: true, histogram: true });
const trackerChoiceKeys = optionKeys<BlobTrackerChoice>({ lines: true, maxUnseen: true, placeByGray: true, trailLength: true, sizeFloor: true });

/**
 * The options with defaultBlobSettings where one is not given (`warmup` aside: unset, it follows the prime), and the
 * model's numbers checked; the morphology and features options are checked by their operators.
 */
function blobSettings(who: string, options: BlobOptions): BlobSettings {
  const { history, open, close, foregroundLearning, minArea } = defaultBlobSettings;
  const settings: BlobSettings = { ...options, history: options.history ?? history, open: options.open ?? open, close: options.close ?? close, foregroundLearning: options.foregroundLearning ?? foregroundLearning, minArea: options.minArea ?? minArea };
  if (typeof settings.history !== 'number' || !(settings.history >= 1)) throw new InvalidOptionError(`${who}: history must be a number of frames, 1 or more, got ${String(settings.history)}`);
  return settings;
}

/** background()'s warmup when none is given: none for a model started from a prime, defaultBlobSettings' without one. */
export const blobWarmup = (primed: boolean): number => (primed ? 0 : defaultBlobSettings.warmup);

/** What the tracker takes of the command. */
export interface BlobTrackerChoice {
  lines: CountingLine[];
  maxUnseen: number;
  /** track()'s placeByGray: group members placed by where their grays lie (the chain then reads spatial histograms). */
  placeByGray?: boolean;
  /** trails()' length (default 0, no trails(): `flowmark track` writes boxes and counts; a page drawing trails wants some). */
  trailLength?: number;
  /** track()'s sizeFloor (its default where not given). */
  sizeFloor?: number;
}

/**
 * The surveillance chain: `blobFeatures`, `track()` with `blobTrackOptions`, `countLines()` and (with a trailLength)
 * `trails()`. The background model learns at
 * 1/history after its warmup (OpenCV's fast start takes in slow plain objects), starts from `prime` where one is given
 * (no ghost of what stood in view at the start), and compensates the light (docs/decisions/background.md).
 */
export function blobTracking(options: BlobOptions & Omit<BlobTrackerChoice, 'lines'> & { lines?: CountingLine[] }): OperatorFunction<GpuFrame, FrameResult> {
  checkOptions('blobTracking', options, [...blobSettingKeys, ...trackerChoiceKeys]);
  if (options === undefined) throw new InvalidOptionError('blobTracking: options are required (maxUnseen at least)');
  if (options.maxUnseen === undefined) throw new InvalidOptionError('blobTracking: maxUnseen (seconds a track is kept unseen; flowmark track gives 2) is required');
  const cmd = { ...options, ...blobSettings('blobTracking', options), lines: options.lines ?? [] };
  const trail = cmd.trailLength ?? 0;
  return (frames) =>
    frames.pipe(
      blobFeatures({ ...pick(cmd, blobSettingKeys), histogram: cmd.placeByGray ? 'spatial' : (cmd.histogram ?? true) }),
      track(blobTrackOptions(cmd)),
      countLines({ lines: cmd.lines }),
      trail > 0 ? trails({ length: trail }) : identity,
    );
}

/**
 * blobTracking up to the blobs read back (bench/evaluation/trackEval.ts keeps them to run the tracker alone again). `shadows`
 * (default true), `varThreshold` (default MOG2's, 16) and `color` (default false: RGBA frames are modelled as their
 * gray; `flowmark track` gives 'shadows' for color videos) go to the background model.
 */
export function blobFeatures(options: BlobOptions = {}): OperatorFunction<GpuFrame, FrameResult> {
  checkOptions('blobFeatures', options, blobSettingKeys);
  const cmd = blobSettings('blobFeatures', options);
  return (frames) =>
    frames.pipe(
      background({ history: cmd.history, learningRate: 1 / cmd.history, warmup: cmd.warmup ?? blobWarmup(!!cmd.prime), foregroundLearning: cmd.foregroundLearning, compensateLighting: true, detectShadows: cmd.shadows ?? true, color: cmd.color ?? false, prime: cmd.prime ?? null, ...(cmd.varThreshold === undefined ? {} : { varThreshold: cmd.varThreshold }) }),
      morphology({ open: cmd.open, close: cmd.close }),
      // Histograms: the tracker's appearance cue (Tracker.ts).
      features({ minArea: cmd.minArea, maxResults: 4096, histogram: cmd.histogram ?? true }),
      readResults({ framesPerSubmit: 4 }),
    );
}

/** blobTracking's tracker. */
export function blobTrackOptions(cmd: Omit<BlobTrackerChoice, 'lines' | 'trailLength'>): TrackOptions {
  return { maxUnseen: cmd.maxUnseen, placeByGray: cmd.placeByGray ?? false, ...(cmd.sizeFloor === undefined ? {} : { sizeFloor: cmd.sizeFloor }) };
}
