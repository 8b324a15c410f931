/**
 * Trails after track(): each track's last `length` estimated centres, oldest first, as its `trail` in the results
 * (src/track/Trails.ts). Each frame's result holds its own copy; leave trails() out where nobody draws them.
 *
 * @example
 * fromVideoFile(ctx, 'street.mp4').pipe(blobTracking({ ...defaultBlobSettings, maxUnseen: 2 }), trails({ length: 60 }))
 *   .subscribe((r) => r.tracks!.tracks.forEach((t) => console.log(t.id, t.trail.length)));
 *
 * Throws `InvalidOptionError` for a length that is not a positive integer; `InvalidFrameError` on the stream for a
 * result track() did not make.
 */
import type { OperatorFunction } from 'rxjs';
import { InvalidOptionError } from '../../src/core/errors.js';
import type { FrameResult } from '../../src/core/results.js';
import { Trails } from '../../src/track/Trails.js';
import { trackPart } from './trackPart.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';

export interface TrailsOptions {
  /** Centres kept a track (default 60). */
  length?: number;
}

export function trails(options: TrailsOptions = {}): OperatorFunction<FrameResult, FrameResult> {
  checkOptions('trails', options, optionKeys<TrailsOptions>({ length: true }));
  const length = options.length ?? 60;
  if (!Number.isInteger(length) || length < 1) throw new InvalidOptionError(`trails: length must be a positive integer, got ${String(length)}`);
  return trackPart('trails', () => new Trails(length));
}
