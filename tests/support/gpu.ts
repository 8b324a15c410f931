// Test helpers: a GPU context that fails loudly (never skips) when no adapter exists, and a one-call pipeline run.
import { lastValueFrom, map, toArray, type OperatorFunction } from 'rxjs';
import { GpuContext, fromPixels, readResults, type FrameResult, type GpuFrame, type PixelImage } from '../../index.js';
import { withRead } from '../../extend.js';

/** A context as users get it by default (untimed), or timed with `profile: true` (`FrameResult.timings`). */
export async function testContext(options: { profile?: boolean } = {}): Promise<GpuContext> {
  try {
    return await GpuContext.create({ label: 'test', ...options });
  } catch (e) {
    throw new Error(`GPU tests need a WebGPU adapter; run \`npm test\`, which installs Mesa lavapipe. Cause: ${(e as Error).message}`);
  }
}

export function gray(width: number, height: number, data: Uint8Array, timeUs?: number): PixelImage {
  return { width, height, format: 'gray', data, timeUs };
}

/** Runs images through `ops` and a readResults sink; returns every result. */
export function run(ctx: GpuContext, images: PixelImage[], ...ops: OperatorFunction<GpuFrame, GpuFrame>[]): Promise<FrameResult[]> {
  const frames = ops.reduce((stream, op) => op(stream), fromPixels(ctx, images));
  return lastValueFrom(frames.pipe(readResults(), toArray()));
}

/** Index of the first difference, or -1. */
export function firstDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Reads a frame's 8-bit image (`mask` or `shadow`) back as `result[key]` (tests only: production reads compact results). */
export const readBytes = (key: 'mask' | 'shadow') =>
  map((f: GpuFrame) =>
    withRead(f, {
      key: key as 'labels',
      buffer: f[key]!,
      offset: 0,
      size: Math.ceil((f.width * f.height) / 4) * 4,
      decode: (b) => new Uint8Array(b, 0, f.width * f.height) as unknown as Uint32Array,
    }),
  );
/** Reads the frame's mask back; `maskOf` gets it from the result. */
export const readMask = readBytes('mask');
export const maskOf = (r: object) => (r as { mask: Uint8Array }).mask;
export const shadowOf = (r: object) => (r as { shadow: Uint8Array }).shadow;
