/**
 * Video throughput (issue 5): frames per second decoding a 1280×720 H.264 clip, in Node (ffmpeg) and in headless
 * Chromium (WebCodecs), with the pipeline (adaptive threshold → label → features) attached and without (decode
 * and upload to the GPU only), beside ffmpeg decoding alone. Runs where Node, ffmpeg and Chromium are (not on
 * the GPU machine, which has neither): on a machine without a GPU the pipeline runs on lavapipe/SwiftShader, so
 * the "with pipeline" columns are CPU emulation there.
 *
 *   node dist/bench/chains/video.js [--seconds 4]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, features, label, readResults, threshold } from '../../index.js';
import { fromVideoFile } from '../../node.js';
import { launchChromium, pageFiles, serve } from '../../tests/support/chromium.js';
import { runMain } from '../support/timing.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(import.meta.url, { seconds: { type: 'string', default: '4' } }, ['seconds']);

async function main(): Promise<void> {
  const clip = join(mkdtempSync(join(tmpdir(), 'flowmark-bench-video-')), 'clip720.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=1280x720:r=30:d=${values.seconds}`, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', clip]);
  let t0 = performance.now();
  execFileSync('ffmpeg', ['-v', 'error', '-i', clip, '-f', 'null', '-']);
  const frames = Number(values.seconds) * 30;
  const ffmpegFps = frames / ((performance.now() - t0) / 1000);

  const ctx = await GpuContext.create({ label: 'bench-video' });
  t0 = performance.now();
  const plain = await lastValueFrom(fromVideoFile(ctx, clip).pipe(readResults(), toArray()));
  const nodeDecode = plain.length / ((performance.now() - t0) / 1000);
  t0 = performance.now();
  const full = await lastValueFrom(
    fromVideoFile(ctx, clip).pipe(threshold({ method: 'adaptive', invert: true }), label({ algorithm: 'auto' }), features(), readResults(), toArray()),
  );
  const nodePipeline = full.length / ((performance.now() - t0) / 1000);
  const nodeAdapter = `${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback)' : ''}`;
  ctx.destroy();

  const { url, server } = await serve({
    ...(await pageFiles(new URL('../../../bench/chains/videoPage.ts', import.meta.url))),
    '/clip.mp4': { body: readFileSync(clip), type: 'video/mp4' },
  });
  const browser = await launchChromium();
  const tab = await browser.browser.newPage();
  await tab.goto(url);
  await tab.waitForFunction(() => 'benchVideo' in globalThis);
  const web = (await tab.evaluate(() => (globalThis as unknown as { benchVideo(u: string): Promise<unknown> }).benchVideo('/clip.mp4'))) as {
    adapter: string;
    decodeFps: number;
    pipelineFps: number;
    frames: number;
  };
  await browser.close();
  server.close();

  console.log(`flowmark video throughput — ${new Date().toISOString()}; 1280×720 H.264, ${frames} frames`);
  console.log('| where | decoder | GPU adapter | decode + upload, frames/s | with pipeline, frames/s |');
  console.log('|---|---|---|---|---|');
  console.log(`| Node | ffmpeg alone (-f null) | – | ${ffmpegFps.toFixed(1)} | – |`);
  console.log(`| Node | ffmpeg → fromVideoFile | ${nodeAdapter} | ${nodeDecode.toFixed(1)} | ${nodePipeline.toFixed(1)} |`);
  console.log(`| Chromium | WebCodecs → fromVideo | ${web.adapter} | ${web.decodeFps.toFixed(1)} | ${web.pipelineFps.toFixed(1)} |`);
  if (full.length !== frames || web.frames !== frames) throw new Error(`frame counts: Node ${full.length}, Chromium ${web.frames}, expected ${frames}`);
}

runMain(main);
