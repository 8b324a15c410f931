/** Gray from RGBA as every flowmark kernel computes it (BT.601 weights in 8-bit fixed point, rounded). */
export function grayFromRgba(rgba: ArrayLike<number>, pixels: number): Uint8Array {
  const g = new Uint8Array(pixels);
  for (let p = 0; p < pixels; p++) {
    g[p] = (77 * rgba[4 * p] + 150 * rgba[4 * p + 1] + 29 * rgba[4 * p + 2] + 128) >> 8;
  }
  return g;
}
