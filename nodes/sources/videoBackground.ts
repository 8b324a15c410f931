/**
 * The scene behind what moves in a video (browser; in Node, `videoFileBackground` from `flowmark/node`): the
 * per-pixel median (`medianImage`) of `samples` frames spread evenly over the video's first `seconds` (the frames
 * `videoFileBackground` takes, each first brought to the first one's light: `matchLight`), decoded with WebCodecs and
 * drawn as displayed (turned as the track header says, as `fromVideo` delivers them) on a canvas. What `background({ prime })` starts a model from: what stands in view when
 * the video begins is foreground from its first frame, not a ghost where it stood once it walks off. Takes what
 * `fromVideo` takes (an MP4 as URL, Blob or ArrayBuffer).
 *
 * @example
 * const bytes = await (await fetch('/street.mp4')).arrayBuffer();
 * const prime = await videoBackground(bytes);
 * fromVideo(ctx, bytes).pipe(background({ prime, learningRate: 1 / 500 }), …)
 *
 * Errors: `InvalidOptionError` for bad options, or when called in Node (thrown at once); `DecodeError` as
 * `fromVideo` reports it, or no frame decoded.
 */
import { DecodeError } from '../../src/core/errors.js';
import { medianImage } from '../../src/image/medianImage.js';
import type { PrimeImage } from '../../src/image/backgroundSettings.js';
import { canvasImage, canvasOfSize } from './canvasImage.js';
import { framePick, videoBackgroundSettings, type FramePick, type VideoBackgroundOptions } from './backgroundPick.js';
import { decodeVideoFrames, refuseNode } from './decodeVideoFrames.js';
import { displayTransform, type DisplayTransform } from './displayTransform.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';

export function videoBackground(source: string | Blob | ArrayBuffer, options: VideoBackgroundOptions = {}): Promise<PrimeImage> {
  checkOptions('videoBackground', options, optionKeys<VideoBackgroundOptions>({ seconds: true, samples: true, format: true }));
  refuseNode('videoBackground', 'videoFileBackground');
  const { seconds, samples, format } = videoBackgroundSettings('videoBackground', options);
  const name = typeof source === 'string' ? source : 'video';
  return (async () => {
    let pick: FramePick = { every: 1, count: samples };
    let turn: DisplayTransform | undefined;
    let g: OffscreenCanvasRenderingContext2D | null = null;
    const images: PrimeImage[] = [];
    let index = 0;
    const onInfo = (info: Parameters<typeof framePick>[0]) => {
      pick = framePick(info, seconds, samples);
      turn = info.display;
    };
    // Leaving the loop once the frames are taken closes the decoder and whatever it still holds.
    for await (const frame of decodeVideoFrames(source, {}, async () => undefined, onInfo)) {
      try {
        if (index++ % pick.every !== 0) continue;
        const [sw, sh] = [frame.displayWidth, frame.displayHeight];
        // The track header's turn for this frame's size (fromVideo's pack pass turns the same way).
        const t = displayTransform(sw, sh, turn ? [turn.a, turn.b, 0, turn.c, turn.d] : undefined);
        g = canvasOfSize(g, t.width, t.height);
        if (!g) throw new DecodeError('videoBackground: this browser has no 2D OffscreenCanvas to draw frames on', name);
        // The canvas maps (x, y) to (a·x + c·y + e, b·x + d·y + f), the track matrix's form; e and f bring the turned
        // frame's edges (not its pixel centres) back to 0.
        g.setTransform(t.a, t.b, t.c, t.d, -(Math.min(0, t.a * sw) + Math.min(0, t.c * sh)), -(Math.min(0, t.b * sw) + Math.min(0, t.d * sh)));
        g.drawImage(frame, 0, 0, sw, sh);
        images.push(canvasImage(g, format));
      } finally {
        frame.close();
      }
      if (images.length === pick.count) break;
    }
    if (images.length === 0) throw new DecodeError(`${name}: no frame decoded`, name);
    return medianImage(images, { matchLight: true });
  })();
}
