/**
 * Counting lines after track(): each confirmed track's crossings of each line, by direction, into the results'
 * `tracks.counts` (so far) and `tracks.onLine` (over a line, not yet counted), and a `crossed` event per crossing
 * (src/count/CountingLines.ts; the rules: docs/operators/countLines.md).
 *
 * @example
 * fromVideoFile(ctx, 'street.mp4').pipe(blobTracking({ ...defaultBlobSettings, maxUnseen: 2 }),
 *   countLines({ lines: [{ id: 'door', a: [400, 0], b: [400, 720] }] }), trackEvents())
 *   .subscribe((e) => e.type === 'crossed' && console.log(e.id, e.direction));
 *
 * Throws `InvalidOptionError` for bad lines; `InvalidFrameError` on the stream for a result track() did not make.
 */
import type { OperatorFunction } from 'rxjs';
import type { FrameResult, TrackResults } from '../../src/core/results.js';
import type { CountingLine } from '../../src/count/CountingLine.js';
import { CountingLines } from '../../src/count/CountingLines.js';
import { checkItems, isPoint, trackPart } from './trackPart.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';

export interface CountLinesOptions {
  lines: readonly CountingLine[];
}

/** The lines of `options`, validated: each `{ id, a: [x, y], b: [x, y] }` with a ≠ b, the ids distinct. */
export function countLinesSettings(options: CountLinesOptions): readonly CountingLine[] {
  checkOptions('countLines', options, optionKeys<CountLinesOptions>({ lines: true }));
  return checkItems<CountingLine>('countLines', options, 'lines', (l) => isPoint(l.a) && isPoint(l.b) && (l.a[0] !== l.b[0] || l.a[1] !== l.b[1]), 'a line is { id, a: [x, y], b: [x, y] } with a != b');
}

export function countLines(options: CountLinesOptions): OperatorFunction<FrameResult, FrameResult> {
  const lines = countLinesSettings(options);
  return trackPart('countLines', () => new CountingLines(lines));
}

/**
 * The line counts of a stream that ends with this result (a video file's last frame): `counts` and the crossings its
 * last frames show but `counts` had not yet taken, tracks over a line by their centre with their box not yet clear of it
 * (`onLine`). A crossing counts when the box is clear of the line, so that an object standing on it counts no crossing
 * on a pixel's jitter; where the video ends, no later frame will show the box clear, so those crossings are added
 * here (docs/decisions/counting.md#counts-at-end).
 */
export function countsAtEnd(r: TrackResults): TrackResults['counts'] {
  const out: TrackResults['counts'] = {};
  for (const [id, c] of Object.entries(r.counts)) {
    const o = r.onLine[id];
    out[id] = { forward: c.forward + (o?.forward ?? 0), backward: c.backward + (o?.backward ?? 0) };
  }
  return out;
}
