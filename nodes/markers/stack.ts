/**
 * The masks of `markers()`' threshold windows are stacked one below the other with an empty row between
 * neighbours (markerThreshold.ts), so that one labeling and one candidate search serve them all. What the stack's
 * size allows is checked here once, before any of its passes is recorded.
 */
import { InvalidFrameError } from '../../src/core/errors.js';
import { wgslConstant } from '../../src/core/uniforms.js';

/** Words per root pixel of the candidates' component table (COMP in candidates.wgsl). */
export const compWords = wgslConstant('markers/candidates', 'COMP');

/** Rows of `windows` masks of `height` rows each, with one empty row between neighbours. */
export function stackedHeight(height: number, windows: number): number {
  return windows * (height + 1) - 1;
}

/**
 * Rows per mask of a stack of `windows` masks `stacked` rows high: the inverse of `stackedHeight`, not an integer
 * when no stack has that height.
 */
export function maskRows(stacked: number, windows: number): number {
  return (stacked + 1) / windows - 1;
}

/** Throws `InvalidFrameError` for a frame the marker chain cannot take with `windows` windows on this device. */
export function checkStack(width: number, height: number, windows: number, maxBinding: number): void {
  // The quad fit's areas are exact in i32 up to this size (fit.wgsl); points keep 16 bits a coordinate.
  if (width > 16384 || height > 16384) throw new InvalidFrameError(`markers: frames up to 16384 pixels a side, got ${width}×${height}`);
  const bytes = width * stackedHeight(height, windows) * compWords * 4;
  if (bytes > maxBinding) {
    throw new InvalidFrameError(
      `markers: a ${width}×${height} frame with ${windows} threshold windows needs a component table of ${bytes} bytes, over this device's storage binding limit (${maxBinding} bytes)`,
    );
  }
}
