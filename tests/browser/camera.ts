// Runs in headless Chromium with a fake camera fed from a .y4m file (see camera.test.ts): fromCamera drives the
// pipeline; the page reports what it saw and whether unsubscribing stopped the camera.
import { take, toArray, lastValueFrom } from 'rxjs';
import { GpuContext, features, fromCamera, label, readResults, threshold } from '../../index.js';
import { watchCameraTracks } from './cameraTracks.js';

export interface CameraSummary {
  frames: { seq: number; timeUs: number; width: number; height: number; count: number; cx: number[]; cy: number[] }[];
  stats: { delivered: number; dropped: number };
  liveTracksAfter: number;
  inUseAfter: number;
}

async function runCameraTest(): Promise<CameraSummary> {
  const ctx = await GpuContext.create({ label: 'camera-test' });
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
