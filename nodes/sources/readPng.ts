/**
 * Reads a PNG file into a `PixelImage` (Node only). Gray, gray+alpha, palette and RGB(A) PNGs of 8 or 16 bits
 * all arrive as RGBA8 through pngjs; gray PNGs come back as gray. The size is read from the header first, so an
 * image too large for the device is refused before anything is decoded (a small file can claim 30000×30000
 * pixels and take gigabytes to decode). Failures are `DecodeError`s naming the file, and `InvalidFrameError` for
 * an image over `maxPixels`.
 *
 * @example
 * const img = await readPng('a.png', { maxPixels: ctx.maxFramePixels });
 */
import { readInput } from './readInput.js';
import { PNG } from 'pngjs';
import { DecodeError, InvalidFrameError } from '../../src/core/errors.js';
import type { PixelImage } from './fromPixels.js';

export interface ReadPngOptions {
  /**
   * Refuse images of more pixels than this before decoding (default 2^28, a 1 GiB RGBA image). Pass
   * `ctx.maxFramePixels` to refuse what the device could not take.
   */
  maxPixels?: number;
}

/** What the IHDR chunk says: size, bit depth and color type (0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA). */
export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
}

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const defaultMaxPixels = 2 ** 28;

export const isPng = (bytes: Buffer) => bytes.length >= 8 && bytes.subarray(0, 8).equals(signature);

/** An `InvalidFrameError` for an image of more pixels than `maxPixels` (2^28 when not given). */
export function checkPixels(path: string, width: number, height: number, maxPixels: number | undefined): void {
  const limit = maxPixels ?? defaultMaxPixels;
  if (width * height <= limit) return;
  throw new InvalidFrameError(
    `${path}: image too large: ${width}×${height} is ${width * height} pixels, over the limit of ${limit}` +
      (maxPixels === undefined ? ' (maxPixels when reading)' : ' pixels per frame'),
  );
}

/** The header of a PNG file's bytes; a `DecodeError` when they are not a PNG or the header is malformed. */
export function pngHeader(bytes: Buffer, path: string): PngHeader {
  if (bytes.length === 0) throw new DecodeError(`${path}: empty file`, path);
  if (!isPng(bytes)) throw new DecodeError(`${path}: not a PNG file`, path);
  // The first chunk must be IHDR: length 13, then width, height (big-endian), bit depth, color type.
  if (bytes.length < 33 || bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    throw new DecodeError(`${path}: corrupt PNG (no IHDR header)`, path);
  }
  const header = { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), bitDepth: bytes[24], colorType: bytes[25] };
  if (header.width === 0 || header.height === 0 || header.width > 0x7fffffff || header.height > 0x7fffffff) {
    throw new DecodeError(`${path}: corrupt PNG (size ${header.width}×${header.height} in its header)`, path);
  }
  return header;
}

export async function readPng(path: string, options: ReadPngOptions = {}): Promise<PixelImage> {
  return decodePng(await readInput(path), path, options);
}

/** The image a PNG file's bytes hold, with readPng's checks and errors; `path` names the file in them. */
export function decodePng(bytes: Buffer, path: string, options: ReadPngOptions = {}): PixelImage {
  const { width, height, colorType } = pngHeader(bytes, path);
  checkPixels(path, width, height, options.maxPixels);
  // A file cut short (a copy or download that stopped) ends before its IEND chunk; the decoder would only say that
  // its stream ended with reads waiting.
  if (bytes.subarray(Math.max(0, bytes.length - 4096)).lastIndexOf('IEND') < 0) {
    throw new DecodeError(`${path}: corrupt PNG (cut short: it ends at byte ${bytes.length}, before its IEND chunk)`, path);
  }
  let png: PNG;
  try {
    png = PNG.sync.read(bytes);
  } catch (cause) {
    throw new DecodeError(`${path}: corrupt PNG (${(cause as Error).message})`, path, { cause });
  }
  const rgba = new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength);
  // colorType 0 (gray) and 4 (gray + alpha): send one byte per pixel rather than four.
  if (colorType === 0 || colorType === 4) {
    const gray = new Uint8Array(width * height);
    for (let p = 0; p < gray.length; p++) gray[p] = rgba[4 * p];
    return { width, height, format: 'gray', data: gray };
  }
  return { width, height, format: 'rgba', data: rgba };
}
