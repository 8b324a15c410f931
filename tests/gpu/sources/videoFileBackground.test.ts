// videoFileBackground: the median of frames spread over a video's first seconds, checked against medianImage (lights matched) of the
// same frames decoded whole by ffmpeg (exactly: picking frames changes no pixel), on clips with a moving square
// (MP4 and Matroska, gray and RGBA) and a turned one; the stretch and the samples as asked; bad options and files.
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DecodeError, InvalidOptionError, cameraPrime, medianImage, type PrimeImage } from '../../../index.js';
import { probeVideoFile, videoFileBackground, type VideoFileBackgroundOptions } from '../../../node.js';
import { decodeVideoFile } from '../../../nodes/sources/fromVideoFile.js';
import { makeClips, turnedBoxAt, turnedName, turns } from '../../support/clips.js';

let dir: string;
beforeAll(() => {
  dir = makeClips();
}, 120_000);

/** Every frame of a clip as fromVideoFile decodes it, on the CPU. */
async function allFrames(file: string, format: 'gray' | 'rgba'): Promise<PrimeImage[]> {
  const out: PrimeImage[] = [];
  for await (const img of decodeVideoFile(file, await probeVideoFile(file), format, 'ffmpeg')) out.push(img);
  return out;
}

const brightest = (img: PrimeImage) => Array.from(img.data).reduce((m, v, i) => (img.format === 'rgba' && i % 4 === 3 ? m : Math.max(m, v)), 0);

describe('videoFileBackground', () => {
  it('is the median of the frames spread over the first seconds: the scene without the square, or with it where it barely moved', async () => {
    // long.mp4: 30 frames at 10 frames/s, the 8×8 square moving 1 px right a frame.
    const file = join(dir, 'long.mp4');
    const frames = await allFrames(file, 'gray');
    expect(frames).toHaveLength(30);
    // Three samples over 3 s: frames 0, 10 and 20, the square in three places that do not overlap.
    const spread = await videoFileBackground(file, { seconds: 3, samples: 3 });
    expect(spread).toEqual(medianImage([frames[0], frames[10], frames[20]], { matchLight: true }));
    expect(brightest(spread)).toBeLessThan(40);
    // Over the first half second (5 frames): frames 0, 1 and 2, the square in nearly one place, kept.
    const start = await videoFileBackground(file, { seconds: 0.5, samples: 3 });
    expect(start).toEqual(medianImage(frames.slice(0, 3), { matchLight: true }));
    expect(brightest(start)).toBeGreaterThan(200);
    // The defaults: 25 samples over 30 s, here the whole clip's 30 frames, one frame apart (the first 25).
    expect(await videoFileBackground(file)).toEqual(medianImage(frames.slice(0, 25), { matchLight: true }));
  });

  it('reads other containers (Matroska, by ffprobe) and gives RGBA as asked', async () => {
    const file = join(dir, 'h264.mkv');
    const frames = await allFrames(file, 'rgba');
    // 12 frames, 4 samples: every third.
    const img = await videoFileBackground(file, { samples: 4, format: 'rgba' });
    expect([img.width, img.height, img.format]).toEqual([64, 48, 'rgba']);
    expect(img).toEqual(medianImage([0, 3, 6, 9].map((i) => frames[i]), { matchLight: true }));
    expect(brightest(img)).toBeLessThan(40);
  });

  it('gives the frames as shown, turned as the track header says', async () => {
    const t = turns[1];
    const img = await videoFileBackground(join(dir, turnedName(t)), { samples: 3 });
    const box = turnedBoxAt(t);
    expect([img.width, img.height]).toEqual([box.width, box.height]);
    // The box stands still: it is the scene, where the turn puts it.
    const at = (x: number, y: number) => img.data[y * img.width + x];
    expect(at((box.x0 + box.x1) >> 1, (box.y0 + box.y1) >> 1)).toBeGreaterThan(200);
    expect(at(box.x1 + 3 < img.width ? box.x1 + 3 : box.x0 - 3, box.y0)).toBeLessThan(40);
  });

  it('takes the VideoInfo it is given instead of probing again: the same image; a bad one refused at once', async () => {
    const file = join(dir, 'long.mp4');
    const info = await probeVideoFile(file);
    expect(await videoFileBackground(file, { info, seconds: 1, samples: 5 })).toEqual(await videoFileBackground(file, { seconds: 1, samples: 5 }));
    expect(() => videoFileBackground(file, { info: { ...info, height: -1 } })).toThrow(InvalidOptionError);
  });

  it('refuses bad options at once with InvalidOptionError, and files it cannot read with DecodeError', async () => {
    const file = join(dir, 'h264.mp4');
    const bad: unknown[] = [{ seconds: 0 }, { seconds: -1 }, { seconds: Number.POSITIVE_INFINITY }, { seconds: '30' }, { samples: 0 }, { samples: 256 }, { samples: 2.5 }, { format: 'rgb' }, null];
    for (const o of bad) expect(() => videoFileBackground(file, o as VideoFileBackgroundOptions), JSON.stringify(o)).toThrow(InvalidOptionError);
    for (const name of ['missing.mp4', 'empty.mp4', 'noise.avi', 'audio.mp4', 'audio.mkv']) {
      expect(await videoFileBackground(join(dir, name)).catch((e) => e), name).toBeInstanceOf(DecodeError);
    }
    const noFfmpeg = await videoFileBackground(file, { ffmpeg: 'no-such-ffmpeg' }).catch((e) => e);
    expect(noFfmpeg).toBeInstanceOf(DecodeError);
    expect(noFfmpeg.message).toMatch(/ffmpeg was not found/);
  });

  it("the browser's cameraPrime says in Node that it needs a browser's camera API", () => {
    expect(() => cameraPrime()).toThrow(InvalidOptionError);
    expect(() => cameraPrime()).toThrow(/no camera API \(navigator\.mediaDevices\.getUserMedia\): it runs in a browser/);
  });
});
