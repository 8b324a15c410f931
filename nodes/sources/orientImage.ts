/**
 * An image turned as its EXIF orientation says (1–8), so that it arrives upright as it is shown: what OpenCV's
 * `imread` and browsers do with a phone's photos, whose sensor rows are stored as the sensor read them.
 * Orientations 5–8 swap width and height.
 */
import type { PixelImage } from './fromPixels.js';

/** For orientation `o`, where the shown pixel (x, y) is stored, given the stored size w × h. */
const stored: Record<number, (x: number, y: number, w: number, h: number) => [number, number]> = {
  2: (x, y, w) => [w - 1 - x, y], // mirrored left to right
  3: (x, y, w, h) => [w - 1 - x, h - 1 - y], // turned half a turn
  4: (x, y, _w, h) => [x, h - 1 - y], // mirrored top to bottom
  5: (x, y) => [y, x], // mirrored about the main diagonal
  6: (x, y, _w, h) => [y, h - 1 - x], // shown a quarter turn clockwise
  7: (x, y, w, h) => [w - 1 - y, h - 1 - x], // mirrored about the other diagonal
  8: (x, y, w) => [w - 1 - y, x], // shown a quarter turn anticlockwise
};

export function orientImage(image: PixelImage, orientation: number): PixelImage {
  const at = stored[orientation];
  if (!at) return image;
  const { width: w, height: h, data } = image;
  const channels = image.format === 'gray' ? 1 : 4;
  const swap = orientation >= 5;
  const width = swap ? h : w;
  const height = swap ? w : h;
  const out = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [sx, sy] = at(x, y, w, h);
      const from = (sy * w + sx) * channels;
      const to = (y * width + x) * channels;
      for (let c = 0; c < channels; c++) out[to + c] = (data as Uint8Array)[from + c];
    }
  }
  return { ...image, width, height, data: out };
}
