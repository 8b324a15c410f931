// Runs in headless Chromium (see video.test.ts): each served clip through fromVideo (mp4box + WebCodecs) →
// threshold → label → features; reports every frame or the error. And videoBackground's image of served clips.
import { lastValueFrom, tap, toArray } from 'rxjs';
import { GpuContext, features, fromVideo, label, readResults, threshold, videoBackground, type VideoBackgroundOptions } from '../../index.js';

export interface ClipSummary {
  name: string;
  frames?: { timeUs: number; width: number; height: number; count: number; cx: number; cy: number; box: number[] }[];
  info?: { frames: number; codec: string };
  error?: { name: string; message: string };
}

async function realtimeSeconds(name: string): Promise<number> {
  const ctx = await GpuContext.create({ label: 'video-realtime' });
  const t0 = performance.now();
  await lastValueFrom(fromVideo(ctx, `/${name}`, { pacing: 'realtime' }).pipe(readResults(), toArray()));
  ctx.destroy();
  return (performance.now() - t0) / 1000;
}
(globalThis as unknown as { realtimeSeconds: typeof realtimeSeconds }).realtimeSeconds = realtimeSeconds;

/** A video through fromVideo → threshold → label → features: every frame's square, or the error after the frames. */
async function summarize(ctx: GpuContext, source: string | Blob, name: string): Promise<ClipSummary> {
  const summary: ClipSummary = { name, frames: [] };
  try {
    await lastValueFrom(
      fromVideo(ctx, source, { onInfo: (i) => (summary.info = { frames: i.frames, codec: i.codec }) }).pipe(
        threshold({ level: 128 }),
        label({ algorithm: 'auto' }),
        features(),
        readResults(),
        tap((r) => {
          const f = r.features!;
          summary.frames!.push({ timeUs: r.timeUs, width: r.width, height: r.height, count: r.labeling!.count, cx: f.cx[0], cy: f.cy[0], box: [f.x0[0], f.y0[0], f.x1[0], f.y1[0]] });
        }),
      ),
      { defaultValue: null },
    );
  } catch (e) {
    summary.error = { name: (e as Error).name, message: (e as Error).message };
  }
  return summary;
}

async function runVideoTest(names: string[]): Promise<{ clips: ClipSummary[]; inUseAfter: number }> {
  const ctx = await GpuContext.create({ label: 'video-test' });
  const clips: ClipSummary[] = [];
  for (const name of names) clips.push(await summarize(ctx, `/${name}`, name));
  await new Promise((r) => setTimeout(r, 50));
  const inUseAfter = ctx.pool.stats().inUse;
  ctx.destroy();
  return { clips, inUseAfter };
}

/** The files the page's file input holds (the test sets files on disk, as a user picks them), each through summarize. */
async function runPickedFiles(): Promise<ClipSummary[]> {
  const ctx = await GpuContext.create({ label: 'video-files' });
  const clips: ClipSummary[] = [];
  for (const file of Array.from(document.querySelector<HTMLInputElement>('input[type=file]')!.files!)) clips.push(await summarize(ctx, file, file.name));
  ctx.destroy();
  return clips;
}
(globalThis as unknown as { runPickedFiles: typeof runPickedFiles }).runPickedFiles = runPickedFiles;

(globalThis as unknown as { runVideoTest: typeof runVideoTest }).runVideoTest = runVideoTest;

export type BackgroundOutcome = { width: number; height: number; format: string; data: number[] } | { error: { name: string; message: string } };

/** videoBackground of each served clip with its options: the image, or the error (a bad option throws at once). */
async function backgrounds(cases: { url: string; options: VideoBackgroundOptions }[]): Promise<BackgroundOutcome[]> {
  const out: BackgroundOutcome[] = [];
  for (const c of cases) {
    try {
      const img = await videoBackground(c.url, c.options);
      out.push({ width: img.width, height: img.height, format: img.format, data: Array.from(img.data) });
    } catch (e) {
      out.push({ error: { name: (e as Error).name, message: (e as Error).message } });
    }
  }
  return out;
}
(globalThis as unknown as { backgrounds: typeof backgrounds }).backgrounds = backgrounds;
