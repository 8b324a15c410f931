/**
 * What `videoBackground` (browser) and `videoFileBackground` (Node) share, and `cameraPrime` in part: their options, and which frames they take
 * (spread evenly over the video's first seconds, from the container's timestamps), so that one clip gives one image
 * in both.
 */
import { InvalidOptionError } from '../../src/core/errors.js';
import { pixelFormatOption } from '../../src/core/checkOptions.js';
import { maxMedianImages } from '../../src/image/medianImage.js';
import type { VideoInfo } from './probeVideo.js';

export interface VideoBackgroundOptions {
  /** The stretch at the start the frames are taken from, in seconds (default 30; the whole video where shorter). */
  seconds?: number;
  /** Frames the median is taken over, 1..255 (default 25; fewer where the stretch has fewer). */
  samples?: number;
  /** Pixels: 8-bit gray (default) or RGBA, as the frames the model will see. */
  format?: 'gray' | 'rgba';
}

export const defaultVideoBackgroundSettings = { seconds: 30, samples: 25 } as const;

/** Some of a video's frames, as shown: every `every`-th from the first, `count` of them at most. */
export interface FramePick {
  every: number;
  count: number;
}

/** Options over the defaults, validated (thrown at once; `who` names the function in the error). */
export function videoBackgroundSettings(who: string, options: VideoBackgroundOptions, defaults: { seconds: number; samples: number } = defaultVideoBackgroundSettings): Required<VideoBackgroundOptions> {
  if (options === null || typeof options !== 'object') throw new InvalidOptionError(`${who}: options must be an object`);
  const seconds = options.seconds ?? defaults.seconds;
  const samples = options.samples ?? defaults.samples;
  const format = pixelFormatOption(who, options.format);
  if (typeof seconds !== 'number' || !(seconds > 0) || !Number.isFinite(seconds)) throw new InvalidOptionError(`${who}: seconds must be a positive number, got ${String(seconds)}`);
  if (!Number.isInteger(samples) || samples < 1 || samples > maxMedianImages) throw new InvalidOptionError(`${who}: samples must be a whole number 1..${maxMedianImages}, got ${String(samples)}`);
  return { seconds, samples, format };
}

/** The frames to take: `samples` spread evenly over those shown in the first `seconds` (from the first shown). */
export function framePick(info: VideoInfo, seconds: number, samples: number): FramePick {
  const first = info.timestampsUs[0] ?? 0;
  const inStretch = info.timestampsUs.length ? info.timestampsUs.filter((t) => t - first < seconds * 1e6).length : Math.min(info.frames, Math.ceil(seconds * info.fps));
  const every = Math.max(1, Math.floor(inStretch / samples));
  return { every, count: Math.max(1, Math.min(samples, Math.ceil(inStretch / every))) };
}
