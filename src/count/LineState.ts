/** What counting lines keep of one track (CountingLines.ts): per line, where it stands and what it has counted. */
import type { CountingLine } from './CountingLine.js';
import { boxOverSegment, LINE_WORDS, side } from './lineSides.js';

export class LineState {
  /**
   * Per line (LINE_WORDS numbers each): the side it was last seen clearly on (±1, 0 not yet), and where; then
   * TURN_WORDS numbers for a turn about the line being watched (lineTurn.ts).
   */
  readonly lineSide: Float64Array;
  /** Per line, where it was first seen clearly on one side (side ±1, x, y; 0 not yet): inherited by a split (inheritSides). */
  readonly firstSide: Float64Array;
  /** Per line, when (the track's `life`) it last counted a crossing of it; −∞ never. */
  readonly countedAt: Float64Array;
  /**
   * Per line, the side a crossing held back (holdAfter) was made onto (±1; ±2 where it is its first side past a first
   * blob over the line that it must walk away from, awayShare; 0 none); how many lines; its own blobs since.
   */
  readonly heldSide: Int8Array;
  held = 0;
  heldSeen = 0;
  /**
   * Per line, how many of its own blobs in a row have had their centre past the line, its box not clear of it, away
   * from the side it was last seen clearly on: signed by the side they lay on (0 none; CountingLines.#centrePast).
   */
  readonly centreRun: Int16Array;
  /**
   * Per line, from its first blob lying over the line's segment (boxOverSegment) until it is first seen clearly on a
   * side (CountingLines, awayShare): 2 + the side that blob's centre lay on (1, 2 or 3); 0 otherwise.
   */
  readonly bornAcross: Uint8Array;

  /** For a track made from the blob at bb[at .. at + 4) (`first`: false for one already on its way, which has none). */
  constructor(lines: readonly CountingLine[], bb: Float64Array, at: number, first: boolean) {
    const n = lines.length;
    this.lineSide = new Float64Array(LINE_WORDS * n);
    this.firstSide = new Float64Array(3 * n);
    this.countedAt = new Float64Array(n).fill(-Infinity);
    this.heldSide = new Int8Array(n);
    this.centreRun = new Int16Array(n);
    this.bornAcross = new Uint8Array(n);
    if (!first) return;
    const cx = (bb[at] + bb[at + 2]) / 2;
    const cy = (bb[at + 1] + bb[at + 3]) / 2;
    for (let k = 0; k < n; k++) this.bornAcross[k] = boxOverSegment(lines[k], bb, at) ? 2 + Math.sign(side(lines[k], cx, cy)) : 0;
  }
}
