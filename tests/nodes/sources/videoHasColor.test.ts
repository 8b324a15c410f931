// videoHasColor: ffmpeg's test pattern in colour, the same pattern made gray (H.264 keeps flat chroma planes), nearly
// gray (saturation 0.15), gray for its first 15 frames and colour after, and each option's effect; bad options and
// undecodable files as typed errors.
import { describe, expect, it, beforeAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { videoHasColor } from '../../../node.js';
import { DecodeError, InvalidOptionError } from '../../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'flowmark-has-color-'));
const clip = (name: string) => join(dir, `${name}.mp4`);

function encode(name: string, filters: string) {
  const src = 'testsrc=size=320x240:rate=30:duration=1';
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', src, '-vf', `${filters},format=yuv420p`, '-c:v', 'libx264', '-crf', '23', clip(name)]);
}

beforeAll(() => {
  encode('colour', 'null');
  encode('gray', 'format=gray');
  encode('faint', 'hue=s=0.15');
  // The colour appears at frame 15: the first ten frames are gray.
  encode('late', "hue=s='if(lt(n,15),0,1)'");
  writeFileSync(clip('garbage'), 'not a video');
});

describe('videoHasColor', () => {
  it('tells colour footage from gray footage stored as YUV', async () => {
    expect(await videoHasColor(clip('colour'))).toBe(true);
    expect(await videoHasColor(clip('gray'))).toBe(false);
    expect(await videoHasColor(clip('faint'))).toBe(true);
  });

  it('looks at the frames, spread and share asked for', async () => {
    expect(await videoHasColor(clip('late'))).toBe(false);
    expect(await videoHasColor(clip('late'), { frames: 20 })).toBe(true);
    // The faint clip's channels differ by less than 100 levels everywhere, by more than 12 in many places.
    expect(await videoHasColor(clip('faint'), { spread: 100 })).toBe(false);
    expect(await videoHasColor(clip('colour'), { share: 1 })).toBe(false);
    expect(await videoHasColor(clip('gray'), { spread: 0, share: 0 })).toBe(false);
  });

  it('refuses bad options at once and reports files it cannot decode', async () => {
    for (const bad of [{ frames: 0 }, { frames: 1.5 }, { spread: -1 }, { spread: 300 }, { share: 2 }, { share: Number.NaN }]) {
      expect(() => videoHasColor(clip('gray'), bad), JSON.stringify(bad)).toThrow(InvalidOptionError);
    }
    await expect(videoHasColor(clip('garbage'))).rejects.toThrow(DecodeError);
    await expect(videoHasColor(join(dir, 'missing.mp4'))).rejects.toThrow(/missing\.mp4/);
    await expect(videoHasColor(clip('gray'), { ffmpeg: join(dir, 'no-ffmpeg') })).rejects.toThrow(/ffmpeg was not found/);
  });
});
