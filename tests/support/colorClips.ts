// Clips for the color test (videoFileHasColor in Node, videoHasColor in Chromium), 320×240, 30 frames, H.264:
// ffmpeg's test pattern in color, the same pattern made gray (H.264 keeps flat chroma planes), nearly gray
// (saturation 0.15), and gray for its first 15 frames and color after; plus a file that is not a video.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const colorClips = {
  color: 'null',
  gray: 'format=gray',
  faint: 'hue=s=0.15',
  // The color appears at frame 15: the first ten frames are gray.
  late: "hue=s='if(lt(n,15),0,1)'",
};

/** Writes DIR/<name>.mp4 for each clip, and DIR/garbage.mp4 (text). */
export function makeColorClips(dir: string): void {
  const src = 'testsrc=size=320x240:rate=30:duration=1';
  for (const [name, filters] of Object.entries(colorClips)) {
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', src, '-vf', `${filters},format=yuv420p`, '-c:v', 'libx264', '-crf', '23', join(dir, `${name}.mp4`)]);
  }
  writeFileSync(join(dir, 'garbage.mp4'), 'not a video');
}

/**
 * What the test says of each clip, options and all: the defaults, then each option's effect (the late clip's
 * color comes after the first ten frames; the faint clip's channels differ by less than 100 levels everywhere, by
 * more than 12 in many places).
 */
export const colorCases: { clip: keyof typeof colorClips; options: { frames?: number; spread?: number; share?: number }; want: boolean }[] = [
  { clip: 'color', options: {}, want: true },
  { clip: 'gray', options: {}, want: false },
  { clip: 'faint', options: {}, want: true },
  { clip: 'late', options: {}, want: false },
  { clip: 'late', options: { frames: 20 }, want: true },
  { clip: 'faint', options: { spread: 100 }, want: false },
  { clip: 'color', options: { share: 1 }, want: false },
  { clip: 'gray', options: { spread: 0, share: 0 }, want: false },
];

/** Options every color test refuses at once. */
export const badColorOptions = [{ frames: 0 }, { frames: 1.5 }, { spread: -1 }, { spread: 300 }, { share: 2 }, { share: Number.NaN }];
