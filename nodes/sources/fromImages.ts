/**
 * Source (Node): image files (PNG, JPEG, WebP; `readImage`) to GPU frames, in order, every file processed. A file
 * that cannot be read errors the stream with a `DecodeError` (an image too large for the device with an
 * `InvalidFrameError`, before it is decoded); to carry on past bad files, run one stream per file (as the CLI does).
 *
 * @example
 * fromImages(ctx, ['a.png', 'b.jpg']).pipe(threshold({ method: 'otsu' }), label(), readResults())
 */
import type { Observable } from 'rxjs';
import type { GpuContext } from '../../src/core/GpuContext.js';
import type { GpuFrame } from '../../src/core/GpuFrame.js';
import { checkOptions } from '../../src/core/checkOptions.js';
import { InvalidOptionError } from '../../src/core/errors.js';
import { fromPixels, type FromPixelsOptions, type PixelImage } from './fromPixels.js';
import { readImage } from './readImage.js';

export interface FromImagesOptions extends FromPixelsOptions {
  /** The frames' timestamps: frame k at k / fps seconds (default 30). */
  fps?: number;
  /** The ffmpeg executable that decodes JPEG and WebP (default `ffmpeg` on the PATH). */
  ffmpeg?: string;
}

export function fromImages(ctx: GpuContext, paths: Iterable<string>, options: FromImagesOptions = {}): Observable<GpuFrame> {
  checkOptions('fromImages', options, ['maxInFlight', 'fps', 'ffmpeg']);
  const fps = options.fps ?? 30;
  if (typeof fps !== 'number' || !(fps > 0) || !Number.isFinite(fps)) throw new InvalidOptionError(`fromImages: fps must be a positive number, got ${String(fps)}`);
  async function* images(): AsyncGenerator<PixelImage> {
    let i = 0;
    for (const path of paths) yield { ...(await readImage(path, { maxPixels: ctx.maxFramePixels, ffmpeg: options.ffmpeg })), timeUs: Math.round((i++ * 1e6) / fps) };
  }
  return fromPixels(ctx, images(), { maxInFlight: options.maxInFlight });
}
