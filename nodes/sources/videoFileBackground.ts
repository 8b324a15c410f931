/**
 * The scene behind what moves in a video file (Node, `flowmark/node`; in the browser, `videoBackground`): the
 * per-pixel median (`medianImage`) of `samples` frames spread evenly over the video's first `seconds`, each first
 * brought to the first one's light (`matchLight`: a light that changed during the stretch gives no patchwork),
 * decoded by ffmpeg as `fromVideoFile` decodes them (same size, turn and format). What `background({ prime })` starts a model
 * from, so that what stands in view when the video begins is foreground from its first frame, not a ghost left where
 * it stood once it walks off, and nothing that walks in during the first frames is learnt (`flowmark track --prime`).
 * Whatever stands still over more than half the stretch is part of the result.
 *
 * @example
 * const prime = await videoFileBackground('street.mp4');
 * fromVideoFile(ctx, 'street.mp4').pipe(background({ prime, learningRate: 1 / 500 }), …)
 *
 * Errors: `InvalidOptionError` for bad options (thrown at once); `DecodeError` where the file cannot be read or
 * decoded, or ffmpeg or ffprobe is missing.
 */
import { DecodeError } from '../../src/core/errors.js';
import { medianImage } from '../../src/image/medianImage.js';
import type { PrimeImage } from '../../src/image/backgroundSettings.js';
import { framePick, videoBackgroundSettings, type VideoBackgroundOptions } from './backgroundPick.js';
import { checkVideoInfo, decodeVideoFile, probeVideoFile } from './fromVideoFile.js';
import type { VideoInfo } from './probeVideo.js';
import { ffprobeBeside } from './probeWithFfprobe.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';

export interface VideoFileBackgroundOptions extends VideoBackgroundOptions {
  /** The ffmpeg executable (default `ffmpeg` on the PATH). */
  ffmpeg?: string;
  /** The ffprobe executable, for containers other than MP4 (default as fromVideoFile's). */
  ffprobe?: string;
  /** What `probeVideoFile` said of this file, where it was probed already: not probed again (as fromVideoFile's). */
  info?: VideoInfo;
}

export function videoFileBackground(path: string, options: VideoFileBackgroundOptions = {}): Promise<PrimeImage> {
  checkOptions('videoFileBackground', options, optionKeys<VideoFileBackgroundOptions>({ seconds: true, samples: true, format: true, ffmpeg: true, ffprobe: true, info: true }));
  const { seconds, samples, format } = videoBackgroundSettings('videoFileBackground', options);
  checkVideoInfo('videoFileBackground', options.info);
  return (async () => {
    const info = options.info ?? (await probeVideoFile(path, { ffprobe: options.ffprobe ?? ffprobeBeside(options.ffmpeg) }));
    const images: PrimeImage[] = [];
    for await (const img of decodeVideoFile(path, info, format, options.ffmpeg ?? 'ffmpeg', framePick(info, seconds, samples))) images.push(img);
    if (images.length === 0) throw new DecodeError(`${path}: no frame decoded`, path);
    return medianImage(images, { matchLight: true });
  })();
}
