// Makes the markers sample shipped in examples/data: markers.mp4, 3 s at 30 frames/s of four DICT_4X4_50 markers
// moving, turning and tilting over a cluttered desk under uneven light (rendered by src/eval/markerScene.ts,
// 8× supersampled, so the corners are exact), H.264 by ffmpeg; and markers.json, each frame's true corners, so the
// main job can say how near its corners are. Seeded: re-running gives the same files. Needs `npm run build` first.
import { writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { markerDictionary } from '../dist/index.js';
import { markerScene } from '../dist/reference.js';

const W = 640;
const H = 360;
const frames = 90;
const dict = markerDictionary('DICT_4X4_50');
const ids = [3, 17, 25, 42];
// Each marker's path: centre moving on an ellipse, side breathing, spin and tilt changing with time.
const place = (f) => (k) => {
  const t = f / frames;
  const a = 2 * Math.PI * (t + k / 4);
  return {
    cx: W / 2 + Math.cos(a) * (180 - 20 * k),
    cy: H / 2 + Math.sin(a) * 100,
    side: 60 + 25 * Math.sin(2 * Math.PI * t + k),
    spin: 0.3 * k + 1.2 * t * (k % 2 ? 1 : -1),
    tilt: 10 + 30 * (0.5 + 0.5 * Math.sin(2 * Math.PI * t * 2 + k)),
    axis: k,
  };
};
const truth = [];
const raw = [];
for (let f = 0; f < frames; f++) {
  const s = markerScene(7, { width: W, height: H, markerSize: 4, bits: (id) => dict.bits(id), ids, side: [40, 100], maxTilt: 0, blur: 0.7, noise: 3, clutter: 8, place: place(f) });
  truth.push(s.markers.map((m) => ({ id: m.id, corners: m.corners.map(([x, y]) => [+x.toFixed(3), +y.toFixed(3)]) })));
  raw.push(Buffer.from(s.gray));
}
const clip = fileURLToPath(new URL('../examples/data/markers.mp4', import.meta.url));
const ff = spawnSync(
  'ffmpeg',
  ['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${W}x${H}`, '-r', '30', '-i', '-',
    '-c:v', 'libx264', '-preset', 'veryslow', '-crf', '24', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', clip],
  { input: Buffer.concat(raw), maxBuffer: 1 << 30 },
);
if (ff.status !== 0) throw new Error(`ffmpeg failed: ${ff.stderr}`);
writeFileSync(new URL('../examples/data/markers.json', import.meta.url), JSON.stringify({ dictionary: dict.name, width: W, height: H, fps: 30, frames: truth }) + '\n');
console.log(`wrote ${clip} and markers.json`);
