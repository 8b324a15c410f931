/**
 * The test `videoHasColor` (browser, WebCodecs) and `videoFileHasColor` (Node, ffmpeg) apply to a video's first
 * frames scaled down: color where more than `share` of the pixels have channels more than `spread` levels apart.
 * One test, so that a clip reads the same in both.
 */
import { InvalidOptionError } from '../../src/core/errors.js';

export interface VideoHasColorOptions {
  /** Frames looked at from the start (default 10): a scene fading in from black is not taken for gray. */
  frames?: number;
  /** Channel spread (largest minus smallest of R, G, B, 0–255) from which a pixel is colored (default 12). */
  spread?: number;
  /** Share of the pixels looked at that must be colored (default 0.01). */
  share?: number;
}

export interface ColorTest {
  frames: number;
  spread: number;
  share: number;
}

/** Width frames are scaled down to: color is a property of areas, not of single pixels. */
export const colorSampleWidth = 160;

/** The options over the defaults, validated (`who` names the function in the error). */
export function colorTest(who: string, options: VideoHasColorOptions): ColorTest {
  const { frames = 10, spread = 12, share = 0.01 } = options;
  if (!Number.isInteger(frames) || frames < 1) throw new InvalidOptionError(`${who}: frames must be an integer ≥ 1, got ${frames}`);
  if (!(spread >= 0 && spread <= 255)) throw new InvalidOptionError(`${who}: spread must be 0..255, got ${spread}`);
  if (!(share >= 0 && share <= 1)) throw new InvalidOptionError(`${who}: share must be 0..1, got ${share}`);
  return { frames, spread, share };
}

/** How many of the pixels (`channels` bytes each, R, G, B first) have channels more than `spread` apart. */
export function coloredPixels(pixels: Uint8Array | Uint8ClampedArray, channels: 3 | 4, spread: number): number {
  let colored = 0;
  for (let i = 0; i + 2 < pixels.length; i += channels) {
    const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
    if (Math.max(r, g, b) - Math.min(r, g, b) > spread) colored++;
  }
  return colored;
}
