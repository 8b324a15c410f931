/**
 * Reads a PNG file into a `PixelImage` (Node only). Gray, gray+alpha, palette and RGB(A) PNGs of 8 or 16 bits
 * all arrive as RGBA8 through pngjs; gray PNGs come back as gray. Failures are `DecodeError`s naming the file.
 */
import { readInput } from './readInput.js';
import { PNG } from 'pngjs';
import { DecodeError } from '../../src/errors.js';
import type { PixelImage } from './fromPixels.js';

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export async function readPng(path: string): Promise<PixelImage> {
  const bytes = await readInput(path);
  if (bytes.length === 0) throw new DecodeError(`${path}: empty file`, path);
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(signature)) throw new DecodeError(`${path}: not a PNG file`, path);
  let png: PNG;
  try {
    png = PNG.sync.read(bytes);
  } catch (cause) {
    throw new DecodeError(`${path}: corrupt PNG (${(cause as Error).message})`, path, { cause });
  }
  const { width, height, data } = png;
  const rgba = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  // colorType 0 (gray) and 4 (gray + alpha): send one byte per pixel rather than four.
  const colorType = colorTypeOf(bytes);
  if (colorType === 0 || colorType === 4) {
    const gray = new Uint8Array(width * height);
    for (let p = 0; p < gray.length; p++) gray[p] = rgba[4 * p];
    return { width, height, format: 'gray', data: gray };
  }
  return { width, height, format: 'rgba', data: rgba };
}

/** The IHDR colour type byte (0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA). */
function colorTypeOf(bytes: Buffer): number {
  return bytes[25];
}
