/**
 * Whether a video shows color (browser; in Node, `videoFileHasColor` from `flowmark/node`): an MP4 (URL, Blob or
 * ArrayBuffer, as `fromVideo` takes) whose first frames, decoded with WebCodecs and drawn small on a canvas, have
 * enough pixels whose channels differ (colorTest.ts: the same test, so a clip reads the same in both). A gray video
 * stored as YUV reads false, color footage true. `fromVideo`'s frames are RGBA on the GPU either way; what this
 * decides is whether a model that can use color is worth its GPU time, as `flowmark track` picks its model.
 *
 * @example
 * const bytes = await (await fetch('/street.mp4')).arrayBuffer();
 * const color = await videoHasColor(bytes);
 * fromVideo(ctx, bytes).pipe(background({ color: color && 'shadows' }), …)
 *
 * Errors: `InvalidOptionError` for bad options, or when called in Node (thrown at once); `DecodeError` as
 * `fromVideo` reports it (a download that fails, not an MP4, no video track, a codec the browser cannot decode), or
 * no frame decoded.
 */
import { DecodeError } from '../../src/core/errors.js';
import { colorSampleWidth, colorTest, coloredPixels, type VideoHasColorOptions } from './colorTest.js';
import { decodeVideoFrames, refuseNode } from './decodeVideoFrames.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';

export function videoHasColor(source: string | Blob | ArrayBuffer, options: VideoHasColorOptions = {}): Promise<boolean> {
  checkOptions('videoHasColor', options, optionKeys<VideoHasColorOptions>({ frames: true, spread: true, share: true }));
  refuseNode('videoHasColor', 'videoFileHasColor');
  const { frames, spread, share } = colorTest('videoHasColor', options);
  return (async () => {
    let g: OffscreenCanvasRenderingContext2D | null = null;
    let colored = 0;
    let pixels = 0;
    let seen = 0;
    // Leaving the loop after the frames wanted closes the decoder and whatever it still holds.
    for await (const frame of decodeVideoFrames(source, {}, async () => undefined, () => undefined)) {
      try {
        const w = Math.min(colorSampleWidth, frame.displayWidth);
        const h = Math.max(1, Math.round((frame.displayHeight * w) / frame.displayWidth));
        if (!g || g.canvas.width !== w || g.canvas.height !== h) {
          g = new OffscreenCanvas(w, h).getContext('2d', { willReadFrequently: true });
          if (!g) throw new DecodeError('videoHasColor: this browser has no 2D OffscreenCanvas to scale frames on', 'video');
        }
        // Drawn scaled down (the browser filters it): as ffmpeg's scale does for videoFileHasColor.
        g.drawImage(frame, 0, 0, w, h);
        colored += coloredPixels(g.getImageData(0, 0, w, h).data, 4, spread);
        pixels += w * h;
      } finally {
        frame.close();
      }
      if (++seen === frames) break;
    }
    if (seen === 0) throw new DecodeError(`${typeof source === 'string' ? source : 'video'}: no frame decoded`, typeof source === 'string' ? source : 'video');
    return colored > share * pixels;
  })();
}
