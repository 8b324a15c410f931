/**
 * Subpixel corners of a marker's outer border on the CPU, from approximate ones: the oracle for the GPU refinement
 * to come. Along each side, profiles across the edge (bilinear samples, pixel centres at integers) are read from the
 * black border out into the white margin; each profile's edge is the gradient-weighted mean position of its rising
 * part, which a symmetric blur does not move; a least-squares line through a side's edge points, and corners where
 * neighbouring lines meet. Corners are given and returned clockwise as seen (any starting corner).
 */
import type { Point } from '../markers/centreOf.js';
import { sampleBilinear } from './sampleBilinear.js';
import { minStepReach, stepDamping, stepIterations, stepSpacing } from '../markers/params.js';

export interface RefineOptions {
  /** Half-width of a profile across the edge, in pixels (default: a third of a cell, at least 1.5 and at most 4). */
  reach?: number;
  /** The marker's cells per side, border included (n + 2), to size the reach. */
  cells: number;
}

/** Profiles per side at most (the GPU keeps a side's edge points in workgroup memory). */
export const maxProfiles = 128;

/** A line as a point and a unit direction. */
export interface Line {
  p: Point;
  d: Point;
}

/** A line fitted to points by total least squares. */
function fitLine(points: Point[]): Line | null {
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

function intersect(a: Line, b: Line): Point | null {
  const det = a.d[0] * b.d[1] - a.d[1] * b.d[0];
  if (Math.abs(det) < 1e-9) return null;
  const t = ((b.p[0] - a.p[0]) * b.d[1] - (b.p[1] - a.p[1]) * b.d[0]) / det;
  return [a.p[0] + t * a.d[0], a.p[1] + t * a.d[1]];
}

/**
 * Refined corners, or null when a side has too few edge points (no clear edge there). Two rounds: the first from
 * gradient profiles (`refineOnce`); then, where every side's profiles reach at least `minStepReach` px, a
 * blurred-step fit of each side (`stepFitCpu`; where it fails, the first round's corners stay), else a second round
 * of gradient profiles centred on the first round's edges (so a window cut off on one side does not bias the edge).
 * No candidate pays for both second rounds: the GPU fit's time is that of its slowest candidate.
 */
export function refineCornersCpu(gray: ArrayLike<number>, width: number, height: number, corners: Point[], options: RefineOptions): Point[] | null {
  const first = refineOnce(gray, width, height, corners, options);
  if (!first) return null;
  if (!stepReaches(first, options)) return refineOnce(gray, width, height, first, options);
  const stepLines = stepFitCpu(gray, width, height, first, options);
  return (stepLines && cornersOf(stepLines)) ?? first;
}

/** Side i of a quad: its start, unit direction, outward normal and length. */
function sideOf(corners: Point[], i: number): { a: Point; d: Point; nrm: Point; len: number } {
  const a = corners[i];
  const b = corners[(i + 1) % 4];
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const d: Point = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
  // Clockwise as seen (y down): the outward normal is the direction turned a quarter turn anticlockwise.
  return { a, d, nrm: [d[1], -d[0]], len };
}

/** Whether every side's profiles reach at least `minStepReach` px, so that the step fit is tried. */
export function stepReaches(corners: Point[], options: RefineOptions): boolean {
  return corners.every((_, i) => sideProfiles(sideOf(corners, i).len, options.cells, options.reach).reach >= minStepReach);
}

/** A side's profiles: their half-width, and where they cross it (a cell away from the corners). */
export function sideProfiles(len: number, cells: number, reach?: number): { cell: number; reach: number; count: number; at: (k: number) => number } {
  const cell = len / cells;
  const count = Math.min(maxProfiles, Math.max(6, Math.floor(len)));
  return { cell, reach: reach ?? Math.min(4, Math.max(1.5, cell / 3)), count, at: (k) => cell + ((k + 0.5) / count) * (len - 2 * cell) };
}

/**
 * The standard normal distribution Φ(z), given g = exp(−z²/2) (which the step fit needs for the slope as well): erf by
 * Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7), whose exp(−x²) at x = z/√2 is g. The same formula on the GPU (fit.wgsl).
 */
export function normalCdf(z: number, g: number): number {
  const t = 1 / (1 + 0.3275911 * Math.SQRT1_2 * Math.abs(z));
  const tail = 0.5 * ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * g;
  return z >= 0 ? 1 - tail : tail;
}

/**
 * Solves the symmetric 3×3 system [a b c; b d e; c e f] x = r by Cramer's rule; null when it is singular. The same
 * formulas on the GPU (fit.wgsl), so both round alike up to f32 against f64.
 */
export function solveSymmetric3(m: readonly number[], r: readonly number[]): number[] | null {
  const [a, b, c, d, e, f] = m;
  const c0 = d * f - e * e;
  const c1 = c * e - b * f;
  const c2 = b * e - c * d;
  const det = a * c0 + b * c1 + c * c2;
  if (!(Math.abs(det) > 1e-12 * Math.abs(a * d * f))) return null;
  const x0 = (r[0] * c0 + r[1] * c1 + r[2] * c2) / det;
  const x1 = (r[0] * c1 + r[1] * (a * f - c * c) + r[2] * (b * c - a * e)) / det;
  const x2 = (r[0] * c2 + r[1] * (b * c - a * e) + r[2] * (a * d - b * b)) / det;
  return [x0, x1, x2];
}

/**
 * Offset along the normal of sample j of a step-fit profile with samples 0..steps: centred on the profile, so that a
 * step at its middle is sampled alike on both sides (sampled from one end, a sharp step's ramp was fitted 0.01 px off).
 */
export function stepOffset(j: number, steps: number): number {
  return (j - steps / 2) * stepSpacing;
}

/**
 * The step's levels (lo, hi − lo) whose model gives the mean end samples `ends0` and `ends1` for an edge at offset
 * e with blur σ: where the blur reaches the profiles' ends, or the edge is off their middle, the end samples are not
 * the levels themselves, and taking them as such would move the edge (by σ·√(2π)/2 times the levels' error).
 */
export function stepLevels(ends0: number, ends1: number, steps: number, e: number, sigma: number): [number, number] {
  const z0 = (stepOffset(0, steps) - e) / sigma;
  const z1 = (stepOffset(steps, steps) - e) / sigma;
  const f0 = normalCdf(z0, Math.exp(-0.5 * z0 * z0));
  const f1 = normalCdf(z1, Math.exp(-0.5 * z1 * z1));
  const amp = (ends1 - ends0) / Math.max(0.5, f1 - f0);
  return [ends0 - amp * f0, amp];
}

/**
 * The four sides' lines from a blurred-step model fitted to each side, or null where the fit fails (no contrast, a
 * singular system, or an edge that left the profiles). Along profile k, at relative position u = (t − len/2)/len on
 * the side, the gray level at normal offset s is lo + (hi − lo)·Φ((s − e − g·u)/σ): the edge's offset e and slope g
 * and its blur σ are fitted by Gauss–Newton to all the side's samples at once, lo and hi following from the mean
 * levels at the profiles' two ends (`stepLevels`). Unlike each profile's own edge, which a noisy sample pulls, the
 * fit weighs every sample by what it says about the edge, so noise and blur cost less.
 */
export function stepFitCpu(gray: ArrayLike<number>, width: number, height: number, corners: Point[], options: RefineOptions): Line[] | null {
  const lines: Line[] = [];
  for (let i = 0; i < 4; i++) {
    const { a, d, nrm, len } = sideOf(corners, i);
    const side = sideProfiles(len, options.cells, options.reach);
    const steps = Math.floor((2 * side.reach) / stepSpacing + 1e-4);
    const profiles: { u: number; v: number[] }[] = [];
    // The levels come from the means of the profiles' first and last samples. (Levels as straight lines along the
    // side, for light that falls off across the frame, measured worse on the evaluation set: an end sample off the
    // quiet zone tilts the whole line.)
    let lo = 0;
    let hi = 0;
    for (let k = 0; k < side.count; k++) {
      const t = side.at(k);
      const v: number[] = [];
      for (let j = 0; j <= steps; j++) {
        const s = stepOffset(j, steps);
        v.push(sampleBilinear(gray, width, height, a[0] + d[0] * t + nrm[0] * s, a[1] + d[1] * t + nrm[1] * s));
      }
      lo += v[0];
      hi += v[steps];
      profiles.push({ u: (t - len / 2) / len, v });
    }
    lo /= side.count;
    hi /= side.count;
    if (!(hi - lo > 5)) return null;
    let [e0, g, logSigma] = [0, 0, 0];
    for (let it = 0; it < stepIterations; it++) {
      // JᵀJ's upper triangle and Jᵀr.
      const m = [0, 0, 0, 0, 0, 0];
      const r3 = [0, 0, 0];
      const sigma = Math.exp(logSigma);
      const [base, amp] = stepLevels(lo, hi, steps, e0, sigma);
      for (const p of profiles) {
        const e = e0 + g * p.u;
        p.v.forEach((value, j) => {
          const z = (stepOffset(j, steps) - e) / sigma;
          const gauss = Math.exp(-0.5 * z * z);
          const cdf = normalCdf(z, gauss);
          const slope = (amp * gauss) / (Math.sqrt(2 * Math.PI) * sigma);
          const r = value - (base + amp * cdf);
          const j0 = -slope;
          const j1 = -slope * p.u;
          const j2 = -slope * z * sigma;
          m[0] += j0 * j0;
          m[1] += j0 * j1;
          m[2] += j0 * j2;
          m[3] += j1 * j1;
          m[4] += j1 * j2;
          m[5] += j2 * j2;
          r3[0] += j0 * r;
          r3[1] += j1 * r;
          r3[2] += j2 * r;
        });
      }
      m[0] *= stepDamping;
      m[3] *= stepDamping;
      m[5] *= stepDamping;
      const dq = solveSymmetric3(m, r3);
      if (!dq) return null;
      e0 += dq[0];
      g += dq[1];
      logSigma = Math.max(Math.log(0.2), Math.min(Math.log(4), logSigma + dq[2]));
    }
    // A fit that left the profiles is no edge.
    if (!(Math.abs(e0) < side.reach && Math.abs(g) < side.reach)) return null;
    const at = (u: number): Point => {
      const t = u * len + len / 2;
      const e = e0 + g * u;
      return [a[0] + d[0] * t + nrm[0] * e, a[1] + d[1] * t + nrm[1] * e];
    };
    const p0 = at(-0.5);
    const p1 = at(0.5);
    const l = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]);
    lines.push({ p: p0, d: [(p1[0] - p0[0]) / l, (p1[1] - p0[1]) / l] });
  }
  return lines;
}

/** Corners where neighbouring sides' lines meet, or null where two are parallel. */
function cornersOf(lines: Line[]): Point[] | null {
  const out: Point[] = [];
  for (let i = 0; i < 4; i++) {
    const c = intersect(lines[(i + 3) % 4], lines[i]);
    if (!c) return null;
    out.push(c);
  }
  return out;
}

function refineOnce(gray: ArrayLike<number>, width: number, height: number, corners: Point[], options: RefineOptions): Point[] | null {
  const lines: Line[] = [];
  for (let i = 0; i < 4; i++) {
    const { a, d, nrm, len } = sideOf(corners, i);
    const { reach, count, at } = sideProfiles(len, options.cells, options.reach);
    const step = 0.1;
    const points: Point[] = [];
    // Stay a cell away from the corners, where the other sides' edges cross the profiles.
    for (let k = 0; k < count; k++) {
      const t = at(k);
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
    const dist = (q: Point, l: Line) => Math.abs((q[0] - l.p[0]) * l.d[1] - (q[1] - l.p[1]) * l.d[0]);
    const sorted = points.map((q) => dist(q, line!)).sort((x, y) => x - y);
    const limit = 3 * Math.max(0.02, sorted[sorted.length >> 1]);
    const kept = points.filter((q) => dist(q, line!) <= limit);
    if (kept.length >= 4) line = fitLine(kept) ?? line;
    lines.push(line);
  }
  return cornersOf(lines);
}
