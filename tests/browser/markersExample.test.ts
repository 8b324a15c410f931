// The camera markers example (examples/browser/markers.html) in headless Chromium, the fake camera playing a .y4m
// of rendered markers (a still scene with exact corners, written here as YUV 4:2:0 with neutral chroma): the page
// outlines every marker, with the IDs and corners of the scene, and reports no error.
import { expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeCameraArgs, y4m } from '../support/chromium.js';
import { chromiumSession } from '../support/chromiumSession.js';
import { markerDictionary, type DetectedMarker } from '../../index.js';
import { markerScene } from '../../reference.js';
// @ts-expect-error: a plain .mjs script without types
import { exampleFiles } from '../../scripts/serve-example.mjs';

const dict = markerDictionary('DICT_4X4_50');
const scene = markerScene(5150, { width: 640, height: 480, markerSize: 4, bits: (id) => dict.bits(id), ids: [4, 19, 33, 47], side: [60, 110], maxTilt: 40, blur: 0.5, noise: 2, clutter: 6 });

const session = chromiumSession(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'flowmark-markers-camera-')), 'markers.y4m');
  writeFileSync(file, y4m(scene.gray, scene.width, scene.height, 10));
  return { files: await exampleFiles(), args: fakeCameraArgs(file) };
});

it('the camera markers example outlines the fake camera\'s markers with their IDs, at their corners', async () => {
  const page = await session.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL("markers.html", `${session.url}/`).href);
  await page.waitForFunction(() => {
    const s = (globalThis as unknown as { flowmarkMarkers?: { frames: number; error: string } }).flowmarkMarkers;
    return s && (s.frames >= 5 || s.error);
  }, undefined, { timeout: 120_000 });
  const seen = await page.evaluate(() => (globalThis as unknown as { flowmarkMarkers: { frames: number; ids: number[]; last: DetectedMarker[]; width: number; height: number; error: string } }).flowmarkMarkers);
  expect(errors).toEqual([]);
  expect(seen.error).toBe('');
  expect([seen.width, seen.height]).toEqual([640, 480]);
  expect([...seen.ids].sort((a, b) => a - b)).toEqual([4, 19, 33, 47]);
  expect(seen.last.map((m) => m.id).sort((a, b) => a - b)).toEqual([4, 19, 33, 47]);
  // Through the camera's YUV → RGB and the page's luma, geometry stays: corners near the scene's exact ones.
  for (const m of seen.last) {
    const t = scene.markers.find((x) => x.id === m.id)!;
    m.corners.forEach((c, k) => expect(Math.hypot(c[0] - t.corners[k][0], c[1] - t.corners[k][1]), `marker ${m.id} corner ${k}`).toBeLessThan(0.3));
  }
  expect(await page.textContent('#status')).toMatch(/^4 markers \(/);
  if (process.env.FLOWMARK_SCREENSHOT) await page.screenshot({ path: process.env.FLOWMARK_SCREENSHOT, fullPage: true });
}, 180_000);
