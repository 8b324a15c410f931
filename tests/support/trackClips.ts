// Tracking test clips, H.264 (30 frames/s unless asked otherwise) made by ffmpeg from seeded synthetic scenes with
// known boxes (used by the CLI's tests in Node and the tracking tests in Chromium): `walk`, three objects crossing a gray scene; `dark`,
// the same walk with objects darker than everything they pass (MOG2's shadow test on gray takes much of them for
// shadow); `color`, dark-blue objects casting shadows on a warm scene; `inView`, objects in view from the first frame.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { motScores, surveillanceScene, type MotBox, type SurveillanceScene } from '../../reference.js';

const walk = { frames: 150, objects: 3, size: [40, 56] as [number, number], speed: [2.5, 3.5] as [number, number], pillars: 0, shadows: false, stopAndGo: 0, noise: 3 };

export const trackScenes = {
  walk: surveillanceScene(5, walk),
  dark: surveillanceScene(5, { ...walk, darkShare: 1 }),
  color: surveillanceScene(6, { ...walk, shadows: true, darkShare: 1 }),
  // The walk with its objects in view in the first frame, half of them stopping on the way (some standing then).
  inView: surveillanceScene(5, { ...walk, inView: 1, stopAndGo: 0.5 }),
};

/** Raw frames (ffmpeg's pix_fmt `format`) into DIR/<name>.mp4, H.264 crf 20 at `fps` frames/s. */
function encodeRaw(dir: string, bytes: Buffer, format: 'gray' | 'rgb24', s: SurveillanceScene, name: string, fps: number): void {
  const raw = join(dir, `${name}.${format}`);
  writeFileSync(raw, bytes);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', format, '-s', `${s.width}x${s.height}`, '-r', String(fps), '-i', raw, '-c:v', 'libx264', '-crf', '20', '-pix_fmt', 'yuv420p', join(dir, `${name}.mp4`)]);
}

/**
 * The color clip: the scene warm (R 1.1, G 1, B 0.85 of its gray), the objects dark blue (0.8, 1, 2.2 of theirs)
 * over their truth boxes. Cast shadows stay the scene's color darkened; the objects' luma is a darker copy of
 * the scene's in places, their color is not.
 */
function colorFrames(s: SurveillanceScene): Buffer {
  const { width: W, height: H } = s;
  const rgb = Buffer.alloc(W * H * 3 * s.frames.length);
  s.frames.forEach((frame, t) => {
    const boxes = s.truth.filter((b) => b.frame === t);
    for (let p = 0; p < W * H; p++) {
      const [x, y] = [p % W, Math.floor(p / W)];
      const k = boxes.some((b) => x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1) ? [0.8, 1, 2.2] : [1.1, 1, 0.85];
      for (let c = 0; c < 3; c++) rgb[(t * W * H + p) * 3 + c] = Math.max(0, Math.min(255, Math.round(frame[p] * k[c])));
    }
  });
  return rgb;
}

/** Writes DIR/<name>.mp4 for each of `names`, at 30 frames/s unless `fps` says otherwise. */
export function makeTrackClips(dir: string, names: readonly (keyof typeof trackScenes)[], fps = 30): void {
  for (const name of names) {
    const s = trackScenes[name];
    if (name === 'color') encodeRaw(dir, colorFrames(s), 'rgb24', s, name, fps);
    else encodeScene(dir, s, name, fps);
  }
}

/** A scene's gray frames into DIR/<name>.mp4, H.264 crf 20 at `fps` frames/s. */
export function encodeScene(dir: string, s: SurveillanceScene, name: string, fps: number): void {
  encodeRaw(dir, Buffer.concat(s.frames.map((f) => Buffer.from(f))), 'gray', s, name, fps);
}

/** CLEAR-MOT and IDF1 of `hyp` against the scene's truth, objects less than 40 % visible ignored. */
export const scored = (s: SurveillanceScene, hyp: MotBox[]) => motScores(s.truth.map((t): MotBox => ({ ...t, ignore: t.visible < 0.4 })), hyp);
