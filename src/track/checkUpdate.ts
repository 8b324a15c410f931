/**
 * What `Tracker.update` is given, checked before the tracker changes anything: the tracker is public, and boxes from
 * another detector (a network's, a file's) reach it as the caller made them. A NaN taken in stays in a track's Kalman
 * filter for good (its box NaN from then on, matching nothing), an inverted box matched a track as a 1 px box, and a
 * check made halfway through `update` (as the bins' places' once was, after every track had been moved to the new
 * frame) left the tracks a frame ahead of their objects.
 */
import { InvalidFrameError } from '../core/errors.js';
import type { FrameSize } from '../core/PerFrame.js';
import type { Box } from './TrackSettings.js';

/** A box as given, for a message: numbers as JavaScript writes them (NaN, Infinity), strings quoted. */
const shown = (b: unknown) => (Array.isArray(b) ? `[${b.map((v) => (typeof v === 'string' ? JSON.stringify(v) : String(v))).join(', ')}]` : String(b));

/** Whether v is a count a histogram bin may hold: a finite number, 0 or more (NaN fails the comparison). */
const isCount = (v: number) => v >= 0 && v < Infinity;

/**
 * Throws an `InvalidFrameError` naming the first fault: a box that is not four finite numbers [x0, y0, x1, y1] with
 * x0 ≤ x1 and y0 ≤ y1 (inclusive pixel bounds); a time that is not a finite number; a frame size that is not two
 * positive finite numbers; histograms (`look`: those the tracker uses, or null) with fewer than `bins` counts a box
 * or a count that is not finite and ≥ 0; bins' places (`px`, `py`, where used) with fewer than `bins` a box.
 */
export function checkUpdate(boxes: readonly Box[], timeUs: number, bins: number, look: ArrayLike<number> | null, frame: FrameSize | undefined, px: ArrayLike<number> | null, py: ArrayLike<number> | null): void {
  const fail = (what: string) => {
    throw new InvalidFrameError(`Tracker.update: ${what}`);
  };
  if (!Array.isArray(boxes)) fail(`boxes must be an array of [x0, y0, x1, y1], got ${String(boxes)}`);
  if (typeof timeUs !== 'number' || !Number.isFinite(timeUs)) fail(`timeUs must be a finite number (microseconds), got ${String(timeUs)}`);
  if (frame !== undefined && !(frame.width > 0 && frame.width < Infinity && frame.height > 0 && frame.height < Infinity)) fail(`the frame's size must be two positive numbers, got ${frame.width}×${frame.height}`);
  const n = boxes.length;
  for (let j = 0; j < n; j++) {
    const b = boxes[j];
    // Number.isFinite is false for anything but a finite number (a string, undefined past a short array's end).
    const ok = b != null && Number.isFinite(b[0]) && Number.isFinite(b[1]) && Number.isFinite(b[2]) && Number.isFinite(b[3]) && b[0] <= b[2] && b[1] <= b[3];
    if (!ok) fail(`box ${j} is ${shown(b)}: a box is [x0, y0, x1, y1], four finite numbers with x0 ≤ x1 and y0 ≤ y1 (inclusive pixel bounds)`);
  }
  if (look) {
    if (look.length < bins * n) fail(`${n} boxes need ${bins * n} histogram counts, got ${look.length}`);
    for (let i = 0; i < bins * n; i++) if (!isCount(look[i])) fail(`histogram count ${i % bins} of box ${Math.floor(i / bins)} is ${look[i]}: counts are finite numbers, 0 or more`);
  }
  if (px && py && (px.length < bins * n || py.length < bins * n)) fail(`${n} boxes need ${bins * n} bin places on each axis, got ${px.length} and ${py.length}`);
}
