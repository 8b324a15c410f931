/**
 * Subpixel corners of a marker's outer border on the CPU, from approximate ones: the oracle for the GPU refinement
 * to come. Along each side, profiles across the edge (bilinear samples, pixel centres at integers) are read from the
 * black border out into the white margin; each profile's edge is the gradient-weighted mean position of its rising
 * part, which a symmetric blur does not move; a least-squares line through a side's edge points, and corners where
 * neighbouring lines meet. Corners are given and returned clockwise as seen (any starting corner).
 */
import type { Point } from './markerScene.js';
import { sampleBilinear } from './sampleBilinear.js';

export interface RefineOptions {
  /** Half-width of a profile across the edge, in pixels (default: a third of a cell, at least 1.5 and at most 4). */
  reach?: number;
  /** The marker's cells per side, border included (n + 2), to size the reach. */
  cells: number;
}

/** Profiles per side at most (the GPU keeps a side's edge points in workgroup memory). */
export const maxProfiles = 128;

/** A line as a point and a unit direction, fitted to points by total least squares. */
function fitLine(points: Point[]): { p: Point; d: Point } | null {
  if (points.length < 2) return null;
  const mx = points.reduce((s, q) => s + q[0], 0) / points.length;
  const my = points.reduce((s, q) => s + q[1], 0) / points.length;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const [x, y] of points) {
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
    sxy += (x - mx) * (y - my);
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  return { p: [mx, my], d: [Math.cos(angle), Math.sin(angle)] };
}

function intersect(a: { p: Point; d: Point }, b: { p: Point; d: Point }): Point | null {
  const det = a.d[0] * b.d[1] - a.d[1] * b.d[0];
  if (Math.abs(det) < 1e-9) return null;
  const t = ((b.p[0] - a.p[0]) * b.d[1] - (b.p[1] - a.p[1]) * b.d[0]) / det;
  return [a.p[0] + t * a.d[0], a.p[1] + t * a.d[1]];
}

/**
 * Refined corners, or null when a side has too few edge points (no clear edge there). Two rounds: the second
 * centres its profiles on the first round's edges, so a window cut off on one side does not bias the edge.
 */
export function refineCornersCpu(gray: ArrayLike<number>, width: number, height: number, corners: Point[], options: RefineOptions): Point[] | null {
  const first = refineOnce(gray, width, height, corners, options);
  return first && refineOnce(gray, width, height, first, options);
}

function refineOnce(gray: ArrayLike<number>, width: number, height: number, corners: Point[], options: RefineOptions): Point[] | null {
  const lines: { p: Point; d: Point }[] = [];
  for (let i = 0; i < 4; i++) {
    const a = corners[i];
    const b = corners[(i + 1) % 4];
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const d: Point = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
    // Clockwise as seen (y down): the outward normal is the direction turned a quarter turn anticlockwise.
    const nrm: Point = [d[1], -d[0]];
    const cell = len / options.cells;
    const reach = options.reach ?? Math.min(4, Math.max(1.5, cell / 3));
    const step = 0.1;
    const points: Point[] = [];
    // Stay a cell away from the corners, where the other sides' edges cross the profiles.
    const samples = Math.min(maxProfiles, Math.max(6, Math.floor(len)));
    for (let k = 0; k < samples; k++) {
      const t = cell + ((k + 0.5) / samples) * (len - 2 * cell);
      const bx = a[0] + d[0] * t;
      const by = a[1] + d[1] * t;
      // The gradient along the profile, rising from the black border out to the white margin; only its strong
      // part (over a fifth of its peak) weighs in, so noise on the flat parts does not pull the edge.
      const grads: number[] = [];
      let prev = sampleBilinear(gray, width, height, bx - nrm[0] * reach, by - nrm[1] * reach);
      const steps = Math.floor((2 * reach) / step + 1e-4);
      for (let j = 1; j <= steps; j++) {
        const s = -reach + j * step;
        const v = sampleBilinear(gray, width, height, bx + nrm[0] * s, by + nrm[1] * s);
        grads.push(v - prev);
        prev = v;
      }
      const peak = Math.max(...grads);
      if (!(peak > 0)) continue;
      let wsum = 0;
      let ssum = 0;
      grads.forEach((g, j) => {
        if (g > 0.2 * peak) {
          wsum += g;
          ssum += g * (-reach + (j + 0.5) * step);
        }
      });
      const off = ssum / wsum;
      points.push([bx + nrm[0] * off, by + nrm[1] * off]);
    }
    let line = fitLine(points);
    if (!line || points.length < 4) return null;
    // Once more without the points far from the line (a clutter edge or a noisy profile).
    const dist = (q: Point, l: { p: Point; d: Point }) => Math.abs((q[0] - l.p[0]) * l.d[1] - (q[1] - l.p[1]) * l.d[0]);
    const sorted = points.map((q) => dist(q, line!)).sort((x, y) => x - y);
    const limit = 3 * Math.max(0.02, sorted[sorted.length >> 1]);
    const kept = points.filter((q) => dist(q, line!) <= limit);
    if (kept.length >= 4) line = fitLine(kept) ?? line;
    lines.push(line);
  }
  const out: Point[] = [];
  for (let i = 0; i < 4; i++) {
    const c = intersect(lines[(i + 3) % 4], lines[i]);
    if (!c) return null;
    out.push(c);
  }
  return out;
}
