// videoFileHasColor (Node, ffmpeg) over the color test's clips (tests/support/colorClips.ts): color footage from
// gray footage stored as YUV, each option's effect; bad options and undecodable files as typed errors. The browser's
// videoHasColor answers the same on the same clips (tests/browser/videoHasColor.test.ts).
import { describe, expect, it, beforeAll } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { videoFileHasColor } from '../../../node.js';
import { videoHasColor } from '../../../index.js';
import { DecodeError, InvalidOptionError } from '../../../src/core/errors.js';
import { badColorOptions, colorCases, makeColorClips } from '../../support/colorClips.js';

const dir = mkdtempSync(join(tmpdir(), 'flowmark-has-color-'));
const clip = (name: string) => join(dir, `${name}.mp4`);

beforeAll(() => makeColorClips(dir));

describe('videoFileHasColor', () => {
  it('tells color footage from gray footage stored as YUV, and looks at the frames, spread and share asked for', async () => {
    for (const { clip: name, options, want } of colorCases) expect(await videoFileHasColor(clip(name), options), `${name} ${JSON.stringify(options)}`).toBe(want);
  });

  it('refuses bad options at once and reports files it cannot decode', async () => {
    for (const bad of badColorOptions) expect(() => videoFileHasColor(clip('gray'), bad), JSON.stringify(bad)).toThrow(InvalidOptionError);
    await expect(videoFileHasColor(clip('garbage'))).rejects.toThrow(DecodeError);
    await expect(videoFileHasColor(join(dir, 'missing.mp4'))).rejects.toThrow(/missing\.mp4/);
    await expect(videoFileHasColor(clip('gray'), { ffmpeg: join(dir, 'no-ffmpeg') })).rejects.toThrow(/ffmpeg was not found/);
  });

  it("the browser's videoHasColor, called in Node, says to use this one", () => {
    expect(() => videoHasColor(clip('color'))).toThrow(InvalidOptionError);
    expect(() => videoHasColor(clip('color'))).toThrow(/videoFileHasColor from 'flowmark\/node'/);
  });
});
