// readImage against images ffmpeg encoded from known pixels: JPEG within its loss, WebP lossless exactly, EXIF
// orientation turned as a viewer shows it (the expected turn made by ffmpeg's own filters), bad files refused.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImage } from '../../../nodes/sources/readImage.js';
import { DecodeError, InvalidFrameError, InvalidOptionError } from '../../../src/core/errors.js';
import { blockImage, encodeImage, withOrientation } from '../../support/imageFiles.js';

const dir = mkdtempSync(join(tmpdir(), 'read-image-'));
const file = (name: string, bytes: Buffer) => (writeFileSync(join(dir, name), bytes), join(dir, name));

/** Mean absolute difference over the color channels, and the largest. */
function difference(a: ArrayLike<number>, b: ArrayLike<number>): { mean: number; max: number } {
  let sum = 0;
  let max = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    if (i % 4 === 3) continue;
    const d = Math.abs(a[i] - b[i]);
    sum += d;
    max = Math.max(max, d);
    n++;
  }
  return { mean: sum / n, max };
}

const [w, h] = [48, 32];
const source = blockImage(w, h, 7);

describe('readImage', () => {
  it('reads a JPEG as RGBA within its loss, and a lossless WebP exactly', async () => {
    const jpeg = await readImage(file('a.jpg', encodeImage(source, w, h, 'jpeg')));
    expect([jpeg.width, jpeg.height, jpeg.format]).toEqual([w, h, 'rgba']);
    const d = difference(jpeg.data, source);
    expect(d.mean).toBeLessThan(2);
    expect(d.max).toBeLessThan(40);
    const webp = await readImage(file('a.webp', encodeImage(source, w, h, 'webp')));
    expect([webp.width, webp.height, webp.format]).toEqual([w, h, 'rgba']);
    expect(Buffer.from(webp.data).equals(Buffer.from(source))).toBe(true);
  });

  // How each orientation is stored, for the image to be shown as `source`: the inverse of the turn a viewer makes.
  const storedAs: Record<number, string> = { 1: '', 2: 'hflip', 3: 'hflip,vflip', 4: 'vflip', 5: 'transpose=0', 6: 'transpose=2', 7: 'transpose=3', 8: 'transpose=1' };
  for (const [orientation, filters] of Object.entries(storedAs)) {
    it(`turns a JPEG stored with EXIF orientation ${orientation} upright`, async () => {
      const order = Number(orientation) % 2 ? 'MM' : 'II';
      const bytes = withOrientation(encodeImage(source, w, h, 'jpeg', filters), Number(orientation), order);
      const img = await readImage(file(`o${orientation}.jpg`, bytes));
      expect([img.width, img.height]).toEqual([w, h]);
      expect(difference(img.data, source).mean).toBeLessThan(2);
    });
  }

  it('finds the orientation past an XMP segment, which is APP1 too', async () => {
    const turned = withOrientation(encodeImage(source, w, h, 'jpeg', 'transpose=2'), 6);
    const xmpText = Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>', 'latin1');
    const xmp = Buffer.concat([Buffer.from([0xff, 0xe1, 0, xmpText.length + 2]), xmpText]);
    const bytes = Buffer.concat([turned.subarray(0, turned.indexOf('Exif') + 26 + 6), xmp, turned.subarray(turned.indexOf('Exif') + 26 + 6)]);
    const img = await readImage(file('xmp.jpg', bytes));
    expect(difference(img.data, source).mean).toBeLessThan(2);
  });

  it('refuses a file cut short, empty, of another kind, missing, or animated, naming it', async () => {
    const jpeg = encodeImage(source, w, h, 'jpeg');
    const webp = encodeImage(source, w, h, 'webp');
    const cases: [string, Buffer, RegExp][] = [
      ['cut.jpg', jpeg.subarray(0, jpeg.length - 100), /cut\.jpg: corrupt JPEG \(cut short/],
      ['cut.webp', webp.subarray(0, webp.length - 10), /cut\.webp: corrupt WebP \(cut short/],
      ['empty.jpg', Buffer.alloc(0), /empty\.jpg: empty file/],
      ['text.jpg', Buffer.from('hello, world\n'), /text\.jpg: not an image flowmark reads/],
      ['noframe.jpg', jpeg.subarray(0, 20), /noframe\.jpg: corrupt JPEG \(no frame header\)/],
      // A VP8X header with the animation flag set.
      ['anim.webp', Buffer.concat([Buffer.from('RIFF\x16\0\0\0WEBPVP8X\x0a\0\0\0\x02\0\0\0\x2f\0\0\x1f\0\0', 'latin1')]), /anim\.webp: animated WebP/],
    ];
    for (const [name, bytes, message] of cases) {
      const error = await readImage(file(name, bytes)).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(DecodeError);
      expect((error as Error).message, name).toMatch(message);
    }
    await expect(readImage(join(dir, 'missing.jpg'))).rejects.toThrow(/missing\.jpg: cannot read \(no such file\)/);
  });

  it('refuses a JPEG over maxPixels from its header, before ffmpeg runs', async () => {
    const path = file('big.jpg', encodeImage(source, w, h, 'jpeg'));
    // A missing ffmpeg would fail with a DecodeError; the size is refused first.
    await expect(readImage(path, { maxPixels: w * h - 1, ffmpeg: join(dir, 'no-ffmpeg') })).rejects.toBeInstanceOf(InvalidFrameError);
    await expect(readImage(path, { ffmpeg: join(dir, 'no-ffmpeg') })).rejects.toThrow(/ffmpeg was not found/);
  });

  it('refuses unknown options', async () => {
    await expect(readImage('x.png', { maxpixels: 4 } as never)).rejects.toThrow(InvalidOptionError);
  });
});
