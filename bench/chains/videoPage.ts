// Bundled into the page of bench/chains/video.ts: decodes a clip with fromVideo (WebCodecs) and reports frames per
// second with and without the labeling pipeline.
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, features, fromVideo, label, readResults, threshold } from '../../index.js';

async function benchVideo(url: string): Promise<{ adapter: string; decodeFps: number; pipelineFps: number; frames: number }> {
  const ctx = await GpuContext.create({ label: 'bench-video' });
  const bytes = await (await fetch(url)).arrayBuffer();
  let t0 = performance.now();
  const plain = await lastValueFrom(fromVideo(ctx, bytes.slice(0)).pipe(readResults(), toArray()));
  const decodeFps = plain.length / ((performance.now() - t0) / 1000);
  t0 = performance.now();
  const full = await lastValueFrom(
    fromVideo(ctx, bytes.slice(0)).pipe(threshold({ method: 'adaptive', invert: true }), label({ algorithm: 'auto' }), features(), readResults(), toArray()),
  );
  const pipelineFps = full.length / ((performance.now() - t0) / 1000);
  const adapter = `${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback)' : ''}`;
  ctx.destroy();
  return { adapter, decodeFps, pipelineFps, frames: full.length };
}

(globalThis as unknown as { benchVideo: typeof benchVideo }).benchVideo = benchVideo;
