/**
 * Marker detection on the CPU, end to end: the reference the GPU `markers()` operator will be checked against, and a
 * column of the marker evaluation. The markers' black borders are components of the inverted adaptive threshold
 * (at several windows: a small marker's border vanishes in a large window's mean, a large one's in a small window);
 * each component large enough gets the quadrilateral its boundary spans (`quadOf`), which must hold the whole
 * boundary; the quad's corners are refined to subpixel on the gray image (refineCornersCpu) and the marker is
 * read through them (decodeMarkerCpu). Corners come back in OpenCV's convention: outer corners of the border,
 * printed top-left first, pixel centres at integers. Given several dictionaries, each candidate is refined and read
 * once per marker size among them (the refinement keeps its profiles off the cells' edges, which depend on the
 * size), each read decoded in every dictionary of that size (`anyDictionary`), in the order `markers()` takes them.
 */
import { thresholdAdaptive } from './thresholdCpu.js';
import { labelCpu } from './labelCpu.js';
import { refineCornersCpu } from './refineCornersCpu.js';
import { decodeMarkerCpu, type DecodedMarker, type GridDecoder } from './markerDecodeCpu.js';
import { centreOf, type Point } from '../markers/centreOf.js';
import { distinctMarkers } from '../markers/distinctMarkers.js';
import { bySize, type NamedDecoder } from '../markers/anyDictionary.js';
import { defaultWindows, maxBoundaryPerBox, pushOut } from '../markers/params.js';

export interface DetectOptions {
  /** Adaptive threshold windows (odd; default `defaultWindows`; a marker seen at several is kept from the first) and offset (7). */
  windows?: number[];
  offset?: number;
  /** Smallest side of a candidate's box in pixels (default 8). */
  minSide?: number;
  /** Read doubtful or ill-fitting grids again with the blur undone (default true; `decodeMarkerCpu`'s `deblur`). */
  deblur?: boolean;
}

/**
 * The quadrilateral a component's boundary spans, or null. Its corners are extreme boundary pixels, each found as
 * the farthest of some measure (the farthest point of a convex shape by a convex measure is a corner, so no hull is
 * built): p0 farthest from the box centre, p2 farthest from p0, pA farthest from the line p0–p2 (either side), and
 * pB the one that adds the most area to the triangle p0 p2 pA (p0–p2 may be a side of an elongated quad as well as
 * a diagonal). Every measure is an integer (doubled box centre; areas as cross products) and ties go to the first
 * pixel in raster order, so the GPU picks the same four pixels. The shape must be a quadrilateral: no boundary
 * pixel more than 1 px plus 8% of the mean side outside the quad (a circle, a pentagon or an L-shape sticks out
 * further). Returned clockwise as seen (y down), from p0.
 */
export function quadOf(points: Point[], box: [number, number, number, number], width: number): Point[] | null {
  const cx2 = box[0] + box[2];
  const cy2 = box[1] + box[3];
  const argmax = (key: (q: Point) => number) => {
    let bk = -Infinity;
    let bi = Infinity;
    for (const q of points) {
      const k = key(q);
      const i = q[1] * width + q[0];
      if (k > bk || (k === bk && i < bi)) [bk, bi] = [k, i];
    }
    return { k: bk, p: [bi % width, Math.floor(bi / width)] as Point };
  };
  // Twice the signed area of the triangle a b q: positive when q is clockwise of a → b as seen.
  const cross = (a: Point, b: Point, q: Point) => (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]);
  const p0 = argmax((q) => (2 * q[0] - cx2) ** 2 + (2 * q[1] - cy2) ** 2).p;
  const p2 = argmax((q) => (q[0] - p0[0]) ** 2 + (q[1] - p0[1]) ** 2).p;
  const a = argmax((q) => Math.abs(cross(p0, p2, q)));
  if (a.k <= 0) return null;
  // The triangle's edges, each directed so that its outside is the anticlockwise side (negative cross).
  const tri: Point[] = cross(p0, p2, a.p) > 0 ? [p0, p2, a.p] : [p0, a.p, p2];
  const b = argmax((q) => Math.max(-cross(tri[0], tri[1], q), -cross(tri[1], tri[2], q), -cross(tri[2], tri[0], q)));
  if (b.k <= 0) return null;
  // Clockwise from p0: the others sorted by their turn as seen from p0 (exact for a convex quad).
  const rest = [p2, a.p, b.p].sort((u, v) => -cross(p0, u, v));
  const quad = [p0, ...rest];
  const sides = quad.map((q, i) => Math.hypot(quad[(i + 1) % 4][0] - q[0], quad[(i + 1) % 4][1] - q[1]));
  const limit = 1 + 0.08 * (sides.reduce((t, l) => t + l, 0) / 4);
  for (const q of points) {
    for (let i = 0; i < 4; i++) {
      // Outward distance from a clockwise edge: the cross product is negative outside.
      if (-cross(quad[i], quad[(i + 1) % 4], q) / sides[i] > limit) return null;
    }
  }
  return quad;
}

export function detectMarkersCpu(gray: ArrayLike<number>, width: number, height: number, dict: GridDecoder | readonly NamedDecoder[], options: DetectOptions = {}): DecodedMarker[] {
  const windows = options.windows ?? defaultWindows;
  // A decoder with a name (a `MarkerDictionary`) names it on each marker, as `markers()` does.
  const list = Array.isArray(dict) ? dict : 'name' in dict ? [dict as NamedDecoder] : null;
  const sizes: GridDecoder[] = list ? bySize(list) : [dict as GridDecoder];
  return distinctMarkers(windows.flatMap((window) => detectAtWindow(gray, width, height, sizes, window, options)));
}

function detectAtWindow(gray: ArrayLike<number>, width: number, height: number, sizes: readonly GridDecoder[], window: number, options: DetectOptions): DecodedMarker[] {
  const mask = thresholdAdaptive(gray, width, height, window, options.offset ?? 7, true);
  const { labels, count } = labelCpu(mask, width, height, 8);
  const minSide = options.minSide ?? 8;
  // Each component's boundary pixels (a background 4-neighbour or the frame's edge): the quad needs no others.
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
    if (pts[l].length > maxBoundaryPerBox * (box[b + 2] - box[b] + box[b + 3] - box[b + 1] + 2)) continue;
    const q = quadOf(pts[l], [box[b], box[b + 1], box[b + 2], box[b + 3]], width);
    if (!q) continue;
    // Pixel centres lie half a pixel inside the border's outer edge: push the corners out from the centre.
    const [cx, cy] = centreOf(q);
    const start = q.map(([x, y]): Point => {
      const d = Math.hypot(x - cx, y - cy);
      return [x + ((x - cx) / d) * pushOut, y + ((y - cy) / d) * pushOut];
    });
    for (const dict of sizes) {
      const refined = refineCornersCpu(gray, width, height, start, { cells: dict.markerSize + 2 });
      if (!refined) continue;
      const m = decodeMarkerCpu(gray, width, height, refined, dict, { deblur: options.deblur });
      if (m) found.push(m);
    }
  }
  return found;
}
