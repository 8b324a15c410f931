// fromVideo in headless Chromium: MP4 clips in H.264, VP9 and AV1 decode with WebCodecs to the right frames on
// the GPU (every frame, right order, right timestamps); bad files are DecodeErrors. videoBackground (WebCodecs and a
// canvas) gives the image videoFileBackground (ffmpeg) gives in Node, within decoders' rounding.
import { expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callInPage, pageFiles } from '../support/chromium.js';
import { chromiumSession, type ServedFiles } from '../support/chromiumSession.js';
import { clipFrames, codecs, makeClips, padMp4, squareCentre, turnedBoxAt, turnedName, turns } from '../support/clips.js';
import type { BackgroundOutcome, ClipSummary } from './video.js';
import { videoFileBackground } from '../../node.js';
import type { VideoBackgroundOptions } from '../../index.js';

const bad = ['truncated.mp4', 'empty.mp4', 'audio.mp4', 'missing.mp4', 'mpeg4.mp4'];
const ranged = ['long.mp4', 'big.mp4', 'cut.mp4', 'fragmented.mp4', 'empty.mp4', 'truncated.mp4'];

let dir = '';
const session = chromiumSession(async () => {
  dir = makeClips();
  // long.mp4 fragmented (moof boxes, as live recorders write), its frames' offsets counted from each fragment.
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', join(dir, 'long.mp4'), '-c', 'copy', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', join(dir, 'fragmented.mp4')]);
  // long.mp4 and 4.5 GiB of padding (sparse): a read of the whole file fails in a page.
  padMp4(join(dir, 'long.mp4'), join(dir, 'big.mp4'), 4.5 * 2 ** 30);
  const files: ServedFiles = await pageFiles(new URL('./video.ts', import.meta.url));
  // The same files again from a server that answers ranges, as static servers and CDNs do; big.mp4 streamed from disk.
  for (const name of ranged) files[`/ranged/${name}`] = { path: join(dir, name), type: 'video/mp4', ranges: true };
  for (const name of [...Object.keys(codecs), 'long.mp4', 'cut.mp4', 'fragmented.mp4', 'truncated.mp4', 'empty.mp4', 'audio.mp4', 'mpeg4.mp4', ...turns.map(turnedName)]) files[`/${name}`] = { body: readFileSync(join(dir, name)), type: 'video/mp4' };
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

it('reads a picked File by its index and a window at a time: one of 4.5 GiB, one cut short (its frames, then a DecodeError), a fragmented one', async () => {
  // As a user picks them: files on disk behind an <input type=file>, read by Chromium where they lie.
  const picked = ['long.mp4', 'big.mp4', 'cut.mp4', 'fragmented.mp4'];
  const page = await session.browser.newPage();
  await page.goto(session.url);
  await page.waitForFunction(() => 'runPickedFiles' in globalThis);
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    document.body.append(input);
  });
  await page.setInputFiles('input[type=file]', picked.map((f) => join(dir, f)));
  const clips = (await page.evaluate(() => (globalThis as unknown as { runPickedFiles(): Promise<ClipSummary[]> }).runPickedFiles())) as ClipSummary[];
  await page.close();
  const { result: served } = await callInPage<{ clips: ClipSummary[] }>(session.browser, session.url, 'runVideoTest', ['long.mp4', 'cut.mp4', 'fragmented.mp4']);
  const [long, big, cut, fragmented] = clips;
  expect(long.error, 'long.mp4').toBeUndefined();
  expect(long.frames).toHaveLength(30);
  expect(long.frames).toEqual(served.clips[0].frames);
  expect(big.error, 'big.mp4').toBeUndefined();
  expect(big.frames).toEqual(long.frames);
  // The remux dropped the edit list, so its times differ from long.mp4's; its pictures do not.
  expect(fragmented.error, 'fragmented.mp4').toBeUndefined();
  expect(fragmented.frames).toEqual(served.clips[2].frames);
  expect(fragmented.frames!.map(({ timeUs, ...f }) => f)).toEqual(long.frames!.map(({ timeUs, ...f }) => f));
  // Cut at 85 %: the frames decoded before the cut, each as the whole file's at its time, then the error; and so from
  // a URL.
  for (const c of [cut, served.clips[1]]) {
    expect(c.error?.name, c.name).toBe('DecodeError');
    const decoded = Number(/decoded (\d+) of 30 frames: the file ends inside frame \d+/.exec(c.error!.message)?.[1]);
    expect(decoded, c.error!.message).toBeGreaterThan(0);
    expect(c.frames, c.name).toHaveLength(decoded);
    for (const f of c.frames!) expect(f, `${c.name} at ${f.timeUs}`).toEqual(long.frames!.find((g) => g.timeUs === f.timeUs));
  }
});

it('reads a URL by ranges where the server answers them, as a picked File: 4.5 GiB, cut short, fragmented; bad ones as before', async () => {
  const { result, errors } = await callInPage<{ clips: ClipSummary[]; inUseAfter: number }>(session.browser, session.url, 'runVideoTest', ['long.mp4', 'cut.mp4', 'fragmented.mp4', 'empty.mp4', 'truncated.mp4', ...ranged.map((n) => `ranged/${n}`)]);
  expect(errors).toEqual([]);
  const whole = Object.fromEntries(result.clips.slice(0, 5).map((c) => [c.name, c]));
  const byRange = Object.fromEntries(result.clips.slice(5).map((c) => [c.name.replace('ranged/', ''), c]));
  expect(whole['long.mp4'].frames).toHaveLength(30);
  for (const name of ['long.mp4', 'cut.mp4', 'fragmented.mp4']) {
    expect(byRange[name].frames, name).toEqual(whole[name].frames);
    expect(byRange[name].error?.message.replace('ranged/', ''), name).toEqual(whole[name].error?.message);
  }
  expect(byRange['big.mp4'].error, 'big.mp4').toBeUndefined();
  expect(byRange['big.mp4'].frames).toEqual(whole['long.mp4'].frames);
  expect(byRange['empty.mp4'].error?.message).toMatch(/empty file/);
  expect(byRange['truncated.mp4'].error?.name).toBe('DecodeError');
  expect(result.inUseAfter).toBe(0);
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

it('videoBackground gives the image videoFileBackground gives in Node: the frames it takes, turned, gray or RGBA; bad options and files typed', async () => {
  const cases: { clip: string; options: VideoBackgroundOptions; square: boolean }[] = [
    // long.mp4: 30 frames, the square 1 px further right each. Frames 0, 10, 20: no square left; 0, 1, 2: kept.
    { clip: 'long.mp4', options: { seconds: 3, samples: 3 }, square: false },
    { clip: 'long.mp4', options: { seconds: 0.5, samples: 3 }, square: true },
    { clip: 'h264.mp4', options: { samples: 4, format: 'rgba' }, square: false },
    // A still box, turned: the scene itself.
    { clip: turnedName(turns[1]), options: { samples: 3 }, square: true },
    { clip: turnedName(turns[6]), options: { samples: 3, format: 'rgba' }, square: true },
  ];
  const bad: VideoBackgroundOptions[] = [{ seconds: 0 }, { samples: 0 }, { samples: 256 }, { format: 'rgb' as 'rgba' }];
  const { result, errors } = await callInPage<BackgroundOutcome[]>(session.browser, session.url, 'backgrounds', [
    ...cases.map((c) => ({ url: `/${c.clip}`, options: c.options })),
    ...bad.map((options) => ({ url: '/h264.mp4', options })),
    { url: '/truncated.mp4', options: {} },
    { url: '/missing.mp4', options: {} },
  ]);
  expect(errors).toEqual([]);
  for (const [i, c] of cases.entries()) {
    const got = result[i] as Exclude<BackgroundOutcome, { error: unknown }>;
    const want = await videoFileBackground(join(dir, c.clip), c.options);
    const label = `${c.clip} ${JSON.stringify(c.options)}`;
    expect([got.width, got.height, got.format], label).toEqual([want.width, want.height, want.format]);
    // Chromium and ffmpeg turn YUV into RGB (and RGB into gray) a little differently: within a few levels, and the
    // square's edges (where the two decoders round the chroma differently) within 48.
    const diffs = got.data.map((v, k) => Math.abs(v - want.data[k]));
    expect(diffs.reduce((a, b) => a + b, 0) / diffs.length, label).toBeLessThan(3);
    expect(Math.max(...diffs), label).toBeLessThan(48);
    expect(Math.max(...got.data.filter((_, k) => got.format === 'gray' || k % 4 !== 3)) > 200, label).toBe(c.square);
  }
  for (const [i, o] of result.slice(cases.length, cases.length + bad.length).entries()) expect((o as { error: { name: string } }).error?.name, JSON.stringify(bad[i])).toBe('InvalidOptionError');
  for (const o of result.slice(cases.length + bad.length)) expect((o as { error: { name: string } }).error?.name).toBe('DecodeError');
});
