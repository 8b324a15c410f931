/**
 * Source: raw pixels (RGBA or 8-bit gray typed arrays) to GPU frames. Every image is processed (a file-like
 * source): at most `maxInFlight` frames are on the GPU at once and the source waits for a free place rather than
 * queueing. Each in-flight frame has its own upload buffer, so an upload never overwrites a frame still in use.
 *
 * @example
 * const ctx = await GpuContext.create();
 * fromPixels(ctx, [{ width: 640, height: 480, format: 'gray', data }])
 *   .pipe(threshold({ level: 128 }), label(), readResults())
 *   .subscribe((r) => console.log(r.labeling?.count));
 *
 * Errors: `InvalidFrameError` for a size or data length that does not match, or a frame beyond device limits;
 * the error of the iterable itself otherwise. Unsubscribing releases the upload buffers.
 */
import { defer, type Observable } from 'rxjs';
import type { GpuContext } from '../../src/core/GpuContext.js';
import type { GpuFrame } from '../../src/core/GpuFrame.js';
import { InvalidFrameError } from '../../src/core/errors.js';
import { imageProblem } from '../../src/core/imageProblem.js';
import { wordsFor } from '../../src/core/dispatch.js';
import { frameSource, validateInFlight } from '../../src/core/frameSource.js';
import { tagSource } from '../../src/core/streamInfo.js';
import { PixelUploader } from './PixelUploader.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';

export interface PixelImage {
  width: number;
  height: number;
  format: 'rgba' | 'gray';
  /** Row-major, no padding: width*height*4 bytes for RGBA, width*height for gray. */
  data: Uint8Array | Uint8ClampedArray;
  /** Timestamp in microseconds (default: index × 1e6/30). */
  timeUs?: number;
}

export interface FromPixelsOptions {
  /** Frames emitted but not yet read back (default 2). */
  maxInFlight?: number;
}

export function validateImage(ctx: GpuContext, img: PixelImage, index: number): void {
  const what = `image ${index}`;
  const problem = imageProblem(img);
  if (problem) throw new InvalidFrameError(`${what}: ${problem}`);
  const { width, height } = img;
  if (width * height > ctx.maxFramePixels) {
    throw new InvalidFrameError(`${what}: ${width}×${height} exceeds this device's limit of ${ctx.maxFramePixels} pixels per frame`);
  }
}

export function fromPixels(
  ctx: GpuContext,
  images: Iterable<PixelImage> | AsyncIterable<PixelImage>,
  options: FromPixelsOptions = {},
): Observable<GpuFrame> {
  checkOptions('fromPixels', options, optionKeys<FromPixelsOptions>({ maxInFlight: true }));
  const maxInFlight = options.maxInFlight ?? 2;
  validateInFlight('fromPixels', maxInFlight);
  return pixelSource(ctx, 'fromPixels', () => ({ images }), maxInFlight);
}

/**
 * Frames from pixel images on the CPU, uploaded into one buffer per in-flight place: the loop behind `fromPixels` and
 * the live sources. `open` runs at each subscription and gives the images; its `close` runs when the subscription
 * ends. `placeFirst`: take an image only once a place is free (a live source's newest), see frameSource.
 */
export function pixelSource(
  ctx: GpuContext,
  source: string,
  open: () => { images: Iterable<PixelImage> | AsyncIterable<PixelImage>; close?: () => void; onFrame?: () => void },
  maxInFlight: number,
  placeFirst = false,
): Observable<GpuFrame> {
  return tagSource(
    defer(() => {
      // Each subscription has its own upload buffers, one per in-flight slot: an upload never overwrites a frame
      // still in use.
      const uploader = new PixelUploader(ctx, source);
      const { images, close, onFrame } = open();
      return frameSource(
        ctx,
        source,
        images,
        maxInFlight,
        (img, slot, seq) => {
          validateImage(ctx, img, seq);
          // Copies are whole words: a gray image whose pixel count is not a multiple of 4 is padded with zeros.
          const bytes = img.format === 'rgba' ? img.width * img.height * 4 : wordsFor(img.width * img.height) * 4;
          const up = uploader.upload(slot, img.data, bytes);
          const timeUs = img.timeUs ?? Math.round((seq * 1e6) / 30);
          const rgba = img.format === 'rgba' ? up.buffer : null;
          const gray = img.format === 'gray' ? up.buffer : null;
          onFrame?.();
          return { width: img.width, height: img.height, timeUs, rgba, gray, record: up.record, onRelease: up.release };
        },
        () => {
          uploader.dispose();
          close?.();
        },
        undefined,
        placeFirst,
      );
    }),
    ctx,
  );
}
