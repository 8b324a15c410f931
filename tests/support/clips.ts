// Test clips made by ffmpeg with known content: a white 8×8 square on black, 64×48, 12 frames at 10 frames/s,
// moving 4 px right and 2 px down per frame (its centre at 7.5 + 4n, 11.5 + 2n), in H.264 (with B-frames, so
// the MP4 carries an edit list), VP9 and AV1; plus a truncated copy (its index lost), one cut after its index
// (cut.mp4: some frames decode), an empty file, an audio-only MP4 and an MPEG-4 Part 2 clip.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const clipFrames = 12;
export const squareCentre = (n: number) => ({ x: 4 + 4 * n + 3.5, y: 8 + 2 * n + 3.5 });

export const codecs: Record<string, string[]> = {
  'h264.mp4': ['-c:v', 'libx264', '-bf', '2', '-g', '6'],
  'vp9.mp4': ['-c:v', 'libvpx-vp9', '-b:v', '0', '-crf', '20', '-deadline', 'realtime'],
  'av1.mp4': ['-c:v', 'libaom-av1', '-crf', '20', '-cpu-used', '8', '-row-mt', '1'],
};

/** Makes the clips in a new temporary folder and returns it. */
export function makeClips(): string {
  const dir = mkdtempSync(join(tmpdir(), 'flowmark-clips-'));
  // overlay evaluates its position per frame (drawbox would not, in Debian's ffmpeg 5.1).
  const d = clipFrames / 10;
  const square = `color=c=black:s=64x48:r=10:d=${d}[bg];color=c=white:s=8x8:r=10:d=${d}[sq];[bg][sq]overlay=x='4+40*t':y='8+20*t':eval=frame,format=yuv420p`;
  for (const [name, codec] of Object.entries(codecs)) {
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', square, ...codec, join(dir, name)]);
  }
  const h264 = readFileSync(join(dir, 'h264.mp4'));
  writeFileSync(join(dir, 'truncated.mp4'), h264.subarray(0, Math.floor(h264.length * 0.6)));
  writeFileSync(join(dir, 'empty.mp4'), '');
  // Index first (faststart), 30 frames, cut at 85%: ffmpeg decodes the first dozen frames, then fails.
  const long = `color=c=black:s=64x48:r=10:d=3[bg];color=c=white:s=8x8:r=10:d=3[sq];[bg][sq]overlay=x='4+10*t':y='8+5*t':eval=frame,format=yuv420p`;
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', long, ...codecs['h264.mp4'], '-movflags', '+faststart', join(dir, 'long.mp4')]);
  const whole = readFileSync(join(dir, 'long.mp4'));
  writeFileSync(join(dir, 'cut.mp4'), whole.subarray(0, Math.floor(whole.length * 0.85)));
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=d=0.5', '-c:a', 'aac', join(dir, 'audio.mp4')]);
  // MPEG-4 Part 2 ('mp4v'): ffmpeg decodes it, WebCodecs in Chromium does not.
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', square, '-c:v', 'mpeg4', join(dir, 'mpeg4.mp4')]);
  return dir;
}
