/**
 * Whether a video file shows colour (Node, `flowmark/node`): its first frames decoded small by ffmpeg, and true
 * where enough of their pixels have channels that differ. A gray video stored as YUV (every H.264 file: the chroma
 * planes flat) reads false, colour footage true. What to decode for a model that can use colour, such as
 * `background({ color: true })`, which on gray frames would cost four bytes a pixel for nothing (`flowmark track`
 * picks its model with this).
 *
 * @example
 * const rgba = await videoHasColor('street.mp4');
 * fromVideoFile(ctx, 'street.mp4', { format: rgba ? 'rgba' : 'gray' }).pipe(background({ color: rgba }), …)
 *
 * Errors: `InvalidOptionError` for bad options (thrown at once); `DecodeError` where ffmpeg cannot decode the file
 * or is missing.
 */
import { execFile } from 'node:child_process';
import { DecodeError, InvalidOptionError } from '../../src/errors.js';
import { noFfmpeg } from './fromVideoFile.js';

export interface VideoHasColorOptions {
  /** Frames looked at from the start (default 10): a scene fading in from black is not taken for gray. */
  frames?: number;
  /** Channel spread (largest minus smallest of R, G, B, 0–255) from which a pixel is coloured (default 12). */
  spread?: number;
  /** Share of the pixels looked at that must be coloured (default 0.01). */
  share?: number;
  /** The ffmpeg executable (default `ffmpeg` on the PATH). */
  ffmpeg?: string;
}

/** Width frames are scaled down to: colour is a property of areas, not of single pixels. */
const sampleWidth = 160;

export function videoHasColor(path: string, options: VideoHasColorOptions = {}): Promise<boolean> {
  const { frames = 10, spread = 12, share = 0.01, ffmpeg = 'ffmpeg' } = options;
  if (!Number.isInteger(frames) || frames < 1) throw new InvalidOptionError(`videoHasColor: frames must be an integer ≥ 1, got ${frames}`);
  if (!(spread >= 0 && spread <= 255)) throw new InvalidOptionError(`videoHasColor: spread must be 0..255, got ${spread}`);
  if (!(share >= 0 && share <= 1)) throw new InvalidOptionError(`videoHasColor: share must be 0..1, got ${share}`);
  const args = ['-v', 'error', '-nostdin', '-i', path, '-map', '0:v:0', '-frames:v', String(frames)];
  args.push('-vf', `scale='min(${sampleWidth},iw)':-2`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-');
  return new Promise((resolve, reject) => {
    execFile(ffmpeg, args, { encoding: 'buffer', maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
      if (error) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        const why = missing ? noFfmpeg : `ffmpeg could not decode it: ${stderr.toString().trim() || error.message}`;
        reject(new DecodeError(`${path}: ${why}`, path, { cause: error }));
        return;
      }
      if (stdout.length < 3) {
        reject(new DecodeError(`${path}: no frame decoded`, path));
        return;
      }
      let coloured = 0;
      for (let i = 0; i + 2 < stdout.length; i += 3) {
        const [r, g, b] = [stdout[i], stdout[i + 1], stdout[i + 2]];
        if (Math.max(r, g, b) - Math.min(r, g, b) > spread) coloured++;
      }
      resolve(coloured > share * (stdout.length / 3));
    });
  });
}
