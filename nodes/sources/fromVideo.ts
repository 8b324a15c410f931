/**
 * Source (browser): an MP4 (URL, Blob or ArrayBuffer) demuxed with mp4box and decoded with WebCodecs'
 * `VideoDecoder` (H.264, VP9, AV1: whatever the browser decodes). Every frame, in presentation order, with the
 * container's timestamps (edit lists applied), as displayed (the display size, turned as the track header says,
 * as `fromVideoFile` does); each `VideoFrame` is copied to the GPU
 * (`copyExternalImageToTexture`) and closed at once. Decoding stays a few frames ahead, no more. Pacing:
 * `'as-fast-as-possible'` (default) or `'realtime'` (frames released at their timestamps). In Node, use
 * `fromVideoFile` from `flowmark/node` (ffmpeg); called in Node, this one throws an `InvalidOptionError` saying so.
 * A Blob (a File the user picked), or a URL whose server answers ranges (static servers and CDNs do; across origins
 * it must expose Content-Range), is read by its index and a window of frames at a time, so a recording of many GiB
 * plays; from a server that ignores ranges the file is downloaded whole (decodeVideoFrames.ts).
 *
 * @example
 * fromVideo(ctx, '/clip.mp4').pipe(threshold(), label({ algorithm: 'auto' }), features(), readResults())
 *
 * Errors (`DecodeError`, on the stream): a download that fails, an empty, truncated or non-MP4 file (one cut inside
 * its frames after the frames before the cut), no video track, a codec this browser cannot decode, or a decoding
 * error.
 */
import { defer, type Observable } from 'rxjs';
import { tagSource } from '../../src/core/streamInfo.js';
import type { GpuContext } from '../../src/core/GpuContext.js';
import type { GpuFrame } from '../../src/core/GpuFrame.js';
import { InvalidOptionError } from '../../src/core/errors.js';
import { frameSource } from '../../src/core/frameSource.js';
import { TextureUploader } from './TextureUploader.js';
import type { VideoInfo } from './probeVideo.js';
import { decodeVideoFrames, refuseNode } from './decodeVideoFrames.js';
import type { DisplayTransform } from './displayTransform.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';

export interface FromVideoOptions {
  pacing?: 'as-fast-as-possible' | 'realtime';
  /** Frames on the GPU at once (default 2). */
  maxInFlight?: number;
  /** Called once the container is read. */
  onInfo?: (info: VideoInfo) => void;
}

export function fromVideo(ctx: GpuContext, source: string | Blob | ArrayBuffer, options: FromVideoOptions = {}): Observable<GpuFrame> {
  checkOptions('fromVideo', options, optionKeys<FromVideoOptions>({ pacing: true, maxInFlight: true, onInfo: true }));
  refuseNode('fromVideo', 'fromVideoFile');
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
        decodeVideoFrames(source, options, () => uploader.ready(), (info) => (display = info.display)),
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
