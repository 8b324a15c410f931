// The browser tracking example in headless Chromium: it decodes the shipped street clip with WebCodecs, tracks its
// objects on WebGPU + CPU as the Node example does, counts the middle line as the clip's truth says objects cross
// it (within one each way), and draws boxes over the frames.
import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromiumSession } from '../support/chromiumSession.js';
import { lineCrossings } from '../../src/reference/motMetrics.js';
// @ts-expect-error: a plain .mjs script without types
import { exampleFiles } from '../../scripts/serve-example.mjs';

const session = chromiumSession(async () => ({ files: await exampleFiles() }));

it('the browser tracking example tracks the street clip, counts its line and draws the tracks', async () => {
  const page = await session.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${session.url}/track.html`);
  await page.waitForFunction(() => 'flowmarkTrack' in globalThis);
  const result = await page.evaluate(async () => {
    const r = await (globalThis as unknown as { flowmarkTrack: Promise<{ frames: number; tracks: number; forward: number; backward: number; drawn: (n: number) => number }> }).flowmarkTrack;
    return { frames: r.frames, tracks: r.tracks, forward: r.forward, backward: r.backward, drawn: [60, 150, 240].map((n) => r.drawn(n)) };
  }, undefined);
  expect(errors).toEqual([]);
  expect(result.frames).toBe(300);
  // The truth: eight objects, and the crossings of the middle line by their centres.
  const truth = JSON.parse(readFileSync(fileURLToPath(new URL('../../examples/data/street.json', import.meta.url)), 'utf8')).truth as number[][];
  const boxes = truth.map(([frame, id, x0, y0, x1, y1]) => ({ frame, id, x0, y0, x1, y1 }));
  const want = lineCrossings(boxes, 160);
  expect(Math.abs(result.forward - want.forward), `forward ${result.forward} vs ${want.forward}`).toBeLessThanOrEqual(1);
  expect(Math.abs(result.backward - want.backward), `backward ${result.backward} vs ${want.backward}`).toBeLessThanOrEqual(2);
  expect(result.tracks).toBeGreaterThanOrEqual(new Set(boxes.map((b) => b.id)).size);
  for (const n of result.drawn) expect(n).toBeGreaterThan(0);
  expect(await page.textContent('#counts')).toMatch(/line: \d+ crossed left to right, \d+ right to left/);
  if (process.env.FLOWMARK_SCREENSHOT) await page.screenshot({ path: process.env.FLOWMARK_SCREENSHOT, fullPage: true });
});
