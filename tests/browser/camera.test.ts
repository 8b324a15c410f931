// fromCamera in headless Chromium: the fake camera plays a .y4m made by ffmpeg (a 16×16 white square moving
// 4 px right per frame on black, 30 frames looping) and the pipeline's output must follow the file's content.
import { expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callInPage, fakeCameraArgs, pageFiles } from '../support/chromium.js';
import { chromiumSession } from '../support/chromiumSession.js';
import type { CameraSummary } from './camera.js';

const session = chromiumSession(async () => {
  const y4m = join(mkdtempSync(join(tmpdir(), 'flowmark-camera-')), 'square.y4m');
  execFileSync('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi',
    '-i', "color=c=black:s=160x120:r=30:d=1[bg];color=c=white:s=16x16:r=30:d=1[sq];[bg][sq]overlay=x='8+120*t':y=50:eval=frame",
    '-pix_fmt', 'yuv420p', y4m,
  ]);
  return { files: await pageFiles(new URL('./camera.ts', import.meta.url)), args: fakeCameraArgs(y4m) };
});

it.each([
  ['shares the frames with WebGPU', false, 'external'],
  ['cannot share frames with WebGPU (frames drawn on a canvas)', true, 'canvas'],
])('fromCamera follows the fake camera file on the GPU and stops the camera on unsubscribe: a browser that %s', async (_, failCopy, upload) => {
  const { result: s, errors } = await callInPage<CameraSummary>(session.browser, session.url, 'runCameraTest', failCopy);
  expect(errors).toEqual([]);
  expect(s.stats.upload).toBe(upload);
  expect(s.frames).toHaveLength(20);
  expect(s.frames.map((f) => f.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  // Timestamps only increase.
  s.frames.slice(1).forEach((f, i) => expect(f.timeUs).toBeGreaterThan(s.frames[i].timeUs));
  const xs = new Set<number>();
  for (const f of s.frames) {
    expect([f.width, f.height]).toEqual([160, 120]);
    expect(f.count).toBe(1);
    // The square's centre is at x = 8 + 4n + 7.5, y = 57.5 for some frame n of the file.
    expect(Math.abs(f.cy[0] - 57.5)).toBeLessThanOrEqual(1);
    const n = (f.cx[0] - 15.5) / 4;
    expect(Math.abs(n - Math.round(n))).toBeLessThanOrEqual(0.3);
    xs.add(Math.round(n));
  }
  expect(xs.size).toBeGreaterThanOrEqual(3); // it moves
  expect(s.stats.delivered).toBeGreaterThanOrEqual(20);
  expect(s.liveTracksAfter).toBe(0);
  expect(s.inUseAfter).toBe(0);
});
