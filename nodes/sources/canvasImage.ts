/**
 * Frames drawn on a 2D canvas and read back as images (browser): how `videoBackground` and `cameraPrime` take the
 * frames their median is made of.
 */
import type { PrimeImage } from '../../src/image/backgroundSettings.js';
import { grayFromRgba } from '../../src/image/grayFromRgba.js';

/** `g` where it is `width`×`height` already (frames of one size share one canvas), else a new context; null where the browser has no 2D OffscreenCanvas. */
export function canvasOfSize(g: OffscreenCanvasRenderingContext2D | null, width: number, height: number): OffscreenCanvasRenderingContext2D | null {
  if (g && g.canvas.width === width && g.canvas.height === height) return g;
  return new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true });
}

/** What the canvas shows, as 8-bit gray or RGBA. */
export function canvasImage(g: OffscreenCanvasRenderingContext2D, format: 'gray' | 'rgba'): PrimeImage {
  const { width, height } = g.canvas;
  const rgba = new Uint8Array(g.getImageData(0, 0, width, height).data.buffer);
  return { width, height, format, data: format === 'rgba' ? rgba : grayFromRgba(rgba, width * height) };
}
