/**
 * Source (Node, `flowmark/node`): a network camera (`rtsp://`, `rtsps://`, `http(s)://`: what IP cameras, recorders and
 * stream servers give) or a video file read as a camera would send it, decoded by ffmpeg. Live: the newest frame
 * wins, and a frame the chain was too busy to take is dropped and counted (`stats.dropped`), never queued. A camera
 * that drops or sends nothing for `stallMs` is opened again, after 0.5 s, 1 s, 2 s… up to `retryMaxMs`;
 * `onStatus` hears each connect and disconnect. Frames carry the time they arrived (µs since the subscription
 * began, continuing across reconnects). Unsubscribing kills ffmpeg.
 *
 * @example
 * const camera = fromCameraUrl(ctx, 'rtsp://192.168.1.20:554/stream1', { onStatus: (s) => console.log(s) });
 * camera.pipe(blobTracking()).subscribe((r) => console.log(r.tracks.length));
 * // camera.stats: { delivered, dropped, connects, failures, state }
 *
 * Errors: `InvalidOptionError` for a URL of another scheme, a malformed one, or bad options (thrown at once). On the
 * stream: `DecodeError` where a file cannot be read, where `attempts` connections in a row gave no frame, or where
 * ffmpeg is missing (the message says how to install it).
 */
import type { Observable } from 'rxjs';
import type { GpuContext } from '../../src/core/GpuContext.js';
import type { GpuFrame } from '../../src/core/GpuFrame.js';
import { InvalidOptionError } from '../../src/core/errors.js';
import { validateInFlight } from '../../src/core/frameSource.js';
import { checkOptions, optionKeys, pixelFormatOption } from '../../src/core/checkOptions.js';
import { pixelSource } from './fromPixels.js';
import { cameraInput } from './cameraInput.js';
import { CameraFeed, type CameraStats, type CameraStatus } from './CameraFeed.js';

export type { CameraStats as CameraUrlStats, CameraStatus } from './CameraFeed.js';

export interface FromCameraUrlOptions {
  /** Pixels handed to the GPU: 8-bit gray (default) or RGBA. */
  format?: 'gray' | 'rgba';
  /** Frames on the GPU at once (default 2). */
  maxInFlight?: number;
  /** The ffmpeg executable (default `ffmpeg` on the PATH). */
  ffmpeg?: string;
  /** Take at most this many frames a second (default: every frame the camera sends). */
  fps?: number;
  /** Scale frames to [width, height] (default: as sent). */
  size?: [number, number];
  /** A connection that gives no frame for this long is taken as dropped (ms, default 10000). */
  stallMs?: number;
  /** First wait before opening a dropped camera again (ms, default 500); it doubles each failure in a row. */
  retryMs?: number;
  /** Longest wait between attempts (ms, default 30000). */
  retryMaxMs?: number;
  /** Attempts in a row without a frame before the stream fails (default: never fails). */
  attempts?: number;
  /** RTSP over 'tcp' (default: through firewalls and NAT, no lost packets) or 'udp'. */
  rtspTransport?: 'tcp' | 'udp';
  /** A file read again from its start at its end, as a camera that never stops (default false). */
  loop?: boolean;
  /** Hears each connection's first frame and each drop, with the wait before the next attempt. */
  onStatus?: (status: CameraStatus) => void;
}

export type CameraUrlSource = Observable<GpuFrame> & { readonly stats: CameraStats };

const keys = optionKeys<FromCameraUrlOptions>({ format: true, maxInFlight: true, ffmpeg: true, fps: true, size: true, stallMs: true, retryMs: true, retryMaxMs: true, attempts: true, rtspTransport: true, loop: true, onStatus: true });

/**
 * fromCameraUrl's options checked and filled in, without opening anything: throws InvalidOptionError as fromCameraUrl
 * does (a fleet checks a camera's settings when it is added, before any worker opens it).
 */
export function cameraUrlSettings(who: string, url: string, options: FromCameraUrlOptions) {
  checkOptions(who, options, keys);
  const input = cameraInput(who, url);
  const format = pixelFormatOption(who, options.format);
  const maxInFlight = options.maxInFlight ?? 2;
  validateInFlight(who, maxInFlight);
  const positive = (name: keyof FromCameraUrlOptions, fallback: number, whole = false) => {
    const v = options[name] ?? fallback;
    if (typeof v !== 'number' || !(v > 0) || (whole && !Number.isInteger(v) && v !== Infinity)) throw new InvalidOptionError(`${who}: ${name} must be a positive ${whole ? 'integer' : 'number'}, got ${String(v)}`);
    return v;
  };
  const size = options.size ?? null;
  if (size !== null && !(Array.isArray(size) && size.length === 2 && size.every((v) => Number.isInteger(v) && v > 0 && v % 2 === 0))) {
    throw new InvalidOptionError(`${who}: size must be [width, height], even positive integers, got ${JSON.stringify(size)}`);
  }
  const rtspTransport = options.rtspTransport ?? 'tcp';
  if (rtspTransport !== 'tcp' && rtspTransport !== 'udp') throw new InvalidOptionError(`${who}: rtspTransport must be 'tcp' or 'udp', got ${String(rtspTransport)}`);
  if (options.onStatus !== undefined && typeof options.onStatus !== 'function') throw new InvalidOptionError(`${who}: onStatus must be a function`);
  const settings = {
    format,
    ffmpeg: options.ffmpeg ?? 'ffmpeg',
    fps: options.fps === undefined ? 0 : positive('fps', 0),
    size: size as readonly [number, number] | null,
    stallMs: positive('stallMs', 10_000),
    retryMs: positive('retryMs', 500),
    retryMaxMs: positive('retryMaxMs', 30_000),
    attempts: positive('attempts', Infinity, true),
    rtspTransport,
    loop: options.loop === true,
  } as const;
  return { input, maxInFlight, settings };
}

export function fromCameraUrl(ctx: GpuContext, url: string, options: FromCameraUrlOptions = {}): CameraUrlSource {
  const who = 'fromCameraUrl';
  const { input, maxInFlight, settings } = cameraUrlSettings(who, url, options);
  const stats: CameraStats = { delivered: 0, dropped: 0, connects: 0, failures: 0, state: 'idle' };
  const onStatus = options.onStatus ?? (() => undefined);
  const source = pixelSource(
    ctx,
    who,
    () => {
      const feed = new CameraFeed(input, settings, stats, onStatus);
      return { images: feed.frames, close: () => feed.stop(), onFrame: () => stats.delivered++ };
    },
    maxInFlight,
    true,
  );
  return Object.assign(source, { stats });
}
