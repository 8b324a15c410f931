/**
 * Reads an image file into a `PixelImage` (Node only), by what its bytes are, whatever its name: PNG through pngjs
 * (`readPng`), JPEG and WebP through ffmpeg. Gray PNGs arrive gray, the rest RGBA. A JPEG's EXIF
 * orientation is applied, as OpenCV's `imread` and browsers apply it, so a phone photo arrives upright. The size is
 * read from the header first, so an image over `maxPixels` is refused before anything is decoded.
 *
 * Errors: `DecodeError` naming the file for a missing, empty, corrupt or unknown file (or no ffmpeg for a JPEG or
 * WebP); `InvalidFrameError` for an image over `maxPixels`.
 *
 * @example
 * const img = await readImage('photo.jpg', { maxPixels: ctx.maxFramePixels });
 */
import { spawn } from 'node:child_process';
import { DecodeError } from '../../src/core/errors.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';
import type { PixelImage } from './fromPixels.js';
import { readInput } from './readInput.js';
import { checkPixels, decodePng, isPng, type ReadPngOptions } from './readPng.js';
import { isJpeg, jpegEnds, jpegHeader } from './jpegHeader.js';
import { isWebp, webpHeader } from './webpHeader.js';
import { orientImage } from './orientImage.js';
import { ffmpegStartError } from './fromVideoFile.js';
import { ffmpegMessage } from './ffmpegMessage.js';

export interface ReadImageOptions extends ReadPngOptions {
  /** The ffmpeg executable that decodes JPEG and WebP (default `ffmpeg` on the PATH). */
  ffmpeg?: string;
}

const readImageKeys = optionKeys<ReadImageOptions>({ maxPixels: true, ffmpeg: true });

/** One still image of `bytes` as ffmpeg decodes it, RGBA pixels of `width` × `height`. */
function decodeWithFfmpeg(bytes: Buffer, path: string, demuxer: string, width: number, height: number, ffmpeg: string): Promise<PixelImage> {
  // Bytes through stdin with the demuxer named: ffmpeg neither rereads the file nor takes a name with a colon for a
  // protocol; -noautorotate because the orientation is applied here, the same on every ffmpeg version.
  const args = ['-v', 'error', '-noautorotate', '-f', demuxer, '-i', 'pipe:0', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'];
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    // ffmpeg may stop reading before the end (a corrupt file): a broken pipe is its exit's to report.
    child.stdin.on('error', () => undefined);
    child.on('error', (e: NodeJS.ErrnoException) => reject(ffmpegStartError(path, e)));
    child.on('close', (code) => {
      const data = Buffer.concat(out);
      const expected = width * height * 4;
      if (code === 0 && data.length === expected) {
        resolve({ width, height, format: 'rgba', data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
        return;
      }
      const why = ffmpegMessage(stderr) || (code === 0 ? `${data.length} bytes decoded of ${expected}` : `ffmpeg exit ${code}`);
      reject(new DecodeError(`${path}: corrupt ${demuxer === 'jpeg_pipe' ? 'JPEG' : 'WebP'} (${why})`, path));
    });
    child.stdin.end(bytes);
  });
}

export async function readImage(path: string, options: ReadImageOptions = {}): Promise<PixelImage> {
  checkOptions('readImage', options, readImageKeys);
  const bytes = await readInput(path);
  if (bytes.length === 0) throw new DecodeError(`${path}: empty file`, path);
  const ffmpeg = options.ffmpeg ?? 'ffmpeg';
  if (isJpeg(bytes)) {
    const { width, height, orientation, frameAt } = jpegHeader(bytes, path);
    checkPixels(path, width, height, options.maxPixels);
    if (!jpegEnds(bytes, frameAt)) throw new DecodeError(`${path}: corrupt JPEG (cut short: no end-of-image marker at its end, byte ${bytes.length})`, path);
    const image = await decodeWithFfmpeg(bytes, path, 'jpeg_pipe', width, height, ffmpeg);
    return orientImage(image, orientation);
  }
  if (isWebp(bytes)) {
    const { width, height } = webpHeader(bytes, path);
    checkPixels(path, width, height, options.maxPixels);
    return decodeWithFfmpeg(bytes, path, 'webp_pipe', width, height, ffmpeg);
  }
  if (isPng(bytes)) return decodePng(bytes, path, options);
  throw new DecodeError(`${path}: not an image flowmark reads (PNG, JPEG or WebP)`, path);
}
