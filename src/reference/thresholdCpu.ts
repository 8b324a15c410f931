/**
 * CPU reference threshold: the same integer formulas as shaders/image/threshold.wgsl, written plainly. Masks are 0/255.
 */

export function thresholdFixed(gray: ArrayLike<number>, level: number, invert = false): Uint8Array {
  const m = new Uint8Array(gray.length);
  for (let p = 0; p < gray.length; p++) m[p] = gray[p] > level !== invert ? 255 : 0;
  return m;
}

/** Otsu's level by exact rational comparison (BigInt): foreground is gray > level. */
export function otsuLevel(gray: ArrayLike<number>): number {
  const hist = new Array<number>(256).fill(0);
  for (let p = 0; p < gray.length; p++) hist[gray[p]]++;
  const n = BigInt(gray.length);
  let total = 0n;
  for (let i = 0; i < 256; i++) total += BigInt(i * hist[i]);
  let w = 0n;
  let s = 0n;
  let best = -1;
  let bestNum = 0n;
  let bestDen = 1n;
  for (let t = 0; t < 256; t++) {
    w += BigInt(hist[t]);
    s += BigInt(t * hist[t]);
    if (w === 0n || w === n) continue;
    const d = total * w - n * s;
    const num = d * d;
    const den = w * (n - w);
    if (best < 0 || num * bestDen > bestNum * den) {
      best = t;
      bestNum = num;
      bestDen = den;
    }
  }
  if (best >= 0) return best;
  // A single gray value: that value, so nothing lies above the level.
  for (let t = 0; t < 256; t++) if (hist[t]) return t;
  return 0;
}

/**
 * Foreground where gray > mean of the clipped (2r+1)² window − offset, decided in integers. Window sums come from an
 * integral image (exact in doubles), so large windows cost no more than small ones.
 */
export function thresholdAdaptive(gray: ArrayLike<number>, width: number, height: number, window: number, offset: number, invert = false): Uint8Array {
  const W = width + 1;
  const sums = new Float64Array(W * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += gray[y * width + x];
      sums[(y + 1) * W + x + 1] = sums[y * W + x + 1] + row;
    }
  }
  const r = (window - 1) / 2;
  const m = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(height - 1, y + r) + 1;
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(width - 1, x + r) + 1;
      const s = sums[y1 * W + x1] - sums[y0 * W + x1] - sums[y1 * W + x0] + sums[y0 * W + x0];
      m[y * width + x] = (gray[y * width + x] + offset) * (x1 - x0) * (y1 - y0) > s !== invert ? 255 : 0;
    }
  }
  return m;
}
