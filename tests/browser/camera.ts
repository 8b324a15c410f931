// Runs in headless Chromium with a fake camera fed from a .y4m file (see camera.test.ts): fromCamera drives the
// pipeline; the page reports what it saw and whether unsubscribing stopped the camera. With `failCopy`, the queue's
// copyExternalImageToTexture fails as in a browser that cannot share video frames with WebGPU: a validation error
// on the device (the copy goes to a texture that is no copy destination) and the frame's texture left unwritten.
import { take, toArray, lastValueFrom } from 'rxjs';
import { GpuContext, features, fromCamera, label, readResults, threshold } from '../../index.js';
import { watchCameraTracks } from './cameraTracks.js';

export interface CameraSummary {
  frames: { seq: number; timeUs: number; width: number; height: number; count: number; cx: number[]; cy: number[] }[];
  stats: { delivered: number; dropped: number; upload: string };
  liveTracksAfter: number;
  inUseAfter: number;
}

async function runCameraTest(failCopy = false): Promise<CameraSummary> {
  const ctx = await GpuContext.create({ label: 'camera-test' });
  if (failCopy) {
    const queue = ctx.device.queue;
    const copy = queue.copyExternalImageToTexture.bind(queue);
    const notDestination = ctx.device.createTexture({ label: 'camera-test:not-a-copy-destination', size: [1, 1], format: 'rgba8unorm', usage: GPUTextureUsage.TEXTURE_BINDING });
    queue.copyExternalImageToTexture = (source, _destination, size) => copy(source, { texture: notDestination }, size);
  }
  const camera = fromCamera(ctx, { constraints: { video: { width: 160, height: 120 } } });
  const liveTracks = watchCameraTracks();
  const results = await lastValueFrom(
    camera.pipe(threshold({ level: 128 }), label({ algorithm: 'auto' }), features(), readResults(), take(20), toArray()),
  );
  await new Promise((r) => setTimeout(r, 100));
  const summary: CameraSummary = {
    frames: results.map((r) => ({ seq: r.seq, timeUs: r.timeUs, width: r.width, height: r.height, count: r.labeling!.count, cx: Array.from(r.features!.cx), cy: Array.from(r.features!.cy) })),
    stats: { ...camera.stats },
    liveTracksAfter: liveTracks(),
    inUseAfter: ctx.pool.stats().inUse,
  };
  ctx.destroy();
  return summary;
}

(globalThis as unknown as { runCameraTest: typeof runCameraTest }).runCameraTest = runCameraTest;
