/**
 * A dot from its measured moments, and which dots are round enough: the one rule shared by `dots()`'s decoding
 * (nodes/components/dots.ts) and the CPU reference (reference/dotsCpu.ts).
 */
import type { DetectedDot } from '../core/results.js';

export interface DotRule {
  /**
   * Largest spread of the boundary's normalised radius (its standard deviation over its mean, 0 for a perfect
   * ellipse). Default `0.06 + 0.2 / r`, r the ellipse's mean semi-axis in pixels: digital discs measure about
   * 0.3 / r (0.08 at r = 3, 0.027 at r = 10), squares 0.11 at any size.
   */
  maxSpread?: number;
  /** Largest eccentricity of the moment ellipse (default 0.95: a disc seen at up to 72° from face-on). */
  maxEccentricity?: number;
}

/** The dot with these moments (central, divided by the area) and boundary spread. */
export function dotOf(label: number, area: number, x: number, y: number, mu20: number, mu02: number, mu11: number, spread: number): DetectedDot {
  const half = (mu20 + mu02) / 2;
  const root = Math.sqrt(((mu20 - mu02) / 2) ** 2 + mu11 ** 2);
  const l1 = half + root;
  const l2 = Math.max(0, half - root);
  return {
    label,
    x,
    y,
    area,
    majorAxis: 4 * Math.sqrt(l1),
    minorAxis: 4 * Math.sqrt(l2),
    orientation: 0.5 * Math.atan2(2 * mu11, mu20 - mu02),
    eccentricity: l1 > 0 ? Math.sqrt(1 - l2 / l1) : 0,
    spread,
  };
}

export function isRoundDot(d: DetectedDot, rule: DotRule = {}): boolean {
  const r = Math.sqrt(d.majorAxis * d.minorAxis) / 2;
  const maxSpread = rule.maxSpread ?? 0.06 + 0.2 / Math.max(r, 1e-9);
  return d.spread <= maxSpread && d.eccentricity <= (rule.maxEccentricity ?? 0.95);
}
