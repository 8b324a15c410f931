/**
 * Source (Node): PNG files to GPU frames, in order, every file processed. A file that cannot be read errors the
 * stream with a `DecodeError` (an image too large for the device with an `InvalidFrameError`, before it is
 * decoded); to carry on past bad files, run one stream per file (as the CLI does).
 *
 * @example
 * fromPng(ctx, ['a.png', 'b.png']).pipe(threshold({ method: 'otsu' }), label(), readResults())
 */
import type { Observable } from 'rxjs';
import type { GpuContext } from '../../src/core/GpuContext.js';
import type { GpuFrame } from '../../src/core/GpuFrame.js';
import { fromPixels, type FromPixelsOptions, type PixelImage } from './fromPixels.js';
import { readPng } from './readPng.js';

export function fromPng(ctx: GpuContext, paths: Iterable<string>, options: FromPixelsOptions & { fps?: number } = {}): Observable<GpuFrame> {
  const fps = options.fps ?? 30;
  async function* images(): AsyncGenerator<PixelImage> {
    let i = 0;
    for (const path of paths) yield { ...(await readPng(path, { maxPixels: ctx.maxFramePixels })), timeUs: Math.round((i++ * 1e6) / fps) };
  }
  return fromPixels(ctx, images(), options);
}
