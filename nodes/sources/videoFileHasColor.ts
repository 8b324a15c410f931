/**
 * Whether a video file shows color (Node, `flowmark/node`; in the browser, `videoHasColor`): its first frames
 * decoded small by ffmpeg, and true where enough of their pixels have channels that differ (colorTest.ts). A gray
 * video stored as YUV (every H.264 file: the chroma planes flat) reads false, color footage true. What to decode
 * for a model that can use color, such as `background({ color: 'shadows' })`, which on gray frames would cost four
 * bytes a pixel for nothing (`flowmark track` picks its model with this).
 *
 * @example
 * const rgba = await videoFileHasColor('street.mp4');
 * fromVideoFile(ctx, 'street.mp4', { format: rgba ? 'rgba' : 'gray' }).pipe(background({ color: rgba && 'shadows' }), …)
 *
 * Errors: `InvalidOptionError` for bad options (thrown at once); `DecodeError` where ffmpeg cannot decode the file
 * or is missing.
 */
import { execFile } from 'node:child_process';
import { DecodeError } from '../../src/core/errors.js';
import { noFfmpeg } from './fromVideoFile.js';
import { colorSampleWidth, colorTest, coloredPixels, type VideoHasColorOptions } from './colorTest.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';

export interface VideoFileHasColorOptions extends VideoHasColorOptions {
  /** The ffmpeg executable (default `ffmpeg` on the PATH). */
  ffmpeg?: string;
}

export function videoFileHasColor(path: string, options: VideoFileHasColorOptions = {}): Promise<boolean> {
  checkOptions('videoFileHasColor', options, optionKeys<VideoFileHasColorOptions>({ frames: true, spread: true, share: true, ffmpeg: true }));
  const { frames, spread, share } = colorTest('videoFileHasColor', options);
  const args = ['-v', 'error', '-nostdin', '-i', path, '-map', '0:v:0', '-frames:v', String(frames)];
  args.push('-vf', `scale='min(${colorSampleWidth},iw)':-2`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-');
  return new Promise((resolve, reject) => {
    execFile(options.ffmpeg ?? 'ffmpeg', args, { encoding: 'buffer', maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
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
      resolve(coloredPixels(stdout, 3, spread) > share * (stdout.length / 3));
    });
  });
}
