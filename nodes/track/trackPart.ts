/** An operator after track() that adds to its results: one part (counting lines, zones, trails) per subscription. */
import { defer, map, type OperatorFunction } from 'rxjs';
import { InvalidFrameError, InvalidOptionError } from '../../src/core/errors.js';
import type { FrameResult, TrackResults } from '../../src/core/results.js';

export function trackPart(name: string, make: () => { apply(r: TrackResults): TrackResults }): OperatorFunction<FrameResult, FrameResult> {
  return (source) =>
    defer(() => {
      const part = make();
      return source.pipe(
        map((r) => {
          if (!r.tracks) throw new InvalidFrameError(`${name}: the result has no tracks; put ${name}() after track()`);
          return { ...r, tracks: part.apply(r.tracks) };
        }),
      );
    });
}

/** Whether `p` is a point `[x, y]` of finite numbers. */
export const isPoint = (p: unknown) => Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === 'number' && Number.isFinite(v));

/**
 * `options[key]` of a part's options, validated: an array of items each `valid` (else an `InvalidOptionError` saying
 * `shape`), their ids distinct.
 */
export function checkItems<T extends { id: string }>(name: string, options: unknown, key: string, valid: (item: T) => boolean, shape: string): readonly T[] {
  const items = options !== null && typeof options === 'object' ? (options as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(items)) throw new InvalidOptionError(`${name}: options are { ${key}: [...] }`);
  const ids = new Set<string>();
  for (const item of items as T[]) {
    if (!(typeof item?.id === 'string' && valid(item))) throw new InvalidOptionError(`${name}: ${shape}, got ${JSON.stringify(item)}`);
    if (ids.has(item.id)) throw new InvalidOptionError(`${name}: ids must be distinct, got ${item.id} twice`);
    ids.add(item.id);
  }
  return items as T[];
}
