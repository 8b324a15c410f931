/**
 * Source (Node, `flowmark/node`): a video file's frames on the GPU, in presentation order, every frame. An MP4 or
 * QuickTime container is read with mp4box (tracks, codec, frame count, timestamps), any other (AVI, Matroska, WebM,
 * MPEG-TS, raw H.264: what recorders write) with ffprobe (probeWithFfprobe.ts); frames are decoded by ffmpeg running as
 * a child process that writes raw frames to a pipe, read with backpressure (ffmpeg waits while frames are in
 * flight) and killed on unsubscribe. Timestamps come from the container. Frames arrive as displayed: a track
 * header that turns the video (portrait phone video) turns the frames, `info.width`×`info.height` (`probeVideoFile`).
 * (In browsers, `fromVideo` decodes with WebCodecs, and turns frames the same way.)
 *
 * @example
 * fromVideoFile(ctx, 'clip.mp4').pipe(threshold(), label({ algorithm: 'auto' }), features(), readResults())
 *
 * Errors: `InvalidOptionError` for bad options (thrown at once); on the stream, `DecodeError` for a missing,
 * empty or truncated file, one that is no video ffmpeg can read, no video track, a codec ffmpeg cannot decode, or
 * no ffmpeg (the message says how to install it).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { readHead, readRanges } from './readInput.js';
import { readMp4Index } from './readMp4Index.js';
import type { Readable } from 'node:stream';
import { defer, type Observable } from 'rxjs';
import type { GpuContext } from '../../src/core/GpuContext.js';
import type { GpuFrame } from '../../src/core/GpuFrame.js';
import { DecodeError, InvalidOptionError } from '../../src/core/errors.js';
import { fromPixels, type PixelImage } from './fromPixels.js';
import { validateInFlight } from '../../src/core/frameSource.js';
import { probeVideo, type VideoInfo } from './probeVideo.js';
import { ffmpegTurn } from './displayTransform.js';
import { ffprobeBeside, probeWithFfprobe } from './probeWithFfprobe.js';
import { tagSource } from '../../src/core/streamInfo.js';
import type { FramePick } from './backgroundPick.js';
import { ffmpegMessage } from './ffmpegMessage.js';
import { checkOptions, optionKeys, pixelFormatOption } from '../../src/core/checkOptions.js';

export interface FromVideoFileOptions {
  /** Pixels handed to the GPU: 8-bit gray (default) or RGBA. */
  format?: 'gray' | 'rgba';
  maxInFlight?: number;
  /** The ffmpeg executable (default `ffmpeg` on the PATH). */
  ffmpeg?: string;
  /** The ffprobe executable, for containers other than MP4 (default: beside `ffmpeg` where that is a path ending in ffmpeg, else `ffprobe` on the PATH). */
  ffprobe?: string;
  /** Called once the container is read, before the first frame. */
  onInfo?: (info: VideoInfo) => void;
  /**
   * What `probeVideoFile` said of this file, where it was probed already (to pick a model, to take a prime): not probed
   * again. Another container's ffprobe reads every packet, about 2 s for an hour of video.
   */
  info?: VideoInfo;
}

/** A given VideoInfo: the fields the decode reads, checked (thrown at once; `who` names the function). */
export function checkVideoInfo(who: string, info: VideoInfo | undefined): void {
  if (info === undefined) return;
  const whole = (v: unknown) => Number.isInteger(v) && (v as number) > 0;
  const ok = info !== null && typeof info === 'object' && [info.width, info.height, info.storedWidth, info.storedHeight].every(whole) && Array.isArray(info.timestampsUs) && info.fps > 0 && !!info.display;
  if (!ok) throw new InvalidOptionError(`${who}: info must be what probeVideoFile gives for the file`);
}

/** What a source says when the ffmpeg executable is missing (videoFileHasColor says it too). */
export const noFfmpeg = 'ffmpeg was not found; install it (Debian: apt-get install ffmpeg; `npm test` does)';

/** The DecodeError for an ffmpeg that did not start on `path`: missing, or why it failed. */
export function ffmpegStartError(path: string, e: NodeJS.ErrnoException): DecodeError {
  return new DecodeError(`${path}: ${e.code === 'ENOENT' ? noFfmpeg : `ffmpeg failed to start (${e.message})`}`, path, { cause: e });
}

/** Box types an MP4 or QuickTime file starts with. */
const mp4Boxes = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);

/**
 * A video file's size, codec, frame count and timestamps, without decoding it: MP4 and QuickTime read by mp4box
 * (their index only, so a file of any size is probed in the memory its index takes), other containers by ffprobe (`options.ffprobe`, default `ffprobe` on the PATH).
 */
export async function probeVideoFile(path: string, options: { ffprobe?: string } = {}): Promise<VideoInfo> {
  checkOptions('probeVideoFile', options, ['ffprobe']);
  const head = await readHead(path, 8);
  if (head.length === 0) throw new DecodeError(`${path}: empty file`, path);
  if (head.length === 8 && !mp4Boxes.has(head.toString('latin1', 4, 8))) return probeWithFfprobe(path, options.ffprobe);
  // The index alone: the media data may be far larger than anything worth reading here.
  return probeVideo((await readRanges(path, readMp4Index)).bytes, path);
}

/**
 * A video's frames as ffmpeg decodes them, as displayed, in presentation order: all of them, or those `pick` names
 * (their timestamps then those of the frames picked). Killed when the caller stops early.
 */
export async function* decodeVideoFile(path: string, info: VideoInfo, format: 'gray' | 'rgba', ffmpeg: string, pick?: FramePick): AsyncGenerator<PixelImage> {
  const frameBytes = info.width * info.height * (format === 'rgba' ? 4 : 1);
  // The turn is ours (the same as the browser's fromVideo), not ffmpeg's autorotation: scale to the stored size
  // (pixel aspect ratio), then turn as the track header says.
  const filters = [pick && pick.every > 1 ? `select=not(mod(n\\,${pick.every}))` : '', `scale=${info.storedWidth}:${info.storedHeight}`, ffmpegTurn(info.display)].filter(Boolean).join(',');
  const args = ['-v', 'error', '-nostdin', '-noautorotate', '-i', path, '-map', '0:v:0', '-fps_mode', 'passthrough'];
  if (pick) args.push('-frames:v', String(pick.count));
  args.push('-vf', filters, '-f', 'rawvideo', '-pix_fmt', format, '-');
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', (e: NodeJS.ErrnoException) => reject(ffmpegStartError(path, e)));
    child.on('close', (code) => resolve(code));
  });
  exited.catch(() => undefined);
  let pending: Buffer = Buffer.alloc(0);
  let index = 0;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= frameBytes) {
        const frame = new Uint8Array(pending.buffer.slice(pending.byteOffset, pending.byteOffset + frameBytes));
        pending = pending.subarray(frameBytes);
        const shown = index * (pick?.every ?? 1);
        const timeUs = info.timestampsUs[shown] ?? Math.round((shown * 1e6) / info.fps);
        index++;
        yield { width: info.width, height: info.height, format, data: frame, timeUs };
      }
    }
    const code = await exited;
    if (code !== 0) throw new DecodeError(`${path}: ffmpeg could not decode ${info.codec} (exit ${code}): ${ffmpegMessage(stderr) || 'no message'}`, path);
    // An MP4's index names every frame, so fewer is a file cut short; other containers were counted by their packets,
    // which a codec's packing can make differ from the frames (what ffprobe read is what there is).
    if (!pick && info.container === 'mp4' && index !== info.frames) throw new DecodeError(`${path}: decoded ${index} of ${info.frames} frames${stderr.trim() ? ` (ffmpeg: ${ffmpegMessage(stderr)})` : ''}`, path);
  } finally {
    // Unsubscribed or failed early: ffmpeg must not outlive the stream.
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

const fromVideoFileKeys = optionKeys<FromVideoFileOptions>({ format: true, maxInFlight: true, ffmpeg: true, ffprobe: true, onInfo: true, info: true });

export function fromVideoFile(ctx: GpuContext, path: string, options: FromVideoFileOptions = {}): Observable<GpuFrame> {
  checkOptions('fromVideoFile', options, fromVideoFileKeys);
  const format = pixelFormatOption('fromVideoFile', options.format);
  validateInFlight('fromVideoFile', options.maxInFlight ?? 2);
  checkVideoInfo('fromVideoFile', options.info);
  // defer: each subscription probes and decodes afresh. Tagged so operators compile their pipelines at once.
  return tagSource(defer(() => fromPixels(ctx, videoFrames(path, format, options), { maxInFlight: options.maxInFlight })), ctx);
}

export type ReadVideoFramesOptions = Omit<FromVideoFileOptions, 'maxInFlight'>;

const readVideoFramesKeys = optionKeys<ReadVideoFramesOptions>({ format: true, ffmpeg: true, ffprobe: true, onInfo: true, info: true });

/**
 * A video file's frames on the CPU (Node, `flowmark/node`), as `fromVideoFile` reads them: the same probe, decode,
 * turn and timestamps, one `PixelImage` at a time (ffmpeg waits while the caller holds the next). For work on the
 * pixels beside the GPU chain, e.g. `fromPixels(ctx, frames)` with each frame kept until its result arrives.
 * Options are checked at once; decode errors come from the iteration.
 */
export function readVideoFrames(path: string, options: ReadVideoFramesOptions = {}): AsyncGenerator<PixelImage> {
  checkOptions('readVideoFrames', options, readVideoFramesKeys);
  const format = pixelFormatOption('readVideoFrames', options.format);
  checkVideoInfo('readVideoFrames', options.info);
  return videoFrames(path, format, options);
}

async function* videoFrames(path: string, format: 'gray' | 'rgba', options: ReadVideoFramesOptions): AsyncGenerator<PixelImage> {
  const info = options.info ?? (await probeVideoFile(path, { ffprobe: options.ffprobe ?? ffprobeBeside(options.ffmpeg) }));
  options.onInfo?.(info);
  yield* decodeVideoFile(path, info, format, options.ffmpeg ?? 'ffmpeg');
}
