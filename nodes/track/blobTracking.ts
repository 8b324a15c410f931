/**
 * `blobTracking()`: the surveillance chain as measured (background → morphology → features → readResults → track),
 * one operator composed of the library's own, as `markers()` composes its parts. `flowmark track`, the examples, the
 * benchmarks and the browser tests all run it, so the defaults a user gets are the ones measured.
 */
import type { OperatorFunction } from 'rxjs';
import type { GpuFrame } from '../../src/core/GpuFrame.js';
import type { FrameResult } from '../../src/core/results.js';
import type { PrimeImage } from '../../src/image/backgroundSettings.js';
import type { CountingLine } from '../../src/track/Tracker.js';
import { background } from '../image/background.js';
import { morphology, type MorphElement } from '../image/morphology.js';
import { features } from '../components/features.js';
import { readResults } from '../sinks/readResults.js';
import { track, type TrackOptions } from './track.js';

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
 * `flowmark track`'s defaults for the blob chain (bench/trackEval.ts runs with them unless told otherwise). A pixel
 * inside a plain object walking along its own height (toward or away from the camera) or stopping sees one gray for
 * many frames and the model takes it in, leaving the object's ends: foreground learns at half the rate, and the
 * closing is taller than wide, joining an upright figure's pieces but not neighbours side by side (BENCHMARKS.md,
 * issue 12, forty-first session). Without a prime (`flowmark track --prime 0`), the first 60 frames learn at OpenCV's
 * starting rate where that is faster (background()'s warmup): what stood in view when the video began and left is
 * learnt away, not tracked as a ghost (fifty-seventh session: the only warmup tried that kept issue 12's goals on clips
 * with objects in view at the start). With a prime (the default in `flowmark track`, fifty-eighth session) there is
 * no warmup: the model starts from the scene behind what moves. The smallest blob kept on the GPU is 20 px, low
 * enough for objects 14 px tall: the tracker leaves out the smaller pieces of larger objects it tracks by their own
 * size (track()'s sizeFloor; a floor of 100 px, the default before, dropped such objects whole: BENCHMARKS.md,
 * sixty-first session).
 */
export const defaultBlobSettings: Required<Pick<BlobSettings, 'history' | 'open' | 'close' | 'foregroundLearning' | 'warmup' | 'minArea'>> = { history: 500, open: 3, close: { size: [5, 9] }, foregroundLearning: 0.5, warmup: 60, minArea: 20 };

/** background()'s warmup when none is given: none for a model started from a prime, defaultBlobSettings' without one. */
export const blobWarmup = (primed: boolean): number => (primed ? 0 : defaultBlobSettings.warmup);

/** What the tracker takes of the command. */
export interface BlobTrackerChoice {
  lines: CountingLine[];
  maxUnseen: number;
  /** track()'s placeByGray: group members placed by where their grays lie (the chain then reads spatial histograms). */
  placeByGray?: boolean;
  /** track()'s sizeFloor (its default where not given). */
  sizeFloor?: number;
}

/**
 * The chain `flowmark track` runs on each video (bench/trackEval.ts runs it too). The background model learns at
 * 1/history once its warmup is over: OpenCV's default goes on faster (1/(2·frame) until 2·frame reaches the
 * history), which takes in the insides of slow, plain objects in the first seconds of any clip and splits them into
 * fragments (BENCHMARKS.md); started from the first frame with no warmup, an object already in it would leave a ghost
 * for about 0.1·history/foregroundLearning frames (`prime`, an image of the scene behind what moves, avoids it). Lighting is compensated: a camera's exposure or the light changing over the whole scene
 * would otherwise be foreground everywhere (a brighter step) until the model learns it.
 */
export function blobTracking(cmd: BlobSettings & BlobTrackerChoice): OperatorFunction<GpuFrame, FrameResult> {
  return (frames) => frames.pipe(blobFeatures({ ...cmd, histogram: cmd.placeByGray ? 'spatial' : (cmd.histogram ?? true) }), track(blobTrackOptions(cmd)));
}

/**
 * blobTracking up to the blobs read back (bench/trackEval.ts keeps them to run the tracker alone again). `shadows`
 * (default true), `varThreshold` (default MOG2's, 16) and `color` (default false: RGBA frames are modelled as their
 * gray; `flowmark track` gives 'shadows' for color videos) go to the background model.
 */
export function blobFeatures(cmd: BlobSettings): OperatorFunction<GpuFrame, FrameResult> {
  return (frames) =>
    frames.pipe(
      background({ history: cmd.history, learningRate: 1 / cmd.history, warmup: cmd.warmup ?? blobWarmup(!!cmd.prime), foregroundLearning: cmd.foregroundLearning, compensateLighting: true, detectShadows: cmd.shadows ?? true, color: cmd.color ?? false, prime: cmd.prime ?? null, ...(cmd.varThreshold === undefined ? {} : { varThreshold: cmd.varThreshold }) }),
      morphology({ open: cmd.open, close: cmd.close }),
      // Histograms: the tracker's appearance cue (Tracker.ts).
      features({ minArea: cmd.minArea, maxResults: 4096, histogram: cmd.histogram ?? true }),
      readResults({ framesPerSubmit: 4 }),
    );
}

/** blobTracking's tracker. No trails: the CLI writes boxes and counts, and a trail is copied into every frame's result. */
export function blobTrackOptions(cmd: BlobTrackerChoice): TrackOptions {
  return { lines: cmd.lines, maxUnseen: cmd.maxUnseen, trailLength: 0, placeByGray: cmd.placeByGray ?? false, ...(cmd.sizeFloor === undefined ? {} : { sizeFloor: cmd.sizeFloor }) };
}
