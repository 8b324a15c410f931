/**
 * Seeded synthetic binary images (0/255 per pixel) for tests and benchmarks: random blocks at a density and
 * granularity, and worst cases for label propagation (spirals, zigzags, checkerboards, rings, diagonals).
 */

/** Mulberry32: a small, fast, seeded PRNG; the same seed gives the same image everywhere. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each g×g block is foreground with probability `density`. */
export function randomBlocks(width: number, height: number, density: number, granularity: number, seed: number): Uint8Array {
  const r = rng(seed);
  const m = new Uint8Array(width * height);
  const bw = Math.ceil(width / granularity);
  const bh = Math.ceil(height / granularity);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      if (!(r() < density)) continue;
      for (let y = by * granularity; y < Math.min(height, (by + 1) * granularity); y++) {
        m.fill(255, y * width + bx * granularity, y * width + Math.min(width, (bx + 1) * granularity));
      }
    }
  }
  return m;
}

/** A one-pixel-wide square spiral with one-pixel gaps: one component whose path is about width*height/2 long. */
export function spiral(width: number, height: number): Uint8Array {
  const m = new Uint8Array(width * height);
  let x0 = 0;
  let y0 = 0;
  let x1 = width - 1;
  let y1 = height - 1;
  const set = (x: number, y: number) => (m[y * width + x] = 255);
  while (x0 <= x1 && y0 <= y1) {
    for (let x = x0; x <= x1; x++) set(x, y0);
    for (let y = y0; y <= y1; y++) set(x1, y);
    if (y1 > y0) for (let x = x1; x >= x0; x--) set(x, y1);
    // The left side stops two rows below the top, leaving the gap the next turn spirals through.
    if (x1 > x0) for (let y = y1; y >= y0 + 2; y--) set(x0, y);
    if (y0 + 2 <= y1) set(x0 + 1, y0 + 2);
    x0 += 2;
    y0 += 2;
    x1 -= 2;
    y1 -= 2;
  }
  return m;
}

/**
 * A square spiral whose track is itself a square wave (amplitude 2, period 4): a single long component in which
 * raster order and path order disagree every few pixels, the worst case for propagation-based labeling. The
 * track keeps one background pixel from its neighbours, so it is one component with 4- or 8-connectivity.
 */
export function zigzagSpiral(size: number): Uint8Array {
  const m = new Uint8Array(size * size);
  let x = 1;
  let y = 1;
  const set = () => {
    if (x >= 0 && y >= 0 && x < size && y < size) m[y * size + x] = 255;
  };
  const dirs = [
    [1, 0],
    [0, 1],
    [-1, 0],
    [0, -1],
  ];
  const walk = (dx: number, dy: number, n: number) => {
    for (let i = 0; i < n; i++) {
      x += dx;
      y += dy;
      set();
    }
  };
  set();
  // Clockwise: the inside is on the right of the direction of travel.
  let side = Math.floor((size - 3) / 4) * 4;
  for (let turn = 0; side >= 8; turn++) {
    const [dx, dy] = dirs[turn % 4];
    const [ix, iy] = dirs[(turn + 1) % 4];
    for (let k = 0; k < side / 4; k++) {
      walk(dx, dy, 2);
      walk(ix, iy, 2);
      walk(dx, dy, 2);
      walk(-ix, -iy, 2);
    }
    if (turn % 2 === 1) side -= 8;
    if (turn % 4 === 3) {
      // Step inward past this ring's wave band before the next ring.
      walk(0, 1, 4);
    }
  }
  return m;
}

/** Vertical zigzag: columns joined alternately at the top and bottom, one long snake. */
export function zigzag(width: number, height: number): Uint8Array {
  const m = new Uint8Array(width * height);
  for (let x = 0; x < width; x += 2) {
    for (let y = 0; y < height; y++) m[y * width + x] = 255;
    if (x + 2 < width) {
      const y = (x / 2) % 2 === 0 ? height - 1 : 0;
      m[y * width + x + 1] = 255;
    }
  }
  return m;
}

/** Checkerboard of `cell`-sized squares: one component with 8-connectivity when cell is 1, many with 4. */
export function checkerboard(width: number, height: number, cell = 1): Uint8Array {
  const m = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) m[y * width + x] = (Math.floor(x / cell) + Math.floor(y / cell)) % 2 === 0 ? 255 : 0;
  }
  return m;
}

/** Concentric one-pixel rings `gap` apart. */
export function rings(width: number, height: number, gap = 3): Uint8Array {
  const m = new Uint8Array(width * height);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = Math.round(Math.hypot(x - cx, y - cy));
      if (d % gap === 0) m[y * width + x] = 255;
    }
  }
  return m;
}

/** Anti-diagonal lines: connected only through corners, so 4- and 8-connectivity differ everywhere. */
export function diagonals(width: number, height: number, spacing = 4): Uint8Array {
  const m = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if ((x + y) % spacing === 0) m[y * width + x] = 255;
  return m;
}

/** 5×7 glyphs (one row per string, '#' on) for the characters of `textImage`. */
const glyphs: Record<string, string[]> = {
  F: ['#####', '#....', '#....', '####.', '#....', '#....', '#....'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  W: ['#...#', '#...#', '#...#', '#.#.#', '#.#.#', '##.##', '#...#'],
  M: ['#...#', '##.##', '#.#.#', '#.#.#', '#...#', '#...#', '#...#'],
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  R: ['####.', '#...#', '#...#', '####.', '#.#..', '#..#.', '#...#'],
  K: ['#...#', '#..#.', '#.#..', '##...', '#.#..', '#..#.', '#...#'],
  '2': ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  '0': ['.###.', '#...#', '#..##', '#.#.#', '##..#', '#...#', '.###.'],
  '6': ['..##.', '.#...', '#....', '####.', '#...#', '#...#', '.###.'],
  '%': ['##..#', '##..#', '...#.', '..#..', '.#...', '#..##', '#..##'],
  ' ': ['.....', '.....', '.....', '.....', '.....', '.....', '.....'],
};

/**
 * Lines of text in a 5×7 pixel font, each glyph scaled by `scale`, with a little seeded jitter in position:
 * many small components with holes (O, A, R, 0, 6, %), touching the border when `border` is true.
 */
export function textImage(width: number, height: number, text: string, scale: number, seed: number, border = false): Uint8Array {
  const m = new Uint8Array(width * height);
  const r = rng(seed);
  const cw = 6 * scale;
  const ch = 9 * scale;
  let i = 0;
  for (let y0 = border ? -2 * scale : scale; y0 < height; y0 += ch) {
    for (let x0 = border ? -3 * scale : scale; x0 < width; x0 += cw) {
      const g = glyphs[text[i++ % text.length]] ?? glyphs[' '];
      const jx = Math.floor(r() * 2);
      const jy = Math.floor(r() * 2);
      for (let gy = 0; gy < 7 * scale; gy++) {
        for (let gx = 0; gx < 5 * scale; gx++) {
          if (g[Math.floor(gy / scale)][Math.floor(gx / scale)] !== '#') continue;
          const x = x0 + gx + jx;
          const y = y0 + gy + jy;
          if (x >= 0 && y >= 0 && x < width && y < height) m[y * width + x] = 255;
        }
      }
    }
  }
  return m;
}
