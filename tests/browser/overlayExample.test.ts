// The surveillance overlay example (examples/browser/overlay.html) in headless Chromium: the fake camera plays a
// .y4m of a still, textured street, then two boxes driving across it, one each way. The page's confirmed tracks are
// the two boxes (their size, their lanes); the canvas shows each track's box in its color, the counting line, and
// the camera picture everywhere else; only results are read back.
import { describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeCameraArgs, y4mFrames } from '../support/chromium.js';
import { chromiumSession } from '../support/chromiumSession.js';
import { canvasPixels, median, openExample, pictureOutside, rgb, settle } from '../support/arPage.js';
import { rng } from '../../reference.js';
// @ts-expect-error: a plain .mjs script without types
import { exampleFiles } from '../../scripts/serve-example.mjs';

const [width, height] = [320, 240];
/** The boxes: size, lane (top row), first column, pixels a frame, gray. */
const cars = [
  { w: 36, h: 20, y: 50, x: -36, dx: 4, gray: 30 },
  { w: 28, h: 26, y: 150, x: width, dx: -4, gray: 225 },
];
const frames = 180;
/**
 * Frames before anything moves: the background model learns the street. Long enough that its learning rate (one
 * over the frames seen, early on) no longer takes a car that covers a pixel for 9 frames into the background.
 */
const still = 90;

const street = (() => {
  const r = rng(31);
  const g = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) g[y * width + x] = Math.round(120 + 35 * Math.sin(x / 17) * Math.cos(y / 23) + 15 * Math.sin((x + 2 * y) / 7) + (r() - 0.5) * 4);
  return g;
})();

function frame(f: number): Uint8Array {
  const g = street.slice();
  const r = rng(1000 + f);
  for (const c of cars) {
    const x0 = c.x + c.dx * Math.max(0, f - still);
    for (let y = c.y; y < c.y + c.h; y++) {
      for (let x = Math.max(0, x0); x < Math.min(width, x0 + c.w); x++) g[y * width + x] = c.gray + Math.round((r() - 0.5) * 10);
    }
  }
  return g;
}

interface Seen {
  frames: number;
  width: number;
  height: number;
  drawn: { id: number; box: number[]; color: string; blob: number[] | null }[];
  counts: { forward: number; backward: number };
  ids: number[];
  freeze: boolean;
  renderMs: number[];
  error: string;
}

const session = chromiumSession(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'flowmark-overlay-camera-')), 'street.y4m');
  writeFileSync(file, y4mFrames(Array.from({ length: frames }, (_, f) => frame(f)), width, height, 30));
  return { files: await exampleFiles(), args: fakeCameraArgs(file) };
});

describe('the surveillance overlay example', () => {
  it('tracks both boxes and draws their boxes in their colors over the camera picture', async () => {
    const { page, seen: first, mapped, errors } = await openExample<Seen>(() => session.browser.newPage(), onTestFinished, new URL(`overlay.html?width=${width}&height=${height}&minArea=60`, `${session.url}/`).href, 'flowmarkOverlay', 6);
    expect(errors).toEqual([]);
    expect(first.error).toBe('');
    // Until both boxes have crossed the line and are tracked, whole, in the same frame; then the page stops drawing
    // (that frame stays shown).
    await page.waitForFunction(() => {
      const s = (globalThis as unknown as { flowmarkOverlay: Seen }).flowmarkOverlay;
      return s.error || (s.counts.forward > 0 && s.counts.backward > 0 && s.drawn.length === 2 && s.drawn.every((t) => t.blob && t.blob[0] > 2 && t.blob[2] < 317));
    }, undefined, { timeout: 150_000 });
    const seen = await settle<Seen>(page, 'flowmarkOverlay');
    expect(seen.error).toBe('');
    expect([seen.width, seen.height]).toEqual([width, height]);
    // Each track's blob is one car: its size and lane (what the background model and morphology leave, within 2
    // pixels); the track's box (the filter's estimate) is near its blob.
    const matched = seen.drawn.map((t) => {
      const [x0, y0, x1, y1] = t.blob!;
      const c = cars.find((car) => Math.abs(y0 - car.y) <= 2 && Math.abs(y1 - (car.y + car.h - 1)) <= 2);
      expect(c, `track ${t.id} blob ${t.blob}`).toBeDefined();
      expect(Math.abs(x1 - x0 + 1 - c!.w), `track ${t.id} width`).toBeLessThanOrEqual(2);
      t.box.forEach((v, i) => expect(Math.abs(v - t.blob![i]), `track ${t.id} box ${t.box.map((b) => b.toFixed(1))}`).toBeLessThan(4));
      return c;
    });
    expect(new Set(matched).size).toBe(2);
    // The dark box drives left to right, the light one right to left (the fake camera loops the clip): each crossing
    // counted its way.
    expect(seen.counts.forward).toBeGreaterThanOrEqual(1);
    expect(seen.counts.backward).toBeGreaterThanOrEqual(1);
    // Results only: what is mapped is the results' staging, under a tenth of the picture's RGBA a frame.
    expect(Object.keys(mapped)).toEqual(['readResults:staging']);
    expect(Math.max(...mapped['readResults:staging'])).toBeLessThan(0.1 * width * height * 4);

    const { at } = await canvasPixels(page, width, height, process.env.FLOWMARK_SCREENSHOT?.replace(/\.png$/, '-overlay.png'));
    const near = (c: number[], want: number[], tolerance: number) => Math.max(...c.map((v, i) => Math.abs(v - want[i]))) < tolerance;
    // Each box's four edges in its track's color: the line half a pixel outside the box's outer pixels (the box is
    // the filter's estimate, fractional: the row or column either side of that bound).
    for (const t of seen.drawn) {
      const color = rgb(t.color);
      const [x0, y0, x1, y1] = t.box.map(Math.round);
      const hit = (x: number, y: number, along: 'x' | 'y') => [-1, 0, 1, 2].some((d) => (along === 'x' ? near(at(x, y + d), color, 40) : near(at(x + d, y), color, 40)));
      const samples = [0.2, 0.35, 0.5, 0.65, 0.8];
      const edges = [
        ...samples.map((s) => hit(x0 + s * (x1 - x0), y0 - 1, 'x')),
        ...samples.map((s) => hit(x0 + s * (x1 - x0), y1 + 1, 'x')),
        ...samples.map((s) => hit(x0 - 1, y0 + s * (y1 - y0), 'y')),
        ...samples.map((s) => hit(x1 + 1, y0 + s * (y1 - y0), 'y')),
      ];
      expect(edges.filter(Boolean).length, `track ${t.id}'s box edges in ${t.color}`).toBeGreaterThanOrEqual(18);
    }
    // The counting line, yellow, down the middle.
    const yellow = rgb('#ffd400');
    const lineHits = [20, 100, 200].filter((y) => [159, 160, 161].some((x) => near(at(x, y), yellow, 40)));
    expect(lineHits.length).toBe(3);
    // Outside the cars' lanes (boxes and trails) and the line: the camera picture, in place.
    const lanes = cars.map((c) => [0, c.y - 4, width, c.y + c.h + 4]);
    const picture = pictureOutside(at, street, width, height, [...lanes, [156, 0, 164, height]], 4);
    expect(picture.notGray).toEqual([]);
    expect(picture.samples).toBeGreaterThan(2000);
    expect(picture.inPlace).toBeGreaterThan(0.9);
    for (const shifted of picture.shifted) expect(shifted).toBeLessThan(picture.inPlace);
    console.log(`overlay: ${seen.frames} frames, tracks ${seen.ids.join(', ')}, drawn ${seen.drawn.map((t) => `${t.id} ${t.box.map((v) => v.toFixed(0))}`).join('; ')}, line ${seen.counts.forward}/${seen.counts.backward}, result → rendered median ${median(seen.renderMs).toFixed(1)} ms, correlation ${picture.inPlace.toFixed(3)} (SwiftShader)`);
  }, 480_000);
});
