/**
 * A WebP file's canvas size, read from its first chunk without decoding: VP8 (lossy), VP8L (lossless) or VP8X (the
 * extended header, which also says whether the file is animated).
 *
 * Errors: `DecodeError` for bytes that are not a WebP, a file shorter than its RIFF header says, or an animated WebP (ffmpeg, which
 * decodes WebP here, reads one still image only).
 */
import { DecodeError } from '../../src/core/errors.js';

export interface WebpHeader {
  width: number;
  height: number;
}

export const isWebp = (bytes: Buffer) => bytes.length >= 16 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP';

const u24 = (bytes: Buffer, at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);

export function webpHeader(bytes: Buffer, path: string): WebpHeader {
  if (!isWebp(bytes)) throw new DecodeError(`${path}: not a WebP file`, path);
  // The RIFF header says how long the file is: fewer bytes is a copy or download that stopped.
  const length = bytes.readUInt32LE(4) + 8;
  if (bytes.length < length) throw new DecodeError(`${path}: corrupt WebP (cut short: ${bytes.length} bytes of ${length})`, path);
  const chunk = bytes.toString('latin1', 12, 16);
  const corrupt = () => new DecodeError(`${path}: corrupt WebP (its ${chunk.trim()} header is cut short or malformed)`, path);
  // The chunk's data starts at byte 20.
  if (chunk === 'VP8 ') {
    // A key frame's tag (3 bytes), the start code 9d 01 2a, then 14-bit width and height.
    if (bytes.length < 30 || bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) throw corrupt();
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    // The signature 0x2f, then width − 1 and height − 1 in 14 bits each.
    if (bytes.length < 25 || bytes[20] !== 0x2f) throw corrupt();
    const bits = bytes.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (chunk === 'VP8X') {
    // Flags (bit 1: animation), 3 reserved bytes, then canvas width − 1 and height − 1 in 24 bits each.
    if (bytes.length < 30) throw corrupt();
    if (bytes[20] & 0x02) throw new DecodeError(`${path}: animated WebP is not read (one still image per file)`, path);
    return { width: 1 + u24(bytes, 24), height: 1 + u24(bytes, 27) };
  }
  throw new DecodeError(`${path}: corrupt WebP (unknown first chunk ${JSON.stringify(chunk)})`, path);
}
