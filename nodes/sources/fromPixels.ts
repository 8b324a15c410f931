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
import type { GpuContext } from '../../src/GpuContext.js';
import type { GpuFrame } from '../../src/GpuFrame.js';
import { InvalidFrameError } from '../../src/errors.js';
import { wordsFor } from '../../src/dispatch.js';
import { frameSource, validateInFlight } from '../../src/frameSource.js';
import { tagSource } from '../../src/streamInfo.js';

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
  const { width, height, format, data } = img ?? ({} as PixelImage);
  const what = `image ${index}`;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new InvalidFrameError(`${what}: width and height must be positive integers, got ${width}×${height}`);
  }
  if (format !== 'rgba' && format !== 'gray') throw new InvalidFrameError(`${what}: format must be 'rgba' or 'gray', got ${format}`);
  const expected = width * height * (format === 'rgba' ? 4 : 1);
  if (!(data instanceof Uint8Array || data instanceof Uint8ClampedArray) || data.length !== expected) {
    throw new InvalidFrameError(`${what}: ${width}×${height} ${format} needs ${expected} bytes, got ${data?.length ?? 'no data'}`);
  }
  if (width * height > ctx.maxFramePixels) {
    throw new InvalidFrameError(`${what}: ${width}×${height} exceeds this device's limit of ${ctx.maxFramePixels} pixels per frame`);
  }
}

export function fromPixels(
  ctx: GpuContext,
  images: Iterable<PixelImage> | AsyncIterable<PixelImage>,
  options: FromPixelsOptions = {},
): Observable<GpuFrame> {
  const maxInFlight = options.maxInFlight ?? 2;
  validateInFlight('fromPixels', maxInFlight);
  // Each subscription has its own upload buffers, one per in-flight slot: an upload never overwrites a frame
  // still in use.
  return tagSource(
    defer(() => {
      const uploads: (GPUBuffer | null)[] = [];
      const upload = (slot: number, img: PixelImage): GPUBuffer => {
        const bytes = img.format === 'rgba' ? img.width * img.height * 4 : wordsFor(img.width * img.height) * 4;
        let buf = uploads[slot] ?? null;
        if (!buf || buf.size < bytes || buf.size > Math.max(256, bytes * 2)) {
          ctx.pool.release(buf);
          buf = uploads[slot] = ctx.pool.acquire(`fromPixels:upload${slot}`, bytes, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
        }
        const data = img.data;
        if (data.byteLength % 4 === 0) {
          ctx.device.queue.writeBuffer(buf, 0, data.buffer, data.byteOffset, data.byteLength);
        } else {
          // writeBuffer wants a multiple of 4 bytes: pad gray images whose pixel count is not.
          const padded = new Uint8Array(bytes);
          padded.set(data);
          ctx.device.queue.writeBuffer(buf, 0, padded);
        }
        return buf;
      };
      return frameSource(
        ctx,
        'fromPixels',
        images,
        maxInFlight,
        (img, slot, seq) => {
          validateImage(ctx, img, seq);
          const buf = upload(slot, img);
          const timeUs = img.timeUs ?? Math.round((seq * 1e6) / 30);
          return { width: img.width, height: img.height, timeUs, rgba: img.format === 'rgba' ? buf : null, gray: img.format === 'gray' ? buf : null };
        },
        () => uploads.splice(0).forEach((b) => ctx.pool.release(b)),
      );
    }),
    ctx,
  );
}
