/**
 * Marker detection on the CPU, end to end: the reference the GPU `markers()` operator will be checked against, and a
 * column of the marker evaluation. The markers' black borders are components of the inverted adaptive threshold
 * (at several windows: a small marker's border vanishes in a large window's mean, a large one's in a small window);
 * each component large enough gets the quadrilateral of its convex hull (the hull point farthest from the centre,
 * the point farthest from that, and the points farthest from the line through both on either side), which must
 * fill the hull; the quad's corners are refined to subpixel on the gray image (refineCornersCpu) and the marker is
 * read through them (decodeMarkerCpu). Corners come back in OpenCV's convention: outer corners of the border,
 * printed top-left first, pixel centres at integers.
 */
import { thresholdAdaptive } from './thresholdCpu.js';
import { labelCpu } from './labelCpu.js';
import { refineCornersCpu } from './refineCornersCpu.js';
import { decodeMarkerCpu, type DecodedMarker, type GridDecoder } from './markerDecodeCpu.js';
import { centreOf, type Point } from './markerScene.js';

export interface DetectOptions {
  /** Adaptive threshold windows (odd; default 31, 15, 9 and 5: small markers need small windows; a marker seen at several is kept from the largest) and offset (7). */
  windows?: number[];
  offset?: number;
  /** Smallest side of a candidate's box in pixels (default 8). */
  minSide?: number;
}

/** Convex hull of points (Andrew's monotone chain), clockwise as seen with y down. */
function hull(points: Point[]): Point[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: Point, a: Point, b: Point) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Point[] = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop();
    lower.push(q);
  }
  const upper: Point[] = [];
  for (const q of p.reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop();
    upper.push(q);
  }
  // Anticlockwise in y-up terms is clockwise as seen on an image (y down).
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

const area = (poly: Point[]) => Math.abs(poly.reduce((s, a, i) => { const b = poly[(i + 1) % poly.length]; return s + a[0] * b[1] - b[0] * a[1]; }, 0)) / 2;

/** Four hull points that span it, in hull order, or null. */
function quadOf(h: Point[]): Point[] | null {
  if (h.length < 4) return null;
  const [cx, cy] = centreOf(h);
  const far = (from: Point) => h.reduce((bi, q, i) => (Math.hypot(q[0] - from[0], q[1] - from[1]) > Math.hypot(h[bi][0] - from[0], h[bi][1] - from[1]) ? i : bi), 0);
  const i0 = far([cx, cy]);
  const i2 = far(h[i0]);
  const side = (q: Point) => (h[i2][0] - h[i0][0]) * (q[1] - h[i0][1]) - (h[i2][1] - h[i0][1]) * (q[0] - h[i0][0]);
  let i1 = -1;
  let i3 = -1;
  h.forEach((q, i) => {
    const s = side(q);
    if (s > 0 && (i1 < 0 || s > side(h[i1]))) i1 = i;
    if (s < 0 && (i3 < 0 || s < side(h[i3]))) i3 = i;
  });
  if (i1 < 0 || i3 < 0) return null;
  return [i0, i1, i2, i3].sort((a, b) => a - b).map((i) => h[i]);
}

export function detectMarkersCpu(gray: ArrayLike<number>, width: number, height: number, dict: GridDecoder, options: DetectOptions = {}): DecodedMarker[] {
  const found: { marker: DecodedMarker; at: Point }[] = [];
  for (const window of options.windows ?? [31, 15, 9, 5]) {
    for (const marker of detectAtWindow(gray, width, height, dict, window, options)) {
      // The same marker seen at another window: keep the first.
      const at = centreOf(marker.corners);
      if (!found.some((f) => f.marker.id === marker.id && Math.hypot(f.at[0] - at[0], f.at[1] - at[1]) < 2)) found.push({ marker, at });
    }
  }
  return found.map((f) => f.marker);
}

function detectAtWindow(gray: ArrayLike<number>, width: number, height: number, dict: GridDecoder, window: number, options: DetectOptions): DecodedMarker[] {
  const mask = thresholdAdaptive(gray, width, height, window, options.offset ?? 7, true);
  const { labels, count } = labelCpu(mask, width, height, 8);
  const minSide = options.minSide ?? 8;
  // Each component's boundary pixels (a background 4-neighbour or the frame's edge): the hull needs no others.
  const pts: Point[][] = Array.from({ length: count + 1 }, () => []);
  const box = new Int32Array((count + 1) * 4).fill(-1);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const l = labels[y * width + x];
      if (!l) continue;
      const edge = x === 0 || y === 0 || x === width - 1 || y === height - 1 || !labels[y * width + x - 1] || !labels[y * width + x + 1] || !labels[(y - 1) * width + x] || !labels[(y + 1) * width + x];
      if (edge) pts[l].push([x, y]);
      const b = l * 4;
      if (box[b] < 0 || x < box[b]) box[b] = x;
      if (box[b + 1] < 0 || y < box[b + 1]) box[b + 1] = y;
      if (x > box[b + 2]) box[b + 2] = x;
      if (y > box[b + 3]) box[b + 3] = y;
    }
  }
  const found: DecodedMarker[] = [];
  for (let l = 1; l <= count; l++) {
    const b = l * 4;
    if (box[b + 2] - box[b] + 1 < minSide || box[b + 3] - box[b + 1] + 1 < minSide) continue;
    // Touching the frame's edge: the border may be cut off.
    if (box[b] === 0 || box[b + 1] === 0 || box[b + 2] === width - 1 || box[b + 3] === height - 1) continue;
    const h = hull(pts[l]);
    const q = quadOf(h);
    if (!q || area(q) < 0.9 * area(h)) continue;
    // Pixel centres lie half a pixel inside the border's outer edge: push the corners out from the centre.
    const [cx, cy] = centreOf(q);
    const start = q.map(([x, y]): Point => {
      const d = Math.hypot(x - cx, y - cy);
      return [x + ((x - cx) / d) * 0.7, y + ((y - cy) / d) * 0.7];
    });
    const refined = refineCornersCpu(gray, width, height, start, { cells: dict.markerSize + 2 });
    if (!refined) continue;
    const m = decodeMarkerCpu(gray, width, height, refined, dict);
    if (m) found.push(m);
  }
  return found;
}
