// cameraPrime in headless Chromium: the fake camera plays a textured scene (grays 30–196) with a white 16×16
// square walking over it, 4 px a frame, looping each second. One sample is a frame, square and all; the median of
// samples over 1.5 s is the scene, the square gone; a model started from it sees the square in its first frame.
import { expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callInPage, fakeCameraArgs, pageFiles, y4mFrames } from '../support/chromium.js';
import { chromiumSession } from '../support/chromiumSession.js';
import type { CameraPrimeSummary } from './cameraPrime.js';

const [width, height] = [160, 120];
const scene = (x: number, y: number) => 30 + ((x * 37 + y * 91) % 61) * 2 + Math.floor((x + y) / 6);

const session = chromiumSession(async () => {
  const frames = Array.from({ length: 30 }, (_, n) => {
    const gray = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) gray[y * width + x] = x >= 8 + 4 * n && x < 24 + 4 * n && y >= 50 && y < 66 ? 255 : scene(x, y);
    return gray;
  });
  const file = join(mkdtempSync(join(tmpdir(), 'flowmark-camera-prime-')), 'scene.y4m');
  writeFileSync(file, y4mFrames(frames, width, height));
  return { files: await pageFiles(new URL('./cameraPrime.ts', import.meta.url)), args: fakeCameraArgs(file) };
});

it('cameraPrime takes the scene behind what moves from a camera, stops the camera, and a model primed with it sees the square at once', async () => {
  const { result: s, errors } = await callInPage<CameraPrimeSummary>(session.browser, session.url, 'runCameraPrime');
  expect(errors).toEqual([]);
  for (const img of [s.single, s.median]) expect([img.width, img.height, img.format, img.data.length]).toEqual([width, height, 'gray', width * height]);
  const single = Array.from(s.single.data);
  const median = Array.from(s.median.data);
  // The scene's grays reach 196 (about 210 once Chromium widens video range); the square is white.
  const square = single.map((v) => v >= 240);
  expect(square.filter(Boolean).length).toBeGreaterThan(200);
  expect(square.filter(Boolean).length).toBeLessThan(320);
  expect(Math.max(...median)).toBeLessThan(235);
  // Away from the square (2 px of its edges left out), the median is the frame's scene: the camera repeats its frames.
  const near = (i: number) => {
    const [x, y] = [i % width, Math.floor(i / width)];
    for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) if (square[(y + dy) * width + x + dx]) return true;
    return false;
  };
  const diffs = median.map((v, i) => (near(i) ? 0 : Math.abs(v - single[i])));
  expect(diffs.reduce((a, b) => a + b, 0) / diffs.length).toBeLessThan(1.5);
  expect(Math.max(...diffs)).toBeLessThanOrEqual(6);
  expect(s.rgba).toEqual({ width, height, format: 'rgba', length: width * height * 4 });
  expect(s.bad).toEqual(['InvalidOptionError', 'InvalidOptionError', 'InvalidOptionError', 'InvalidOptionError', 'InvalidOptionError']);
  expect(s.liveTracksAfter).toBe(0);
  // Started from the median (the rate from history: 1/500 from the start for a primed model), each of the first frames'
  // foreground is the square (256 px; its edges blur a little in the camera's conversion); started from the first
  // frame, as MOG2 does, nothing is foreground there (all shadow, as OpenCV's).
  for (const areas of s.primed) {
    expect(areas.filter((a) => a >= 150), JSON.stringify(s.primed)).toHaveLength(1);
    expect(areas.reduce((a, b) => a + b, 0), JSON.stringify(s.primed)).toBeLessThan(400);
  }
  expect(s.unprimed[0]).toEqual([]);
});
