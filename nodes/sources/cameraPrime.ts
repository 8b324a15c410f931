/**
 * A prime for `background()` from a camera (browser; the camera's counterpart of `videoBackground`, named apart from
 * flowmark/three's `CameraBackground`, the picture behind a 3D scene): the scene behind what moves, the per-pixel
 * median (`medianImage`, each frame first brought to the first one's light: cameras change their exposure) of
 * `samples` frames taken evenly over `seconds` of the camera (default 10 s, 25 frames), drawn on a canvas as
 * `fromCamera` shows them. What `background({ prime })`
 * starts a model from where there is no file to read ahead (`videoBackground`): what stands in view when tracking
 * begins is foreground from the first frame, not learnt as scene and then a ghost where it stood once it walks off.
 * Whatever stands still for more than half the seconds is scene. The camera is opened with `constraints`, as
 * `fromCamera` opens it (give both the same, so that the sizes agree), and stopped before the promise settles.
 *
 * @example
 * const constraints = { video: { width: 1280, height: 720 } };
 * const prime = await cameraPrime({ constraints, seconds: 10 });
 * fromCamera(ctx, { constraints }).pipe(background({ prime }), morphology({ open: 3, close: 5 }), features(), readResults(), track())
 *
 * Errors: `InvalidOptionError` for bad options, or where there is no camera API (Node), thrown at once, or no 2D
 * OffscreenCanvas, on the promise; getUserMedia's own (NotAllowedError, NotFoundError...) as they come.
 */
import { InvalidOptionError } from '../../src/core/errors.js';
import { medianImage } from '../../src/image/medianImage.js';
import type { PrimeImage } from '../../src/image/backgroundSettings.js';
import { canvasImage, canvasOfSize } from './canvasImage.js';
import { videoBackgroundSettings, type VideoBackgroundOptions } from './backgroundPick.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';

export interface CameraPrimeOptions extends VideoBackgroundOptions {
  /** Passed to `getUserMedia` (default `{ video: true }`): those `fromCamera` will be given. */
  constraints?: MediaStreamConstraints;
}

/** A live camera's stretch is time spent waiting before tracking starts: shorter than a file's 30 s. */
export const defaultCameraPrimeSettings = { seconds: 10, samples: 25 } as const;

export function cameraPrime(options: CameraPrimeOptions = {}): Promise<PrimeImage> {
  checkOptions('cameraPrime', options, optionKeys<CameraPrimeOptions>({ seconds: true, samples: true, format: true, constraints: true }));
  if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia) throw new InvalidOptionError("cameraPrime: this environment has no camera API (navigator.mediaDevices.getUserMedia): it runs in a browser");
  const { seconds, samples, format } = videoBackgroundSettings('cameraPrime', options, defaultCameraPrimeSettings);
  return (async () => {
    const stream = await navigator.mediaDevices.getUserMedia(options.constraints ?? { video: true });
    // The camera is stopped whatever happens below: a failed play, a refused image.
    const video = document.createElement('video');
    try {
      video.muted = true;
      video.playsInline = true;
      video.srcObject = stream;
      await video.play();
      const images: PrimeImage[] = [];
      let g: OffscreenCanvasRenderingContext2D | null = null;
      const start = performance.now();
      const interval = (seconds * 1000) / samples;
      while (images.length < samples) {
        // The next frame the camera shows at or after this sample's time.
        const due = start + images.length * interval - performance.now();
        if (due > 0) await new Promise((r) => setTimeout(r, due));
        await new Promise<void>((r) => (video as HTMLVideoElement & { requestVideoFrameCallback(cb: () => void): number }).requestVideoFrameCallback(() => r()));
        const [width, height] = [video.videoWidth, video.videoHeight];
        g = canvasOfSize(g, width, height);
        if (!g) throw new InvalidOptionError('cameraPrime: this browser has no 2D OffscreenCanvas to draw frames on');
        g.drawImage(video, 0, 0, width, height);
        images.push(canvasImage(g, format));
      }
      // A camera that changed its size midway gives images medianImage refuses (InvalidFrameError).
      return medianImage(images, { matchLight: true });
    } finally {
      stream.getTracks().forEach((t) => t.stop());
      video.srcObject = null;
    }
  })();
}
