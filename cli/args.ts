/**
 * Reading the command's flags: the mistakes a user can correct (`UsageError`) and the readers of values that the CLI
 * and the benchmark programs share, so that a flag means one thing in both.
 */
import { FlowmarkError, morphologySteps, type CountingLine, type MorphElement } from '../index.js';

/** A command-line mistake the user can correct (exit code 2, usage shown). */
export class UsageError extends FlowmarkError {
  override name = 'UsageError';
}

/** An integer option given as text: digits only (so "" or "1e2" are refused, not taken as 0 or 100). */
export function integerArg(name: string, value: string | boolean | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const text = String(value).trim();
  const n = /^-?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer ${min}..${max}, got "${value}"`);
  return n;
}

/**
 * `--open` / `--close` (also bench/evaluation/trackEval.ts's): N, a square of odd side N, or WxH, a rectangle W wide and H tall
 * (morphology()'s `{ size: [W, H] }`), each odd 1..31.
 */
export function elementArg(name: 'open' | 'close', value: unknown, fallback: MorphElement): MorphElement {
  if (value === undefined) return fallback;
  const text = String(value).trim();
  const m = /^(\d+)(?:x(\d+))?$/.exec(text);
  const element: MorphElement | null = !m ? null : m[2] === undefined ? Number(m[1]) : { size: [Number(m[1]), Number(m[2])] };
  try {
    if (element === null) throw new Error();
    morphologySteps({ [name]: element });
  } catch {
    throw new UsageError(`--${name} must be N or WxH, odd integers 1..31, got "${text}"`);
  }
  return element;
}

/** An element as `elementArg` reads it, written back as its width × height ("5×9"). */
export function elementText(e: MorphElement): string {
  const size = typeof e === 'number' ? e : e.size;
  return typeof size === 'number' ? `${size}×${size}` : size.join('×');
}

/** `--foreground-learning` (also the benchmarks'): background()'s foregroundLearning, a number 0..1. */
export function learningArg(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(String(value).trim() || NaN);
  if (!(n >= 0 && n <= 1)) throw new UsageError(`--foreground-learning must be a number 0..1, got "${String(value)}"`);
  return n;
}

/** `--line x1,y1,x2,y2` (flowmark track, flowmark camera add): a counting line named by its coordinates. */
export function countingLineArg(text: string): CountingLine {
  const n = String(text).split(',').map((v) => Number(v.trim()));
  if (n.length !== 4 || n.some((v) => !Number.isFinite(v))) throw new UsageError(`--line must be x1,y1,x2,y2, got "${text}"`);
  if (n[0] === n[2] && n[1] === n[3]) throw new UsageError(`--line ${text}: its two ends are one point`);
  return { id: n.join(','), a: [n[0], n[1]], b: [n[2], n[3]] };
}
