// Runs in headless Chromium (see videoHasColor.test.ts): videoHasColor over served clips, and a served tracking
// clip through fromVideo and the chain `flowmark track` runs in Node (nodes/track/blobTracking.ts, its defaults and its prime, --min-area
// 150 as tests/programs/cliTrack.test.ts gives it) with the model videoHasColor picks, or gray; its tracks as a benchmark reads
// them.
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, fromVideo, probeVideo, seenTracks, videoBackground, videoHasColor } from '../../index.js';
import { defaultBlobSettings, blobTracking } from '../../nodes/track/blobTracking.js';

type Outcome = { value: boolean } | { error: { name: string; message: string } };

async function outcome(run: () => Promise<boolean>): Promise<Outcome> {
  try {
    return { value: await run() };
  } catch (e) {
    return { error: { name: (e as Error).name, message: (e as Error).message } };
  }
}

/** videoHasColor's answer for each clip and options, or its error (a bad option must throw before any promise). */
async function colorAnswers(cases: { url: string; options: object }[]): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const c of cases) out.push(await outcome(() => videoHasColor(c.url, c.options)));
  return out;
}
(globalThis as unknown as { colorAnswers: typeof colorAnswers }).colorAnswers = colorAnswers;

async function trackClip({ url, model }: { url: string; model: 'auto' | 'gray' }) {
  const bytes = await (await fetch(url)).arrayBuffer();
  const color = model === 'auto' && (await videoHasColor(bytes));
  const { width, height } = probeVideo(bytes, url);
  // Primed as flowmark track primes its model (videoFileBackground there).
  const prime = await videoBackground(bytes, { format: color ? 'rgba' : 'gray' });
  const ctx = await GpuContext.create({ label: 'track-clip' });
  try {
    const results = await lastValueFrom(
      fromVideo(ctx, bytes).pipe(
        blobTracking({ ...defaultBlobSettings, warmup: undefined, prime, minArea: 150, maxUnseen: 2, lines: [{ id: 'middle', a: [width / 2, height - 1], b: [width / 2, 0] }], color: color && 'shadows' }),
        toArray(),
      ),
    );
    const rows = results.flatMap((r) => seenTracks(r).map(({ id, box: [x0, y0, x1, y1] }) => ({ frame: r.seq, id, x0, y0, x1, y1 })));
    await new Promise((r) => setTimeout(r, 50));
    return { color, rows, counts: results.at(-1)!.tracks!.counts.middle, inUseAfter: ctx.pool.stats().inUse };
  } finally {
    ctx.destroy();
  }
}
(globalThis as unknown as { trackClip: typeof trackClip }).trackClip = trackClip;
