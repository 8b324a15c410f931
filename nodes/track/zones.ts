/**
 * Zones after track(): per zone, the confirmed tracks inside it now and each one's seconds inside so far, into the
 * results' `tracks.zones`, and `zoneEntered` / `zoneLeft` events (src/count/Zones.ts).
 *
 * @example
 * fromVideoFile(ctx, 'street.mp4').pipe(blobTracking({ ...defaultBlobSettings, maxUnseen: 2 }),
 *   zones({ zones: [{ id: 'door', polygon: [[0, 0], [200, 0], [200, 200], [0, 200]] }] }))
 *   .subscribe((r) => console.log(r.tracks!.zones.door.occupancy));
 *
 * Throws `InvalidOptionError` for bad zones; `InvalidFrameError` on the stream for a result track() did not make.
 */
import type { OperatorFunction } from 'rxjs';
import type { FrameResult } from '../../src/core/results.js';
import { Zones, type Zone } from '../../src/count/Zones.js';
import { checkItems, isPoint, trackPart } from './trackPart.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';

export interface ZonesOptions {
  zones: readonly Zone[];
}

/** The zones of `options`, validated: each `{ id, polygon }` with 3 corners or more, the ids distinct. */
export function zonesSettings(options: ZonesOptions): readonly Zone[] {
  checkOptions('zones', options, optionKeys<ZonesOptions>({ zones: true }));
  return checkItems<Zone>('zones', options, 'zones', (z) => Array.isArray(z.polygon) && z.polygon.length >= 3 && z.polygon.every(isPoint), 'a zone is { id, polygon: [[x, y], ...] } with 3 corners or more');
}

export function zones(options: ZonesOptions): OperatorFunction<FrameResult, FrameResult> {
  const list = zonesSettings(options);
  return trackPart('zones', () => new Zones(list));
}
