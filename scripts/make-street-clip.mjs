// Makes the tracking sample shipped in examples/data: street.mp4, 10 s at 30 frames/s of a fixed camera over a
// textured scene with eight objects walking across it (some crossing, one stopping a while, a pillar in front, cast
// shadows, sensor noise; rendered by src/eval/surveillanceScene.ts), H.264 by ffmpeg; and street.json, each
// frame's true boxes and ids and the fraction of each that is visible, so the main job can score its tracks.
// Seeded: re-running gives the same files. Needs `npm run build` first.
import { writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { surveillanceScene } from '../dist/reference.js';

const scene = surveillanceScene(2026, { width: 320, height: 240, frames: 300, objects: 8, pillars: 1, stopAndGo: 0.25, noise: 4 });
const out = (name) => fileURLToPath(new URL(`../examples/data/${name}`, import.meta.url));
const ff = spawnSync(
  'ffmpeg',
  ['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${scene.width}x${scene.height}`, '-r', '30', '-i', '-', '-c:v', 'libx264', '-crf', '24', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', out('street.mp4')],
  { input: Buffer.concat(scene.frames.map((f) => Buffer.from(f))) },
);
if (ff.status !== 0) throw new Error(`ffmpeg: ${ff.stderr}`);
writeFileSync(out('street.json'), JSON.stringify({ width: scene.width, height: scene.height, truth: scene.truth.map((t) => [t.frame, t.id, t.x0, t.y0, t.x1, t.y1, Math.round(t.visible * 100) / 100]) }) + '\n');
console.log(`street.mp4: ${scene.frames.length} frames; street.json: ${scene.truth.length} boxes`);
