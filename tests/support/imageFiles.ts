/**
 * Image files for the readers' tests, made by ffmpeg from raw RGBA (never by the code under test): JPEG (4:4:4,
 * best quality) and lossless WebP, and a JPEG's EXIF orientation written into an APP1 segment by hand.
 */
import { execFileSync } from 'node:child_process';

/** `filters` (ffmpeg's -vf, e.g. "transpose=1") applied to a w × h RGBA image, encoded as `format`. */
export function encodeImage(rgba: Uint8Array, width: number, height: number, format: 'jpeg' | 'webp', filters = ''): Buffer {
  const codec = format === 'jpeg' ? ['-c:v', 'mjpeg', '-q:v', '1', '-pix_fmt', 'yuvj444p', '-f', 'mjpeg'] : ['-c:v', 'libwebp', '-lossless', '1', '-f', 'webp'];
  const vf = filters ? ['-vf', filters] : [];
  return execFileSync('ffmpeg', ['-v', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${width}x${height}`, '-i', 'pipe:0', ...vf, '-frames:v', '1', ...codec, 'pipe:1'], {
    input: rgba,
    maxBuffer: 1 << 28,
  });
}

/** The JPEG with an EXIF block holding only `orientation`, in big- ("MM") or little-endian ("II") TIFF order. */
export function withOrientation(jpeg: Buffer, orientation: number, order: 'MM' | 'II' = 'MM'): Buffer {
  const tiff = Buffer.alloc(26);
  const le = order === 'II';
  const u16 = (v: number, at: number) => (le ? tiff.writeUInt16LE(v, at) : tiff.writeUInt16BE(v, at));
  const u32 = (v: number, at: number) => (le ? tiff.writeUInt32LE(v, at) : tiff.writeUInt32BE(v, at));
  tiff.write(order, 0, 'latin1');
  u16(42, 2);
  u32(8, 4); // IFD0 right after the header
  u16(1, 8); // one entry
  u16(0x0112, 10); // Orientation
  u16(3, 12); // SHORT
  u32(1, 14); // one value
  u16(orientation, 18); // in the value field's first two bytes
  u32(0, 22); // no next IFD
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), head, payload, jpeg.subarray(2)]);
}

/** A w × h RGBA image of 8 × 8 blocks of seeded colors (JPEG keeps flat blocks almost exactly), opaque. */
export function blockImage(width: number, height: number, seed: number): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  let s = seed >>> 0;
  const colors = new Map<number, number[]>();
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) >>> 24);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const block = (y >> 3) * 1000 + (x >> 3);
      if (!colors.has(block)) colors.set(block, [next(), next(), next()]);
      out.set([...colors.get(block)!, 255], (y * width + x) * 4);
    }
  }
  return out;
}
