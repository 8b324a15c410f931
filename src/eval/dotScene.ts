/**
 * Seeded frames of bright blobs on a dark, noisy background, 8×8 supersampled so the centres are exact: discs,
 * ellipses (round: what `dots()` keeps) and squares (not round), in a grid of places so that none overlap.
 */
import { rng } from './images.js';

export interface SceneBlob {
  cx: number;
  cy: number;
  /** Semi-axes (a = b for discs; half the side for squares) and the angle of a, in radians. */
  a: number;
  b: number;
  angle: number;
  round: boolean;
}

export function dotScene(seed: number, width: number, height: number, cols = 5, rows = 4): { width: number; height: number; data: Uint8Array; blobs: SceneBlob[] } {
  const r = rng(seed);
  const blobs: SceneBlob[] = [];
  const cell = Math.min(width / cols, height / rows);
  for (let k = 0; k < cols * rows; k++) {
    const cx = ((k % cols) + 0.5) * (width / cols) + (r() - 0.5) * 0.05 * cell;
    const cy = (Math.floor(k / cols) + 0.5) * (height / rows) + (r() - 0.5) * 0.05 * cell;
    const a = Math.min(3 + r() * 12, cell / 4);
    const kind = k % 4; // 0, 1: disc, 2: ellipse, 3: square
    blobs.push({ cx, cy, a, b: kind === 2 ? a * (0.45 + r() * 0.4) : a, angle: r() * Math.PI, round: kind !== 3 });
  }
  const inside = (o: SceneBlob, x: number, y: number) => {
    const dx = x - o.cx;
    const dy = y - o.cy;
    const u = dx * Math.cos(o.angle) + dy * Math.sin(o.angle);
    const v = -dx * Math.sin(o.angle) + dy * Math.cos(o.angle);
    return o.round ? (u / o.a) ** 2 + (v / o.b) ** 2 <= 1 : Math.abs(u) <= o.a && Math.abs(v) <= o.a;
  };
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let cover = 0;
      const near = blobs.filter((o) => Math.abs(x - o.cx) < o.a * 1.5 + 2 && Math.abs(y - o.cy) < o.a * 1.5 + 2);
      if (near.length) {
        for (let s = 0; s < 64; s++) {
          const px = x - 0.5 + ((s % 8) + 0.5) / 8;
          const py = y - 0.5 + (Math.floor(s / 8) + 0.5) / 8;
          if (near.some((o) => inside(o, px, py))) cover++;
        }
      }
      data[y * width + x] = Math.max(0, Math.min(255, Math.round(30 + (200 * cover) / 64 + (r() - 0.5) * 6)));
    }
  }
  return { width, height, data, blobs };
}
