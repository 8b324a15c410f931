// videoHasColor (WebCodecs, a canvas) in headless Chromium answers as videoFileHasColor (ffmpeg) does in Node on
// the same clips, options and all, with typed errors; and the color model it picks works there: on a clip of
// dark-blue objects casting shadows, fromVideo → background({ color: 'shadows' }) → … → track scores as `flowmark
// track` does in Node, and well above the gray model.
import { expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { videoFileHasColor } from '../../node.js';
import type { MotBox } from '../../reference.js';
import { callInPage, pageFiles } from '../support/chromium.js';
import { chromiumSession } from '../support/chromiumSession.js';
import { badColorOptions, colorCases, colorClips, makeColorClips } from '../support/colorClips.js';
import { makeTrackClips, scored, trackScenes } from '../support/trackClips.js';

const dir = mkdtempSync(join(tmpdir(), 'flowmark-browser-color-'));
const trackDir = mkdtempSync(join(tmpdir(), 'flowmark-browser-track-'));

const session = chromiumSession(async () => {
  makeColorClips(dir);
  makeTrackClips(trackDir, ['color']);
  const files = await pageFiles(new URL('./color.ts', import.meta.url));
  for (const name of [...Object.keys(colorClips), 'garbage']) files[`/${name}.mp4`] = { body: readFileSync(join(dir, `${name}.mp4`)), type: 'video/mp4' };
  files['/track-color.mp4'] = { body: readFileSync(join(trackDir, 'color.mp4')), type: 'video/mp4' };
  return { files };
});

type Outcome = { value: boolean } | { error: { name: string; message: string } };

it('answers as videoFileHasColor does on the same clips and options; bad options and files are typed errors', async () => {
  const cases = colorCases.map((c) => ({ url: `/${c.clip}.mp4`, options: c.options }));
  const bad = badColorOptions.map((options) => ({ url: '/gray.mp4', options }));
  const broken = [{ url: '/garbage.mp4', options: {} }, { url: '/missing.mp4', options: {} }];
  const { result, errors } = await callInPage<Outcome[]>(session.browser, session.url, 'colorAnswers', [...cases, ...bad, ...broken]);
  expect(errors).toEqual([]);
  for (const [i, c] of colorCases.entries()) {
    const node = await videoFileHasColor(join(dir, `${c.clip}.mp4`), c.options);
    expect(node, `${c.clip} ${JSON.stringify(c.options)} in Node`).toBe(c.want);
    expect(result[i], `${c.clip} ${JSON.stringify(c.options)} in Chromium`).toEqual({ value: c.want });
  }
  for (const [i, o] of result.slice(cases.length, cases.length + bad.length).entries()) expect((o as { error: { name: string } }).error?.name, JSON.stringify(badColorOptions[i])).toBe('InvalidOptionError');
  const [garbage, missing] = result.slice(cases.length + bad.length) as { error: { name: string; message: string } }[];
  expect(garbage.error.name).toBe('DecodeError');
  expect(missing.error).toMatchObject({ name: 'DecodeError', message: expect.stringMatching(/download failed \(HTTP 404\)/) });
});

it('tracks a color clip with the color model it picks, as flowmark track does in Node, well above the gray model', async () => {
  type Tracked = { color: boolean; rows: MotBox[]; counts: { forward: number; backward: number }; inUseAfter: number };
  const page = (url: string, model: 'auto' | 'gray') => callInPage<Tracked>(session.browser, session.url, 'trackClip', { url, model });
  const [color, gray] = [await page('/track-color.mp4', 'auto'), await page('/track-color.mp4', 'gray')];
  for (const r of [color, gray]) {
    expect(r.errors).toEqual([]);
    expect(r.result.inUseAfter).toBe(0);
  }
  expect(color.result.color).toBe(true);
  const [c, g] = [scored(trackScenes.color, color.result.rows), scored(trackScenes.color, gray.result.rows)];
  console.log(`Chromium, color clip: color model MOTA ${c.mota.toFixed(3)} IDF1 ${c.idf1.toFixed(3)} (${c.idSwitches} ID switches), gray MOTA ${g.mota.toFixed(3)}`);
  // As tests/programs/cliTrack.test.ts asks of `flowmark track` in Node (there MOTA 0.93 in color, 0.53 on gray), but for
  // IDF1: Chromium decodes the clip a little differently, and one ID switch midway (IDF1 0.83) passes.
  expect(c.mota, JSON.stringify(c)).toBeGreaterThan(0.85);
  expect(c.idf1, JSON.stringify(c)).toBeGreaterThan(0.75);
  expect(c.idSwitches, JSON.stringify(c)).toBeLessThanOrEqual(2);
  expect(c.mota - g.mota, JSON.stringify(g)).toBeGreaterThan(0.2);
  // Two decodes and GPU chains of the clip on SwiftShader (CPU emulation): 172 s alone on a slow day, past the
  // default 240 s inside a whole `bash .ci/run` that took 2672 s (935 s the day before), as the three.js pages' tests.
}, 480_000);
