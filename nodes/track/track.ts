/**
 * Track: follows the blobs `features()` reports from frame to frame and gives them ids that last, on the CPU over
 * the compact results (after `readResults()`): Kalman prediction, Hungarian assignment on overlap and distance,
 * tentative / confirmed / lost states, groups kept apart through crossings (src/track/Tracker.ts). Adds
 * `result.tracks` (tracks, this frame's entered and left events); countLines(), zones() and trails() after it add
 * their own, and `trackEvents()` turns the results into a stream of the events alone.
 *
 * @example
 * fromVideoFile(ctx, 'street.mp4').pipe(background(), morphology({ open: 3, close: 5 }), features({ minArea: 80 }),
 *   readResults(), track(), trackEvents())
 *   .subscribe((e) => console.log(e.type, e.id));
 *
 * Throws `InvalidOptionError` for bad or unknown options (and for lines, zones or trailLength, now operators of their own); `InvalidFrameError` on the stream for a result without features.
 */
import { defer, map, mergeMap, from, type OperatorFunction } from 'rxjs';
import type { ComponentFeatures } from '../../src/components/componentFeatures.js';
import type { FrameResult, TrackEvent } from '../../src/core/results.js';
import { InvalidFrameError, InvalidOptionError } from '../../src/core/errors.js';
import { boxShare } from '../../src/track/boxShare.js';
import { defaultTrackSettings, Tracker, type Box, type TrackSettings } from '../../src/track/Tracker.js';
import { memberInside } from '../../src/track/tuning.js';
import { checkOptions } from '../../src/core/checkOptions.js';

export type TrackOptions = Partial<TrackSettings>;

/** Options of track() before 0.2.0 that are now operators of their own after it: the operator and its option. */
const movedTo: Record<string, readonly [string, string]> = { lines: ['countLines', 'lines'], zones: ['zones', 'zones'], trailLength: ['trails', 'length'] };

/** `options` over the defaults, validated. */
export function trackSettings(options: TrackOptions = {}): TrackSettings {
  // A moved key is said as moved, before it would be refused as unknown.
  if (options && typeof options === 'object') {
    for (const key of Object.keys(options)) {
      const [op, option] = movedTo[key] ?? [];
      if (op) throw new InvalidOptionError(`track: ${key} moved to ${op}(), an operator after track(): track(), ${op}({ ${option}: … })`);
    }
  }
  checkOptions('track', options, Object.keys(defaultTrackSettings));
  const s = { ...defaultTrackSettings, ...options };
  const check = (ok: boolean, what: string, value: unknown) => {
    if (!ok) throw new InvalidOptionError(`track: ${what}, got ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  };
  const positive = (v: number) => typeof v === 'number' && Number.isFinite(v) && v > 0;
  check(Number.isInteger(s.minHits) && s.minHits >= 1, 'minHits must be a positive integer', s.minHits);
  for (const key of ['maxUnseen', 'gate', 'measurementNoise', 'acceleration', 'frameInterval'] as const) check(positive(s[key]), `${key} must be a positive number`, s[key]);
  check(typeof s.iouWeight === 'number' && s.iouWeight >= 0 && s.iouWeight <= 1, 'iouWeight must be in [0, 1]', s.iouWeight);
  check(typeof s.appearanceWeight === 'number' && Number.isFinite(s.appearanceWeight) && s.appearanceWeight >= 0, 'appearanceWeight must be a number ≥ 0', s.appearanceWeight);
  check(typeof s.placeByGray === 'boolean', 'placeByGray must be true or false', s.placeByGray);
  check(typeof s.joinPieces === 'boolean', 'joinPieces must be true or false', s.joinPieces);
  check(typeof s.groups === 'boolean', 'groups must be true or false', s.groups);
  check(typeof s.sizeFloor === 'number' && s.sizeFloor >= 0 && s.sizeFloor < 1, 'sizeFloor must be in [0, 1)', s.sizeFloor);
  return s;
}

export function track(options: TrackOptions = {}): OperatorFunction<FrameResult, FrameResult> {
  const s = trackSettings(options);
  return (source) =>
    defer(() => {
      // One tracker per subscription: ids start at 1 for each stream.
      const tracker = new Tracker(s);
      return source.pipe(
        map((r) => {
          const f = r.features;
          if (!f) throw new InvalidFrameError('track: the result has no features; put features() before readResults()');
          const boxes: Box[] = Array.from(f.label, (_, i) => [f.x0[i], f.y0[i], f.x1[i], f.y1[i]] as const);
          return { ...r, tracks: tracker.update(boxes, r.timeUs, f.histogram, r, f.histogramX, f.histogramY) };
        }),
      );
    });
}

/** The tracks' events (entered, left, crossed, zoneEntered, zoneLeft), one by one, in frame order. */
export function trackEvents(): OperatorFunction<FrameResult, TrackEvent> {
  return mergeMap((r) => from(r.tracks?.events ?? []));
}

/** Blob j's box, or with `piece` (≥ 0: the other piece of an object joined across an occluder) the two boxes' union. */
function blobBox(f: ComponentFeatures, j: number, piece: number): [number, number, number, number] {
  if (piece < 0) return [f.x0[j], f.y0[j], f.x1[j], f.y1[j]];
  return [Math.min(f.x0[j], f.x0[piece]), Math.min(f.y0[j], f.y0[piece]), Math.max(f.x1[j], f.x1[piece]), Math.max(f.y1[j], f.y1[piece])];
}

/**
 * The tracks a frame's result reports as seen, as a tracking benchmark (MOTChallenge) reads them: confirmed tracks
 * matched to a blob, with that blob's box (an object's two pieces either side of an occluder: their union; an object
 * an occluder cuts: its whole box, `TrackInfo.whole`, as a benchmark's truth boxes are whole objects), and those
 * in a group whose estimated box lies mostly (`memberInside`) in the group's blob, with that estimate rounded. Boxes
 * are inclusive pixel bounds.
 */
export function seenTracks(r: FrameResult): { id: number; box: [number, number, number, number] }[] {
  const f = r.features;
  if (!f || !r.tracks) throw new InvalidFrameError('seenTracks: the result has no features or tracks; put features() and track() first');
  const seen: { id: number; box: [number, number, number, number] }[] = [];
  for (const t of r.tracks.tracks) {
    if (t.state !== 'confirmed') continue;
    const j = t.blob;
    if (j >= 0) {
      seen.push({ id: t.id, box: t.whole ?? blobBox(f, j, t.piece ?? -1) });
      continue;
    }
    const g = t.group;
    if (!t.merged || g < 0) continue;
    const box: [number, number, number, number] = [Math.round(t.box[0]), Math.round(t.box[1]), Math.round(t.box[2]), Math.round(t.box[3])];
    const b = blobBox(f, g, t.groupPiece ?? -1);
    if (boxShare(box[0], box[1], box[2], box[3], b[0], b[1], b[2], b[3]) >= memberInside) seen.push({ id: t.id, box });
  }
  return seen;
}
