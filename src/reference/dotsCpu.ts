/**
 * Dots on the CPU: the reference for `dots()` (shaders/components/dots.wgsl), the same measurements in f64 for each component
 * features() kept: the gray-weighted centre (weights: gray above the component's darkest pixel), the central second
 * moments of its pixels, and the spread of its boundary pixels' normalised radius; then the same rule (`isRoundDot`).
 */
import type { ComponentFeatures } from '../components/componentFeatures.js';
import type { DetectedDot } from '../core/results.js';
import { dotOf, isRoundDot, type DotRule } from '../components/dotRule.js';

export function dotsCpu(gray: ArrayLike<number>, labels: ArrayLike<number>, width: number, height: number, f: ComponentFeatures, rule: DotRule = {}, maxSide = 256): DetectedDot[] {
  const found: DetectedDot[] = [];
  for (let i = 0; i < f.label.length; i++) {
    const l = f.label[i];
    const [x0, y0, x1, y1] = [f.x0[i], f.y0[i], f.x1[i], f.y1[i]];
    if (Math.max(x1 - x0 + 1, y1 - y0 + 1) > maxSide) continue;
    const gmin = f.minGray[i];
    const px: [number, number, number][] = [];
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) if (labels[y * width + x] === l) px.push([x, y, y * width + x]);
    const n = px.length;
    const mx = px.reduce((s, p) => s + p[0] - x0, 0) / n;
    const my = px.reduce((s, p) => s + p[1] - y0, 0) / n;
    const w = px.reduce((s, p) => s + gray[p[2]] - gmin, 0);
    const cx = w > 0 ? px.reduce((s, p) => s + (gray[p[2]] - gmin) * (p[0] - x0), 0) / w : mx;
    const cy = w > 0 ? px.reduce((s, p) => s + (gray[p[2]] - gmin) * (p[1] - y0), 0) / w : my;
    let m20 = 0;
    let m02 = 0;
    let m11 = 0;
    for (const [x, y] of px) {
      m20 += (x - x0 - mx) ** 2;
      m02 += (y - y0 - my) ** 2;
      m11 += (x - x0 - mx) * (y - y0 - my);
    }
    [m20, m02, m11] = [m20 / n, m02 / n, m11 / n];
    const det = m20 * m02 - m11 * m11;
    const radii: number[] = [];
    if (det > 0) {
      const at = (x: number, y: number) => labels[y * width + x];
      for (const [x, y] of px) {
        const edge = x === 0 || y === 0 || x === width - 1 || y === height - 1 || at(x - 1, y) !== l || at(x + 1, y) !== l || at(x, y - 1) !== l || at(x, y + 1) !== l;
        if (!edge) continue;
        const qx = x - x0 - mx;
        const qy = y - y0 - my;
        radii.push(Math.sqrt(Math.max(0, (m02 * qx * qx + m20 * qy * qy - 2 * m11 * qx * qy) / det)));
      }
    }
    const mean = radii.reduce((s, r) => s + r, 0) / Math.max(1, radii.length);
    const spread = radii.length && mean > 0 ? Math.sqrt(Math.max(0, radii.reduce((s, r) => s + r * r, 0) / radii.length - mean * mean)) / mean : 1;
    const d = dotOf(l, n, x0 + cx, y0 + cy, m20, m02, m11, spread);
    if (isRoundDot(d, rule)) found.push(d);
  }
  return found;
}
