/**
 * What every operator checks of its options before anything else: an object (or nothing), and only keys it knows.
 * An unknown key is most often a misspelt one (`minarea` for `minArea`), which would otherwise filter nothing and say
 * nothing; the nearest known key is suggested.
 */
import { InvalidOptionError } from './errors.js';

/** Edit distance between two short strings (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** The known key nearest `key` (case aside, within a third of its length), if any. */
function nearest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let least = Math.max(1, Math.floor(key.length / 3)) + 1;
  for (const k of known) {
    const d = distance(key.toLowerCase(), k.toLowerCase());
    if (d < least) [best, least] = [k, d];
  }
  return best;
}

/**
 * Throws an `InvalidOptionError` naming `who` unless `options` is undefined or an object whose own keys are all in
 * `known` (an unknown key is refused whatever its value, undefined too).
 */
export function checkOptions(who: string, options: unknown, known: readonly string[]): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new InvalidOptionError(`${who}: options must be an object, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`);
  }
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const near = nearest(key, known);
    throw new InvalidOptionError(`${who}: unknown option ${key}${near ? ` (did you mean ${near}?)` : ''}; the options are ${known.join(', ')}`);
  }
}

/** Throws an `InvalidOptionError` unless `value` is undefined or a boolean. */
export function checkBoolean(who: string, name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') throw new InvalidOptionError(`${who}: ${name} must be true or false, got ${JSON.stringify(value)}`);
}

/** A source's `format` option: 8-bit 'gray' (when undefined) or 'rgba'; anything else is an `InvalidOptionError`. */
export function pixelFormatOption(who: string, value: unknown): 'gray' | 'rgba' {
  const format = value ?? 'gray';
  if (format !== 'gray' && format !== 'rgba') throw new InvalidOptionError(`${who}: format must be 'gray' or 'rgba', got ${String(format)}`);
  return format;
}

/**
 * The keys of an options interface, every one named once: `optionKeys<FromVideoFileOptions>({ format: true, … })`
 * does not compile while a key of the interface is missing or one is not in it, so the list cannot drift from the
 * type it checks.
 */
export function optionKeys<T>(all: Record<keyof T, true>): string[] {
  return Object.keys(all);
}
