// Runs in headless Chromium with a fake camera fed from a .y4m file (see cameraPrime.test.ts): the images
// cameraPrime takes, and the first frames of a model started from one.
import { lastValueFrom, take, toArray } from 'rxjs';
import { GpuContext, background, cameraPrime, features, fromCamera, readResults, type CameraPrimeOptions, type PrimeImage } from '../../index.js';
import { watchCameraTracks } from './cameraTracks.js';

const constraints = { video: { width: 160, height: 120 } };

export interface CameraPrimeSummary {
  /** One frame (one sample), the median of many, and an RGBA median: size, format and pixels. */
  single: PrimeImage;
  median: PrimeImage;
  rgba: { width: number; height: number; format: string; length: number };
  /** The errors bad options threw at once. */
  bad: string[];
  /** The first frames' blob areas, from a model started from the median and from one started from the first frame. */
  primed: number[][];
  unprimed: number[][];
  liveTracksAfter: number;
}

const plain = (img: PrimeImage) => ({ ...img, data: Array.from(img.data) }) as unknown as PrimeImage;

async function firstAreas(ctx: GpuContext, prime: PrimeImage | null): Promise<number[][]> {
  const results = await lastValueFrom(fromCamera(ctx, { constraints }).pipe(background({ prime }), features(), readResults(), take(3), toArray()));
  return results.map((r) => Array.from(r.features!.area));
}

async function runCameraPrime(): Promise<CameraPrimeSummary> {
  const liveTracks = watchCameraTracks();
  const single = await cameraPrime({ constraints, seconds: 0.01, samples: 1 });
  const median = await cameraPrime({ constraints, seconds: 1.5, samples: 15 });
  const liveTracksAfter = liveTracks();
  const color = await cameraPrime({ constraints, seconds: 0.3, samples: 3, format: 'rgba' });
  const bad: string[] = [];
  for (const o of [{ seconds: 0 }, { samples: 0 }, { samples: 256 }, { format: 'rgb' }, null] as CameraPrimeOptions[]) {
    try {
      void cameraPrime(o);
      bad.push('none');
    } catch (e) {
      bad.push((e as Error).name);
    }
  }
  const ctx = await GpuContext.create({ label: 'camera-prime' });
  const primed = await firstAreas(ctx, median);
  const unprimed = await firstAreas(ctx, null);
  ctx.destroy();
  return { single: plain(single), median: plain(median), rgba: { width: color.width, height: color.height, format: color.format, length: color.data.length }, bad, primed, unprimed, liveTracksAfter };
}

(globalThis as unknown as { runCameraPrime: typeof runCameraPrime }).runCameraPrime = runCameraPrime;
