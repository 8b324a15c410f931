// Makes the sample frames shipped in examples/data/frames: a desk under uneven light, seen by a noisy camera,
// with moving dark blobs and two square fiducial-like markers. Seeded, so re-running gives the same files.
import { writeFileSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';

const W = 320;
const H = 240;
const frames = 8;
let seed = 12345;
const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
const dir = new URL('../examples/data/frames/', import.meta.url);
mkdirSync(dir, { recursive: true });

// A 6x6 marker: black border, 4x4 inner bits.
const bits = [
  [1, 0, 1, 1],
  [0, 1, 0, 0],
  [1, 1, 0, 1],
  [0, 0, 1, 0],
];
function markerAt(x, y, cx, cy, size) {
  const u = Math.floor(((x - cx) / size) * 6);
  const v = Math.floor(((y - cy) / size) * 6);
  if (u < 0 || v < 0 || u > 5 || v > 5) return null;
  if (u === 0 || v === 0 || u === 5 || v === 5) return 0;
  return bits[v - 1][u - 1] ? 1 : 0;
}

/** One frame of the scene as RGBA. */
function render(f) {
  const data = new Uint8Array(W * H * 4);
  const blobs = [
    [40 + f * 9, 60 + Math.sin(f / 2) * 20, 14],
    [260 - f * 6, 170, 20],
    [160, 40 + f * 5, 9],
  ];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      // Light falls off from the top-left corner: a global threshold would fail here.
      let v = 215 - 0.35 * x - 0.25 * y + (rand() - 0.5) * 18;
      for (const [bx, by, r] of blobs) if ((x - bx) ** 2 + (y - by) ** 2 < r * r) v = 35 + rand() * 20;
      for (const [cx, cy, s] of [[190 + f * 2, 90, 60], [60, 150 - f, 48]]) {
        const m = markerAt(x, y, cx, cy, s);
        if (m !== null) v = m ? 200 - 0.3 * x + rand() * 10 : 25 + rand() * 15;
      }
      const i = (y * W + x) * 4;
      data[i] = Math.max(0, Math.min(255, v * 1.04));
      data[i + 1] = Math.max(0, Math.min(255, v));
      data[i + 2] = Math.max(0, Math.min(255, v * 0.92));
      data[i + 3] = 255;
    }
  }
  return data;
}

for (let f = 0; f < frames; f++) {
  const png = new PNG({ width: W, height: H, colorType: 2 });
  png.data.set(render(f));
  writeFileSync(new URL(`frame-${String(f).padStart(3, '0')}.png`, dir), PNG.sync.write(png, { colorType: 2 }));
}
console.log(`wrote ${frames} frames to ${dir.pathname}`);

// The main job's clip: 3 s of the same scene at 30 frames/s, H.264 in MP4, made by ffmpeg from raw frames.
const clip = fileURLToPath(new URL('../examples/data/sample.mp4', import.meta.url));
const seconds = 3;
const ff = spawnSync(
  'ffmpeg',
  ['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${W}x${H}`, '-r', '30', '-i', '-',
    '-c:v', 'libx264', '-preset', 'veryslow', '-crf', '30', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', clip],
  { input: Buffer.concat(Array.from({ length: 30 * seconds }, (_, f) => Buffer.from(render(f / 3)))), maxBuffer: 1 << 30 },
);
if (ff.status !== 0) throw new Error(`ffmpeg failed: ${ff.stderr}`);
console.log(`wrote ${clip}`);
