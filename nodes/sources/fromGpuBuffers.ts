/**
 * Source: frames already on the GPU, as storage buffers your own passes filled (gray: 8 bits per pixel, four per
 * u32 word, raster order; RGBA: one packed u32 per pixel). Nothing is uploaded or copied; the buffers must keep
 * their contents until the frame's results are read (at most `maxInFlight` frames are in flight).
 *
 * @example
 * fromGpuBuffers(ctx, [{ buffer, width: 1920, height: 1080, format: 'gray' }]).pipe(threshold(), label(), readResults())
 *
 * Errors: `InvalidFrameError` for a buffer without STORAGE usage, too small for its size, or beyond device limits.
 */
import type { Observable } from 'rxjs';
import type { GpuContext } from '../../src/core/GpuContext.js';
import type { GpuFrame } from '../../src/core/GpuFrame.js';
import { InvalidFrameError } from '../../src/core/errors.js';
import { wordsFor } from '../../src/core/dispatch.js';
import { frameSource } from '../../src/core/frameSource.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';

export interface GpuImage {
  buffer: GPUBuffer;
  width: number;
  height: number;
  format: 'rgba' | 'gray';
  timeUs?: number;
}

export interface FromGpuBuffersOptions {
  /** Frames emitted but not yet read back (default 2). */
  maxInFlight?: number;
}

export function fromGpuBuffers(
  ctx: GpuContext,
  images: Iterable<GpuImage> | AsyncIterable<GpuImage>,
  options: FromGpuBuffersOptions = {},
): Observable<GpuFrame> {
  checkOptions('fromGpuBuffers', options, optionKeys<FromGpuBuffersOptions>({ maxInFlight: true }));
  return frameSource(ctx, 'fromGpuBuffers', images, options.maxInFlight ?? 2, (img, _slot, seq) => {
    const { buffer, width, height, format } = img;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
      throw new InvalidFrameError(`image ${seq}: width and height must be positive integers, got ${width}×${height}`);
    }
    if (format !== 'rgba' && format !== 'gray') throw new InvalidFrameError(`image ${seq}: format must be 'rgba' or 'gray'`);
    const need = format === 'rgba' ? width * height * 4 : wordsFor(width * height) * 4;
    if (!buffer || !(buffer.usage & GPUBufferUsage.STORAGE)) throw new InvalidFrameError(`image ${seq}: the buffer needs STORAGE usage`);
    if (buffer.size < need) throw new InvalidFrameError(`image ${seq}: ${width}×${height} ${format} needs ${need} bytes, the buffer has ${buffer.size}`);
    if (width * height > ctx.maxFramePixels) throw new InvalidFrameError(`image ${seq}: ${width}×${height} exceeds this device's limit of ${ctx.maxFramePixels} pixels`);
    const timeUs = img.timeUs ?? Math.round((seq * 1e6) / 30);
    return { width, height, timeUs, rgba: format === 'rgba' ? buffer : null, gray: format === 'gray' ? buffer : null };
  });
}
