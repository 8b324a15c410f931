/**
 * How a video's stored pixels are turned for display: the track header's matrix (ISO/IEC 14496-12 §8.3.2: a
 * stored point (x, y) is shown at (a·x + c·y + tx, b·x + d·y + ty)), as phones write it for portrait video.
 * Sources deliver frames as displayed, in both Node (ffmpeg filters) and browsers (the texture pack pass), so a
 * 20×60 box recorded sideways comes back 60×20 where the player shows it.
 *
 * Only quarter turns and mirrors are kept (what cameras write); any other matrix is taken as identity.
 */
export interface DisplayTransform {
  /** The matrix reduced to signs: a, b, c, d in {-1, 0, 1}, with a·d − b·c = ±1. */
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
  /** Offsets that bring the turned frame back to 0..width-1, 0..height-1. */
  readonly tx: number;
  readonly ty: number;
  /** The displayed size. */
  readonly width: number;
  readonly height: number;
  /** Clockwise quarter turns as displayed, after `mirrored`. */
  readonly rotation: 0 | 90 | 180 | 270;
  /** Mirrored left to right (before the rotation). */
  readonly mirrored: boolean;
}

/** The transform of a stored `width`×`height` frame under a track matrix (9 numbers, any fixed-point scale). */
export function displayTransform(width: number, height: number, matrix?: ArrayLike<number>): DisplayTransform {
  const sign = (v: number) => Math.sign(v);
  let [a, b, c, d] = matrix && matrix.length >= 5 ? [sign(matrix[0]), sign(matrix[1]), sign(matrix[3]), sign(matrix[4])] : [1, 0, 0, 1];
  const quarter = (a === 0 && d === 0 && b !== 0 && c !== 0) || (b === 0 && c === 0 && a !== 0 && d !== 0);
  if (!quarter) [a, b, c, d] = [1, 0, 0, 1];
  const tx = -(Math.min(0, a * (width - 1)) + Math.min(0, c * (height - 1)));
  const ty = -(Math.min(0, b * (width - 1)) + Math.min(0, d * (height - 1)));
  const mirrored = a * d - b * c < 0;
  // Undo the mirror (x → −x first) to name the turn: the columns of M·diag(−1, 1).
  const [ra, rb] = mirrored ? [-a, -b] : [a, b];
  const rotation = ra === 1 ? 0 : ra === -1 ? 180 : rb === 1 ? 90 : 270;
  return { a, b, c, d, tx, ty, width: Math.abs(a) * width + Math.abs(c) * height, height: Math.abs(b) * width + Math.abs(d) * height, rotation, mirrored };
}

/** True when the frame is shown as stored. */
export const isIdentity = (t: DisplayTransform) => t.a === 1 && t.d === 1;

/** The ffmpeg filters that turn stored frames as `t` says (after `-noautorotate`); '' for none. */
export function ffmpegTurn(t: DisplayTransform): string {
  const key = `${t.a},${t.b},${t.c},${t.d}`;
  const filters: Record<string, string> = {
    '1,0,0,1': '',
    '-1,0,0,-1': 'hflip,vflip',
    '-1,0,0,1': 'hflip',
    '1,0,0,-1': 'vflip',
    '0,1,-1,0': 'transpose=clock', // (x, y) → (H−1−y, x)
    '0,-1,1,0': 'transpose=cclock', // (x, y) → (y, W−1−x)
    '0,1,1,0': 'transpose=cclock_flip', // (x, y) → (y, x)
    '0,-1,-1,0': 'transpose=clock_flip', // (x, y) → (H−1−y, W−1−x)
  };
  return filters[key];
}
