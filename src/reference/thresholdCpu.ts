/**
 * CPU reference threshold: the same integer formulas as shaders/threshold.wgsl, written plainly. Masks are 0/255.
 */
export function grayFromRgba(rgba: ArrayLike<number>, pixels: number): Uint8Array {
  const g = new Uint8Array(pixels);
  for (let p = 0; p < pixels; p++) {
    g[p] = (77 * rgba[4 * p] + 150 * rgba[4 * p + 1] + 29 * rgba[4 * p + 2] + 128) >> 8;
  }
  return g;
}

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

/** Foreground where gray > mean of the clipped (2r+1)² window − offset, decided in integers. */
export function thresholdAdaptive(gray: ArrayLike<number>, width: number, height: number, window: number, offset: number, invert = false): Uint8Array {
  const r = (window - 1) / 2;
  const m = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(height - 1, y + r);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(width - 1, x + r);
      let s = 0;
      for (let j = y0; j <= y1; j++) for (let i = x0; i <= x1; i++) s += gray[j * width + i];
      const count = (x1 - x0 + 1) * (y1 - y0 + 1);
      m[y * width + x] = (gray[y * width + x] + offset) * count > s !== invert ? 255 : 0;
    }
  }
  return m;
}
