/**
 * Source (browser): a camera through `getUserMedia`, frames on the GPU without a CPU copy (each new video frame is
 * copied into a texture with `copyExternalImageToTexture`, then packed by a compute pass recorded in the frame's
 * encoder). Paced by the camera (`requestVideoFrameCallback`), not a timer. Latest frame wins: when every
 * in-flight place is taken, the new frame is dropped and counted (`stats.dropped`). Capture timestamps travel on
 * each frame; unsubscribing stops the camera's tracks.
 *
 * @example
 * const camera = fromCamera(ctx, { constraints: { video: { width: 1280, height: 720 } } });
 * camera.pipe(threshold({ method: 'adaptive', invert: true }), label({ algorithm: 'auto' }), features(), readResults())
 *   .subscribe((r) => draw(r.features));
 * // camera.stats: { delivered, dropped, upload }
 *
 * Errors (on the stream): `GpuUnavailableError`-style failures of getUserMedia are passed through as they come
 * (NotAllowedError, NotFoundError...); `InvalidOptionError` for bad options (thrown at once).
 */
import { Observable } from 'rxjs';
import type { GpuContext } from '../../src/core/GpuContext.js';
import type { GpuFrame } from '../../src/core/GpuFrame.js';
import { leasedFrame, validateInFlight } from '../../src/core/frameSource.js';
import { InFlight } from '../../src/core/InFlight.js';
import { tagSource } from '../../src/core/streamInfo.js';
import { TextureUploader, type UploadPath } from './TextureUploader.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';

export interface FromCameraOptions {
  /** Passed to `getUserMedia` (default `{ video: true }`). */
  constraints?: MediaStreamConstraints;
  /** Frames on the GPU at once (default 2). */
  maxInFlight?: number;
}

export interface CameraStats {
  /** Frames emitted. */
  delivered: number;
  /** Camera frames skipped because every in-flight place was taken. */
  dropped: number;
  /**
   * How frames reach the GPU: `'external'` (`copyExternalImageToTexture`, no CPU copy), `'canvas'` (drawn on a 2D
   * canvas and written, where the browser cannot share video frames with WebGPU), `'checking'` until the first
   * frame's copy is known to work.
   */
  upload: UploadPath;
}

export type CameraSource = Observable<GpuFrame> & { readonly stats: CameraStats };

interface VideoFrameCallbackMetadata {
  mediaTime: number;
  captureTime?: number;
  width: number;
  height: number;
}
type VideoWithCallback = HTMLVideoElement & {
  requestVideoFrameCallback(cb: (now: number, meta: VideoFrameCallbackMetadata) => void): number;
  cancelVideoFrameCallback(handle: number): void;
};

export function fromCamera(ctx: GpuContext, options: FromCameraOptions = {}): CameraSource {
  checkOptions('fromCamera', options, optionKeys<FromCameraOptions>({ constraints: true, maxInFlight: true }));
  const maxInFlight = options.maxInFlight ?? 2;
  validateInFlight('fromCamera', maxInFlight);
  const stats: CameraStats = { delivered: 0, dropped: 0, upload: 'checking' };
  const source = new Observable<GpuFrame>((subscriber) => {
    let closed = false;
    let stream: MediaStream | null = null;
    let video: VideoWithCallback | null = null;
    let handle = 0;
    const inFlight = new InFlight(maxInFlight);
    const uploader = new TextureUploader(ctx, 'fromCamera');
    let seq = 0;

    const onFrame = (_now: number, meta: VideoFrameCallbackMetadata) => {
      if (closed || !video) return;
      handle = video.requestVideoFrameCallback(onFrame);
      const place = inFlight.tryAcquire();
      if (!place) {
        stats.dropped++;
        return;
      }
      let frame: GpuFrame;
      try {
        ctx.checkAlive('fromCamera: a camera frame arrived');
        const w = video.videoWidth;
        const h = video.videoHeight;
        const upload = uploader.upload(place.slot, video, w, h);
        stats.upload = uploader.path;
        // Capture time when the browser knows it, else the media time; both in microseconds.
        const timeUs = Math.round((meta.captureTime ?? meta.mediaTime * 1000) * 1000);
        frame = leasedFrame(ctx, place, seq++, { width: w, height: h, timeUs, rgba: upload.rgba, gray: null, record: upload.record });
      } catch (e) {
        place.release();
        subscriber.error(e);
        return;
      }
      stats.delivered++;
      subscriber.next(frame);
    };

    (async () => {
      await uploader.ready();
      stream = await navigator.mediaDevices.getUserMedia(options.constraints ?? { video: true });
      if (closed) return;
      video = document.createElement('video') as VideoWithCallback;
      video.muted = true;
      video.playsInline = true;
      video.srcObject = stream;
      await video.play();
      if (closed) return;
      handle = video.requestVideoFrameCallback(onFrame);
    })().catch((e) => !closed && subscriber.error(e));

    return () => {
      closed = true;
      inFlight.close();
      if (video && handle) video.cancelVideoFrameCallback(handle);
      stream?.getTracks().forEach((t) => t.stop());
      if (video) video.srcObject = null;
      uploader.dispose();
    };
  });
  return Object.assign(tagSource(source, ctx), { stats });
}
