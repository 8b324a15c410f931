/**
 * A counting line's crossings that a track's identity hides: two objects meet at the line from its two sides, their
 * tracks coast through the meeting (a group's blob, or behind a pillar), and each comes out following the other
 * object. Each track is then seen again on the side it came from, so neither crossing is counted by the usual rule
 * (CountingLines.count: seen clearly on the other side from where it was last seen clearly). What gives it away is
 * the turn: a track that walked toward the line, coasted until its estimate reached it, and is then seen on its first
 * side walking away from the line follows an object that came over the line, and counts that object's crossing.
 * An object that truly turns back at the line while hidden is counted too: rarer in surveillance footage than two
 * objects meeting there.
 *
 * Why: docs/decisions/counting.md#turn.
 *
 * State per line, TURN_WORDS numbers from `at` in the track's array: the stage and, once seen again, how far its blob
 * reached from the line, when, and how near it came to it.
 */
import { awayStep, awayWithin, towardSpeed } from '../track/tuning.js';
export const TURN_WORDS = 4;

/** Stages: nothing to watch; walking toward the line; its estimate reached the line while coasting; seen again. */
const NONE = 0;
const TOWARD = 1;
const REACHED = 2;
const AGAIN = 3;

/** Whether the track walked toward the line when last seen (and turnCoasting has anything to look at). */
export function turnToward(turn: Float64Array, at: number): boolean {
  return turn[at] === TOWARD;
}

/**
 * A confirmed or lost track coasting this frame (lost, or in a group): `d` is its estimate's distance from the line
 * (signed), `reach` half its box's extent across the line, `inSegment` whether it lies beside the line's segment,
 * `groupAcross` whether it is in a group whose blob's box lies across the line (the meeting is at the line).
 */
export function turnCoasting(turn: Float64Array, at: number, d: number, reach: number, inSegment: boolean, groupAcross: boolean): void {
  if (turnToward(turn, at) && inSegment && (groupAcross || Math.abs(d) <= reach)) turn[at] = REACHED;
}

/** Whether turnSeen reads the blob's edges (`far`, `near`): a turn is watched past the track's coasting. */
export function turnWatchesBlob(turn: Float64Array, at: number): boolean {
  return turn[at] === REACHED || turn[at] === AGAIN;
}

/**
 * A confirmed track seen clearly in its own blob on the side of the line it was last seen clearly on: `far` and `near`
 * the distances from the line of its blob's edges farthest from it and nearest to it (read only where
 * turnWatchesBlob), `toward` its speed toward the line (pixels a second, negative away), `height` its box's, `now` its
 * age in seconds. Returns whether it counts a crossing onto this side (the object it now follows came over the line).
 */
export function turnSeen(turn: Float64Array, at: number, far: number, near: number, toward: number, height: number, now: number): boolean {
  const stage = turn[at];
  if (stage === AGAIN) {
    // Its velocity is still the one it coasted with: where it goes from here tells, soon. A track that stood about
    // near the line and much later went off with another object was counted before the limit.
    if (now - turn[at + 2] > awayWithin) {
      turn[at] = NONE;
      return false;
    }
    const step = awayStep * height;
    if (far >= turn[at + 1] + step && near >= turn[at + 3] + step) {
      turn[at] = NONE;
      return true;
    }
    if (far <= turn[at + 1] - step) turn[at] = NONE;
    return false;
  }
  if (stage === REACHED) {
    turn[at] = AGAIN;
    turn[at + 1] = far;
    turn[at + 2] = now;
    turn[at + 3] = near;
    return false;
  }
  // Standing still keeps what it was doing: two objects that stop at the line and then pass each other meet there.
  if (toward >= towardSpeed * height) turn[at] = TOWARD;
  else if (toward <= -towardSpeed * height) turn[at] = NONE;
  return false;
}

/** The track counted a crossing the usual way, or went round the line's end: nothing to watch. */
export function turnReset(turn: Float64Array, at: number): void {
  turn[at] = NONE;
}
