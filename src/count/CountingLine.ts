/**
 * A line counting the tracks that cross it, each way (countLines()): a track counts when it is seen clearly on the
 * other side from where it was last seen clearly on one (docs/operators/countLines.md lists every rule). An object
 * first seen over the line counts the way it walks off it: it came out from behind something standing on the line,
 * or out of a group, or appeared there (a door on the line).
 */
export interface CountingLine {
  id: string;
  /** From a to b; `forward` is a crossing from the line's left to its right as seen walking from a to b. */
  a: readonly [number, number];
  b: readonly [number, number];
}
