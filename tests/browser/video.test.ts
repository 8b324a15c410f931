// fromVideo in headless Chromium: MP4 clips in H.264, VP9 and AV1 decode with WebCodecs to the right frames on
// the GPU (every frame, right order, right timestamps); bad files are DecodeErrors.
import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callInPage, pageFiles } from '../support/chromium.js';
import { chromiumSession } from '../support/chromiumSession.js';
import { clipFrames, codecs, makeClips, squareCentre, turnedBoxAt, turnedName, turns } from '../support/clips.js';
import type { ClipSummary } from './video.js';

const bad = ['truncated.mp4', 'empty.mp4', 'audio.mp4', 'missing.mp4', 'mpeg4.mp4'];

const session = chromiumSession(async () => {
  const dir = makeClips();
  const files = await pageFiles(new URL('./video.ts', import.meta.url));
  for (const name of [...Object.keys(codecs), 'truncated.mp4', 'empty.mp4', 'audio.mp4', 'mpeg4.mp4', ...turns.map(turnedName)]) files[`/${name}`] = { body: readFileSync(join(dir, name)), type: 'video/mp4' };
  return { files };
});

it('decodes H.264, VP9 and AV1 clips to the right frames on the GPU, and reports bad files', async () => {
  const names = [...Object.keys(codecs), ...bad];
  const {
    result: { clips, inUseAfter },
    errors,
  } = await callInPage<{ clips: ClipSummary[]; inUseAfter: number }>(session.browser, session.url, 'runVideoTest', names);
  expect(errors).toEqual([]);
  for (const c of clips.filter((x) => x.name in codecs)) {
    expect(c.error, c.name).toBeUndefined();
    expect(c.info?.frames).toBe(clipFrames);
    expect(c.frames, c.name).toHaveLength(clipFrames);
    c.frames!.forEach((f, n) => {
      expect(f.timeUs, `${c.name} frame ${n}`).toBe(n * 100_000);
      expect([f.width, f.height]).toEqual([64, 48]);
      expect(f.count, `${c.name} frame ${n}`).toBe(1);
      // Within a pixel of the square's centre: decoder rounding blurs its edges.
      expect(Math.abs(f.cx - squareCentre(n).x), `${c.name} frame ${n} cx`).toBeLessThanOrEqual(1);
      expect(Math.abs(f.cy - squareCentre(n).y), `${c.name} frame ${n} cy`).toBeLessThanOrEqual(1);
    });
  }
  const byName = Object.fromEntries(clips.map((c) => [c.name, c]));
  expect(byName['truncated.mp4'].error?.message).toMatch(/truncated|not an MP4|decod/);
  expect(byName['empty.mp4'].error?.message).toMatch(/empty file/);
  expect(byName['audio.mp4'].error?.message).toMatch(/no video track/);
  expect(byName['missing.mp4'].error?.message).toMatch(/download failed \(HTTP 404\)/);
  expect(byName['mpeg4.mp4'].error?.message).toMatch(/cannot decode mp4v/);
  for (const b of bad) expect(byName[b].error?.name, b).toBe('DecodeError');
  expect(inUseAfter).toBe(0);
});

it("paces frames at their timestamps with pacing: 'realtime'", async () => {
  const { result: seconds } = await callInPage<number>(session.browser, session.url, 'realtimeSeconds', 'h264.mp4');
  // 12 frames at 10 frames/s: the last is due 1.1 s after the first.
  expect(seconds).toBeGreaterThanOrEqual(1.05);
  expect(seconds).toBeLessThan(10);
});

it('delivers frames as displayed, turned as the track header says (all eight turns), as fromVideoFile does in Node', async () => {
  const { result, errors } = await callInPage<{ clips: ClipSummary[] }>(session.browser, session.url, 'runVideoTest', turns.map(turnedName));
  expect(errors).toEqual([]);
  result.clips.forEach((c, i) => {
    const want = turnedBoxAt(turns[i]);
    expect(c.error, c.name).toBeUndefined();
    expect(c.frames, c.name).toHaveLength(3);
    for (const f of c.frames!) {
      expect([f.width, f.height], c.name).toEqual([want.width, want.height]);
      expect(f.box, c.name).toEqual([want.x0, want.y0, want.x1, want.y1]);
    }
  });
});
