/**
 * What a JPEG file's markers say before its image data: size and the EXIF orientation
 * (1 when it has none), read without decoding so that an image too large for the device is refused first.
 *
 * Errors: `DecodeError` for bytes that are not a JPEG, or whose markers end before a frame header.
 */
import { DecodeError } from '../../src/core/errors.js';

export interface JpegHeader {
  width: number;
  height: number;
  /** EXIF orientation 1–8: how the stored pixels turn to be shown upright (1: as stored). */
  orientation: number;
  /** Where the frame header starts: the image data follow it (an EXIF thumbnail, with its own end marker, precedes it). */
  frameAt: number;
}

export const isJpeg = (bytes: Uint8Array) => bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

/** Frame headers (SOF0–SOF15) are C0–CF but for C4 (Huffman tables), C8 (reserved) and CC (arithmetic coding). */
const isFrameHeader = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * The orientation tag (0x0112) of an APP1 segment's EXIF block: undefined where the segment is not EXIF (XMP is
 * APP1 too), 1 where the block has no tag or is malformed.
 */
export function exifOrientation(segment: Buffer): number | undefined {
  if (segment.length < 14 || segment.toString('latin1', 0, 6) !== 'Exif\0\0') return undefined;
  const tiff = segment.subarray(6);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  if (!little && tiff.toString('latin1', 0, 2) !== 'MM') return 1;
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return 1;
  const entries = u16(ifd);
  for (let e = 0; e < entries; e++) {
    const at = ifd + 2 + 12 * e;
    if (at + 12 > tiff.length) return 1;
    if (u16(at) === 0x0112) {
      const value = u16(at + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

export function jpegHeader(bytes: Buffer, path: string): JpegHeader {
  if (!isJpeg(bytes)) throw new DecodeError(`${path}: not a JPEG file`, path);
  let orientation = 1;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) break;
    const marker = bytes[at + 1];
    // Fill bytes, and markers that stand alone (restart, TEM), have no length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (marker === 0xe1) orientation = exifOrientation(bytes.subarray(at + 4, at + 2 + length)) ?? orientation;
    if (isFrameHeader(marker)) {
      if (at + 9 > bytes.length) break;
      const header = { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7), orientation, frameAt: at };
      if (header.width === 0 || header.height === 0) throw new DecodeError(`${path}: corrupt JPEG (size ${header.width}×${header.height} in its frame header)`, path);
      return header;
    }
    if (marker === 0xda || marker === 0xd9) break; // image data or its end, before any frame header
    at += 2 + length;
  }
  throw new DecodeError(`${path}: corrupt JPEG (no frame header)`, path);
}

/**
 * Whether the image data end with the end-of-image marker (FF D9) within the file's last 4 KiB: a file cut short
 * decodes without complaint to an image whose lower part is gray. In the image data FF is always followed by 00 or a
 * restart marker, so FF D9 there is the end; a camera's trailing bytes after it are allowed.
 */
export function jpegEnds(bytes: Buffer, frameAt: number): boolean {
  for (let at = bytes.length - 2; at >= Math.max(frameAt, bytes.length - 4096); at--) if (bytes[at] === 0xff && bytes[at + 1] === 0xd9) return true;
  return false;
}
