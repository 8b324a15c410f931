// The browser tracking example in headless Chromium: it decodes the shipped street clip with WebCodecs, tracks its
// objects on WebGPU + CPU as the Node example does, counts the middle line as the clip's truth says objects cross
// it (within one each way), and draws boxes over the frames; its model is gray, as the clip is. Given a color clip
// (`?clip=`), it models color and counts that clip's line.
import { expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumSession } from '../support/chromiumSession.js';
import { makeTrackClips, trackScenes } from '../support/trackClips.js';
import { lineCrossings } from '../../src/eval/motMetrics.js';
// @ts-expect-error: a plain .mjs script without types
import { exampleFiles } from '../../scripts/serve-example.mjs';

const session = chromiumSession(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowmark-track-example-'));
  // At 25 frames/s: the example must draw each frame's result at the video's time whatever the clip's rate.
  makeTrackClips(dir, ['color'], 25);
  return { files: { ...(await exampleFiles()), '/color.mp4': { body: readFileSync(join(dir, 'color.mp4')), type: 'video/mp4' } } };
});

type Shown = { frames: number; tracks: number; forward: number; backward: number; model: string; drawn: number[]; shown: number[]; status: string | null; counts: string | null };

/**
 * Opens the example (on `query`'s clip) and waits for its analysis; what it reports and draws, and which result it
 * draws at each of the media `times` (seconds).
 */
async function open(query = '', times: number[] = []): Promise<Shown> {
  const page = await session.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${session.url}/track.html${query}`);
  await page.waitForFunction(() => 'flowmarkTrack' in globalThis);
  const result = await page.evaluate(async (times) => {
    const r = await (globalThis as unknown as { flowmarkTrack: Promise<{ frames: number; tracks: number; forward: number; backward: number; model: string; drawn: (n: number) => number; frameAt: (seconds: number) => number }> }).flowmarkTrack;
    return { frames: r.frames, tracks: r.tracks, forward: r.forward, backward: r.backward, model: r.model, drawn: [0.2, 0.5, 0.8].map((at) => r.drawn(Math.floor(at * r.frames))), shown: times.map((t) => r.frameAt(t)) };
  }, times);
  expect(errors).toEqual([]);
  const shown = { ...result, status: await page.textContent('#status'), counts: await page.textContent('#counts') };
  if (process.env.FLOWMARK_SCREENSHOT) await page.screenshot({ path: process.env.FLOWMARK_SCREENSHOT.replace(/(\.png)?$/, `${query ? '-color' : ''}.png`), fullPage: true });
  await page.close();
  return shown;
}

it('the browser tracking example tracks the street clip, counts its line and draws the tracks', async () => {
  const result = await open('', [0, 10 / 30, 299 / 30]);
  expect(result.frames).toBe(300);
  expect(result.shown).toEqual([0, 10, 299]);
  // The street clip is gray (videoHasColor): the gray model, as `flowmark track` picks for it.
  expect(result.model).toBe('gray');
  expect(result.status).toMatch(/300 frames analysed \(gray model\)/);
  // The truth: eight objects, and the crossings of the middle line by their centres.
  const truth = JSON.parse(readFileSync(fileURLToPath(new URL('../../examples/data/street.json', import.meta.url)), 'utf8')).truth as number[][];
  const boxes = truth.map(([frame, id, x0, y0, x1, y1]) => ({ frame, id, x0, y0, x1, y1 }));
  const want = lineCrossings(boxes, 160);
  // Eight crossings, one clip: within three in all, either way (what bench/evaluation/trackEval.js's line error sums; the
  // counting's precision is measured there, over 7 situations × 16 seeds, at about a quarter).
  const off = Math.abs(result.forward - want.forward) + Math.abs(result.backward - want.backward);
  expect(off, `forward ${result.forward} vs ${want.forward}, backward ${result.backward} vs ${want.backward}`).toBeLessThanOrEqual(3);
  expect(result.tracks).toBeGreaterThanOrEqual(new Set(boxes.map((b) => b.id)).size);
  for (const n of result.drawn) expect(n).toBeGreaterThan(0);
  expect(result.counts).toMatch(/line: \d+ crossed left to right, \d+ right to left/);
});

it('models a color clip in color (?clip=), counts its line and draws each frame at its time (25 frames/s)', async () => {
  const asked = [0, 1, 10, 61, 149];
  // Each frame's presentation time, and 0.4 of a frame after it (a video reports times between frames too).
  const result = await open('?clip=/color.mp4', asked.flatMap((n) => [n / 25, (n + 0.4) / 25]));
  expect(result.frames).toBe(150);
  expect(result.shown).toEqual(asked.flatMap((n) => [n, n]));
  expect(result.model).toBe('color');
  expect(result.status).toMatch(/150 frames analysed \(color model\)/);
  const s = trackScenes.color;
  const want = lineCrossings(s.truth, s.width / 2);
  expect(want.forward + want.backward).toBeGreaterThan(0);
  expect(Math.abs(result.forward - want.forward), `forward ${result.forward} vs ${want.forward}`).toBeLessThanOrEqual(1);
  expect(Math.abs(result.backward - want.backward), `backward ${result.backward} vs ${want.backward}`).toBeLessThanOrEqual(1);
  for (const n of result.drawn) expect(n).toBeGreaterThan(0);
});
