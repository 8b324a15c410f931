/**
 * Source (browser): an MP4 (URL, Blob or ArrayBuffer) demuxed with mp4box and decoded with WebCodecs'
 * `VideoDecoder` (H.264, VP9, AV1: whatever the browser decodes). Every frame, in presentation order, with the
 * container's timestamps (edit lists applied), as displayed (the display size, turned as the track header says,
 * as `fromVideoFile` does); each `VideoFrame` is copied to the GPU
 * (`copyExternalImageToTexture`) and closed at once. Decoding stays a few frames ahead, no more. Pacing:
 * `'as-fast-as-possible'` (default) or `'realtime'` (frames released at their timestamps). In Node, use
 * `fromVideoFile` from `flowmark/node` (ffmpeg); called in Node, this one throws an `InvalidOptionError` saying so.
 *
 * @example
 * fromVideo(ctx, '/clip.mp4').pipe(threshold(), label({ algorithm: 'auto' }), features(), readResults())
 *
 * Errors (`DecodeError`, on the stream): a download that fails, an empty, truncated or non-MP4 file, no video
 * track, a codec this browser cannot decode, or a decoding error.
 */
import { defer, type Observable } from 'rxjs';
import { tagSource } from '../../src/streamInfo.js';
import type { GpuContext } from '../../src/GpuContext.js';
import type { GpuFrame } from '../../src/GpuFrame.js';
import { DecodeError, InvalidOptionError } from '../../src/errors.js';
import { frameSource } from '../../src/frameSource.js';
import { TextureUploader } from './TextureUploader.js';
import { demuxMp4, type VideoInfo } from './probeMp4.js';
import type { DisplayTransform } from './displayTransform.js';

export interface FromVideoOptions {
  pacing?: 'as-fast-as-possible' | 'realtime';
  /** Frames on the GPU at once (default 2). */
  maxInFlight?: number;
  /** Called once the container is read. */
  onInfo?: (info: VideoInfo) => void;
}

/** Encoded chunks in the decoder and decoded frames waiting, at most (each). */
const ahead = 4;

async function bytesOf(source: string | Blob | ArrayBuffer, name: string): Promise<ArrayBuffer> {
  if (source instanceof ArrayBuffer) return source;
  if (typeof source !== 'string') return source.arrayBuffer();
  let response: Response;
  try {
    response = await fetch(source);
  } catch (cause) {
    throw new DecodeError(`${name}: download failed (${(cause as Error).message})`, name, { cause });
  }
  if (!response.ok) throw new DecodeError(`${name}: download failed (HTTP ${response.status})`, name);
  return response.arrayBuffer();
}

async function* decodeFrames(
  source: string | Blob | ArrayBuffer,
  options: FromVideoOptions,
  ready: () => Promise<void>,
  onInfo: (info: VideoInfo) => void,
): AsyncGenerator<VideoFrame> {
  const name = typeof source === 'string' ? source : 'video';
  const { info, config, chunks } = demuxMp4(await bytesOf(source, name), name);
  onInfo(info);
  options.onInfo?.(info);
  if (typeof VideoDecoder === 'undefined') throw new DecodeError(`${name}: this browser has no WebCodecs VideoDecoder`, name);
  const support = await VideoDecoder.isConfigSupported(config);
  if (!support.supported) throw new DecodeError(`${name}: this browser cannot decode ${config.codec}`, name);
  await ready();
  const out: VideoFrame[] = [];
  let failure: DecodeError | null = null;
  let wake: (() => void) | null = null;
  const decoder = new VideoDecoder({
    output: (frame) => {
      out.push(frame);
      wake?.();
    },
    error: (e) => {
      failure = new DecodeError(`${name}: decoding ${config.codec} failed (${e.message})`, name, { cause: e });
      wake?.();
    },
  });
  const waitForOutput = () => new Promise<void>((resolve) => (wake = resolve));
  decoder.configure(config);
  let next = 0;
  let emitted = 0;
  let flush: Promise<void> | null = null;
  let flushed = false;
  const start = performance.now();
  const first = chunks.reduce((m, c) => Math.min(m, c.timestamp), Infinity);
  try {
    for (;;) {
      while (next < chunks.length && decoder.decodeQueueSize < ahead && out.length < ahead) decoder.decode(new EncodedVideoChunk(chunks[next++]));
      if (failure) throw failure;
      if (out.length) {
        const frame = out.shift()!;
        if (options.pacing === 'realtime') {
          const due = start + (frame.timestamp - first) / 1000 - performance.now();
          if (due > 0) await new Promise((r) => setTimeout(r, due));
        }
        emitted++;
        yield frame;
        continue;
      }
      if (next < chunks.length) {
        await waitForOutput();
        continue;
      }
      if (!flushed) {
        // Every chunk is in: flushing makes the decoder give up the frames it holds for reordering.
        flush ??= decoder.flush().then(
          () => void (flushed = true),
          (e) => void (failure ??= new DecodeError(`${name}: decoding ${config.codec} failed (${(e as Error).message})`, name, { cause: e })),
        );
        await Promise.race([flush, waitForOutput()]);
        if (failure) throw failure;
        continue;
      }
      break;
    }
    if (emitted !== chunks.length) throw new DecodeError(`${name}: decoded ${emitted} of ${chunks.length} frames`, name);
  } finally {
    out.splice(0).forEach((f) => f.close());
    if (decoder.state !== 'closed') decoder.close();
  }
}

export function fromVideo(ctx: GpuContext, source: string | Blob | ArrayBuffer, options: FromVideoOptions = {}): Observable<GpuFrame> {
  if (typeof VideoDecoder === 'undefined' && typeof process !== 'undefined' && !!process.versions?.node) {
    throw new InvalidOptionError("fromVideo decodes with the browser's WebCodecs, which Node lacks: in Node use fromVideoFile from 'flowmark/node' (ffmpeg)");
  }
  const pacing = options.pacing ?? 'as-fast-as-possible';
  if (pacing !== 'as-fast-as-possible' && pacing !== 'realtime') throw new InvalidOptionError(`fromVideo: pacing must be 'as-fast-as-possible' or 'realtime', got ${String(pacing)}`);
  // Each subscription demuxes, decodes and uploads afresh.
  return tagSource(
    defer(() => {
      const uploader = new TextureUploader(ctx, 'fromVideo');
      let display: DisplayTransform | undefined;
      return frameSource(
        ctx,
        'fromVideo',
        decodeFrames(source, options, () => uploader.ready(), (info) => (display = info.display)),
        options.maxInFlight ?? 2,
        (frame: VideoFrame, slot) => {
          try {
            // Decoded as stored; turned as displayed by the pack pass (the track header's rotation).
            const up = uploader.upload(slot, frame, frame.displayWidth, frame.displayHeight, display);
            return { width: up.width, height: up.height, timeUs: frame.timestamp, rgba: up.rgba, gray: null, record: up.record };
          } finally {
            frame.close(); // on the GPU now: give the decoder its memory back
          }
        },
        () => uploader.dispose(),
        (frame) => frame.close(),
      );
    }),
    ctx,
  );
}
