/**
 * CPU reference for `features()`: every feature computed pixel by pixel from canonical labels and the gray image,
 * with the same definitions (exact integer sums for area, box, perimeter and gray). The derived values are worked out
 * apart from the runtime's (setMoments): central moments as exact rationals of the sums, the ellipse from the
 * covariance matrix's eigenvalues and major eigenvector, so that a wrong sign, factor or formula in the runtime fails
 * the tests rather than being shared by both.
 */
import { emptyFeatures, type ComponentFeatures, type ComponentSums, type FeatureFilter } from '../components/componentFeatures.js';

export function featuresCpu(
  labels: ArrayLike<number>,
  gray: ArrayLike<number>,
  width: number,
  height: number,
  filter: FeatureFilter & { histogram?: boolean | 'spatial' } = {},
): ComponentFeatures {
  let n = 0;
  for (let p = 0; p < labels.length; p++) n = Math.max(n, labels[p]);
  const acc: ComponentSums[] = Array.from({ length: n + 1 }, () => ({ area: 0, sx: 0, sy: 0, sxx: 0, syy: 0, sxy: 0, x0: Infinity, y0: Infinity, x1: -1, y1: -1, perim: 0, sg: 0, gmin: 255, gmax: 0 }));
  const hist = filter.histogram ? new Uint32Array((n + 1) * 16) : null;
  // With 'spatial': each bin's Σx and Σy (exact in doubles below 2^53).
  const place = filter.histogram === 'spatial' ? new Float64Array((n + 1) * 32) : null;
  const fg = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && labels[y * width + x] !== 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const l = labels[y * width + x];
      if (!l) continue;
      const a = acc[l];
      const g = gray[y * width + x];
      a.area++;
      a.sx += x;
      a.sy += y;
      a.sxx += x * x;
      a.syy += y * y;
      a.sxy += x * y;
      a.x0 = Math.min(a.x0, x);
      a.y0 = Math.min(a.y0, y);
      a.x1 = Math.max(a.x1, x);
      a.y1 = Math.max(a.y1, y);
      const edge = x === 0 || y === 0 || x === width - 1 || y === height - 1;
      if (edge || !fg(x - 1, y) || !fg(x + 1, y) || !fg(x, y - 1) || !fg(x, y + 1)) a.perim++;
      a.sg += g;
      a.gmin = Math.min(a.gmin, g);
      a.gmax = Math.max(a.gmax, g);
      if (hist) hist[l * 16 + (g >> 4)]++;
      if (place) {
        const at = 2 * (l * 16 + (g >> 4));
        place[at] += x;
        place[at + 1] += y;
      }
    }
  }
  const kept: number[] = [];
  for (let l = 1; l <= n; l++) if (passes(acc[l], width, height, filter)) kept.push(l);
  const f = emptyFeatures(kept.length, kept.length, false, n);
  kept.forEach((l, i) => {
    const a = acc[l];
    f.label[i] = l;
    f.area[i] = a.area;
    f.x0[i] = a.x0;
    f.y0[i] = a.y0;
    f.x1[i] = a.x1;
    f.y1[i] = a.y1;
    f.perimeter[i] = a.perim;
    f.minGray[i] = a.gmin;
    f.maxGray[i] = a.gmax;
    f.touchesBorder[i] = a.x0 === 0 || a.y0 === 0 || a.x1 === width - 1 || a.y1 === height - 1 ? 1 : 0;
  });
  deriveApart(f, kept, acc);
  if (hist) f.histogram = Uint32Array.from(kept.flatMap((l) => [...hist.subarray(l * 16, l * 16 + 16)]));
  if (hist && place) {
    const mean = (axis: number) => Float64Array.from(kept.flatMap((l) => Array.from({ length: 16 }, (_, b) => (hist[l * 16 + b] > 0 ? place[2 * (l * 16 + b) + axis] / hist[l * 16 + b] : NaN))));
    f.histogramX = mean(0);
    f.histogramY = mean(1);
  }
  return f;
}

function passes(a: { area: number; x0: number; y0: number; x1: number; y1: number }, width: number, height: number, f: FeatureFilter): boolean {
  const bw = a.x1 - a.x0 + 1;
  const bh = a.y1 - a.y0 + 1;
  if (a.area < (f.minArea ?? 0) || a.area > (f.maxArea ?? Infinity)) return false;
  if (Math.max(bw, bh) > (f.maxSide ?? Infinity) || Math.min(bw, bh) < (f.minSide ?? 0)) return false;
  // The GPU compares in f32: sides below 2^24 are exact there, and so is this comparison.
  if (Math.max(bw, bh) > Math.fround(f.maxAspect ?? 3.4e38) * Math.min(bw, bh)) return false;
  const border = a.x0 === 0 || a.y0 === 0 || a.x1 === width - 1 || a.y1 === height - 1;
  return !(border && f.dropBorder);
}

/**
 * Centroid, central moments, equivalent ellipse and mean gray of the kept components, worked out apart from the
 * runtime's setMoments: the central moments as exact rationals of the integer sums, (n·Σxx − (Σx)²) / n² in BigInt (rounded once),
 * where the runtime subtracts in doubles. The ellipse: eigenvalues l1 ≥ l2 of [[mu20, mu11], [mu11, mu02]] from the
 * characteristic polynomial; major axis 4√l1 and minor 4√l2 (the full axes of the ellipse with the same second
 * moments); the orientation the angle of l1's eigenvector from +x towards +y (image rows down), in (−π/2, π/2];
 * eccentricity √(1 − l2/l1).
 */
function deriveApart(f: ComponentFeatures, kept: number[], acc: ComponentSums[]): void {
  const central = (n: bigint, sab: number, sa: number, sb: number) => Number(n * BigInt(sab) - BigInt(sa) * BigInt(sb)) / Number(n * n);
  kept.forEach((l, i) => {
    const s = acc[l];
    const n = BigInt(s.area);
    const [a, c, b] = [central(n, s.sxx, s.sx, s.sx), central(n, s.syy, s.sy, s.sy), central(n, s.sxy, s.sx, s.sy)];
    const trace = a + c;
    const root = Math.sqrt(Math.max(0, (a - c) * (a - c) + 4 * b * b));
    const l1 = (trace + root) / 2;
    const l2 = Math.max(0, (trace - root) / 2);
    // l1's eigenvector: (b, l1 − a) or (l1 − c, b), whichever is longer (both are where the other vanishes).
    const [vx, vy] = Math.hypot(b, l1 - a) >= Math.hypot(l1 - c, b) ? [b, l1 - a] : [l1 - c, b];
    let angle = vx === 0 && vy === 0 ? 0 : Math.atan2(vy, vx);
    if (angle <= -Math.PI / 2) angle += Math.PI;
    if (angle > Math.PI / 2) angle -= Math.PI;
    f.cx[i] = s.sx / s.area;
    f.cy[i] = s.sy / s.area;
    f.mu20[i] = a;
    f.mu02[i] = c;
    f.mu11[i] = b;
    f.orientation[i] = angle;
    f.majorAxis[i] = 4 * Math.sqrt(l1);
    f.minorAxis[i] = 4 * Math.sqrt(l2);
    f.eccentricity[i] = l1 > 0 ? Math.sqrt(1 - l2 / l1) : 0;
    f.meanGray[i] = s.sg / s.area;
  });
}
