// Test clips made by ffmpeg with known content: a white 8×8 square on black, 64×48, 12 frames at 10 frames/s,
// moving 4 px right and 2 px down per frame (its centre at 7.5 + 4n, 11.5 + 2n), in H.264 (with B-frames, so
// the MP4 carries an edit list), VP9 and AV1; plus a truncated copy (its index lost), one cut after its index
// (cut.mp4: some frames decode), an empty file, an audio-only MP4, an MPEG-4 Part 2 clip, and a box clip whose
// track header turns it in each of the eight ways (turned_*.mp4). Node also reads the same square in the other
// containers recorders write (`containers`: Matroska, WebM, AVI, MPEG-TS, a raw H.264 stream), one with pixels
// twice as wide as tall, and bad ones (random bytes, an audio-only Matroska file).
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const clipFrames = 12;
export const squareCentre = (n: number) => ({ x: 4 + 4 * n + 3.5, y: 8 + 2 * n + 3.5 });

export const codecs: Record<string, string[]> = {
  'h264.mp4': ['-c:v', 'libx264', '-bf', '2', '-g', '6'],
  'vp9.mp4': ['-c:v', 'libvpx-vp9', '-b:v', '0', '-crf', '20', '-deadline', 'realtime'],
  'av1.mp4': ['-c:v', 'libaom-av1', '-crf', '20', '-cpu-used', '8', '-row-mt', '1'],
};

/** The square in containers other than MP4 (read by ffprobe in Node): file name → ffmpeg's output options. */
export const containers: Record<string, string[]> = {
  'h264.mkv': codecs['h264.mp4'],
  'vp9.webm': codecs['vp9.mp4'],
  'msmpeg4.avi': ['-c:v', 'msmpeg4', '-q:v', '2'],
  'h264.ts': codecs['h264.mp4'],
  'raw.h264': [...codecs['h264.mp4'], '-f', 'h264'],
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
  makeTurnedClips(dir);
  for (const [name, options] of Object.entries(containers)) execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', square, ...options, join(dir, name)]);
  // Pixels twice as wide as tall (anamorphic): shown 128 px wide.
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', square, '-vf', 'setsar=2/1', ...codecs['h264.mp4'], join(dir, 'wide.mkv')]);
  writeFileSync(join(dir, 'noise.avi'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24)));
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=d=0.5', '-c:a', 'libvorbis', join(dir, 'audio.mkv')]);
  return dir;
}

/** The eight turns a track header can ask for (a, b, c, d of its matrix), named for the files made of them. */
export const turns = [
  [1, 0, 0, 1],
  [0, 1, -1, 0],
  [-1, 0, 0, -1],
  [0, -1, 1, 0],
  [-1, 0, 0, 1],
  [1, 0, 0, -1],
  [0, 1, 1, 0],
  [0, -1, -1, 0],
] as const;
export const turnedName = (t: readonly number[]) => `turned_${t.join('_')}.mp4`;
/** The turned clips' content: a 20×10 white box at (4, 6) in 64×48 (off centre, so each turn puts it elsewhere). */
export const turnedBox = { width: 64, height: 48, x0: 4, y0: 6, x1: 23, y1: 15 };

/**
 * Where the box is shown under turn t, by the track matrix's definition (ISO/IEC 14496-12 §8.3.2): a stored point
 * (x, y) is shown at (a·x + c·y, b·x + d·y), shifted back into the frame.
 */
export function turnedBoxAt(t: readonly number[]) {
  const [a, b, c, d] = t;
  const { width: w, height: h, x0, y0, x1, y1 } = turnedBox;
  const tx = -(Math.min(0, a * (w - 1)) + Math.min(0, c * (h - 1)));
  const ty = -(Math.min(0, b * (w - 1)) + Math.min(0, d * (h - 1)));
  const xs = [x0, x1].flatMap((x) => [y0, y1].map((y) => a * x + c * y + tx));
  const ys = [x0, x1].flatMap((x) => [y0, y1].map((y) => b * x + d * y + ty));
  return { width: Math.abs(a) * w + Math.abs(c) * h, height: Math.abs(b) * w + Math.abs(d) * h, x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
}

/** Writes the matrix a, b, c, d (16.16 fixed point, no translation) into every track header of an MP4. */
export function withMatrix(mp4: Buffer, t: readonly number[]): Buffer {
  const out = Buffer.from(mp4);
  for (let at = out.indexOf('tkhd'); at >= 0; at = out.indexOf('tkhd', at + 4)) {
    const version = out[at + 4];
    // After the box type: version/flags 4, times and ids (20 or 32 bytes), reserved 8, layer … volume 8.
    const matrix = at + 4 + 4 + (version === 1 ? 32 : 20) + 8 + 8;
    const [a, b, c, d] = t;
    [a * 65536, b * 65536, 0, c * 65536, d * 65536, 0, 0, 0, 1 << 30].forEach((v, i) => out.writeInt32BE(v, matrix + 4 * i));
  }
  return out;
}

/** Makes the turned clips (H.264, 3 frames) in `dir`. */
export function makeTurnedClips(dir: string): void {
  const { width, height, x0, y0, x1, y1 } = turnedBox;
  const box = `color=c=black:s=${width}x${height}:r=10:d=0.3[bg];color=c=white:s=${x1 - x0 + 1}x${y1 - y0 + 1}:r=10:d=0.3[sq];[bg][sq]overlay=x=${x0}:y=${y0},format=yuv420p`;
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', box, '-c:v', 'libx264', '-crf', '10', join(dir, 'box.mp4')]);
  const plain = readFileSync(join(dir, 'box.mp4'));
  for (const t of turns) writeFileSync(join(dir, turnedName(t)), withMatrix(plain, t));
}

/**
 * `from` followed by a padding box (`free`, 64-bit size) of `padBytes` with nothing written in it: a sparse file, no
 * disk used, as large as a day of recording, that readers skip. Returns its size.
 */
export function padMp4(from: string, to: string, padBytes: number): number {
  const clip = readFileSync(from);
  const head = Buffer.alloc(16);
  head.writeUInt32BE(1, 0);
  head.write('free', 4, 'latin1');
  head.writeBigUInt64BE(BigInt(padBytes), 8);
  const fd = openSync(to, 'w');
  try {
    writeSync(fd, clip);
    writeSync(fd, head);
    writeSync(fd, Buffer.from([0]), 0, 1, clip.length + padBytes - 1);
  } finally {
    closeSync(fd);
  }
  return clip.length + padBytes;
}
