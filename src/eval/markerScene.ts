/**
 * Seeded synthetic marker frames whose ground truth is exact: markers warped by known homographies, rendered with
 * 8×8 supersampling per pixel and area-averaged, over lit, cluttered backgrounds (gray boxes, bars like text,
 * black square outlines that are not markers), then blurred and noised. Corners follow OpenCV's conventions: pixel
 * centres at integer coordinates, the outer corners of the black border, ordered top-left, top-right,
 * bottom-right, bottom-left as the marker is printed.
 */
import { applyHomography, homography, type Homography } from '../pose/homography.js';
import { projectPoints, type CameraModel, type CameraSpec } from '../pose/CameraModel.js';
import { squareCorners } from '../pose/ippeSquare.js';
import { rng } from './images.js';
import type { Point } from '../markers/centreOf.js';

export { applyHomography, homography, type Homography };

/**
 * Where a marker of `side` at pose (R, t) (X_camera = R X + t, R row-major) is seen by `camera`: its outer corners
 * in the image, as printed (OpenCV's IPPE_SQUARE order), for `place(k).corners`.
 */
export function cornersAtPose(camera: CameraModel | CameraSpec, pose: { readonly R: readonly number[]; readonly t: readonly number[] }, side: number): [Point, Point, Point, Point] {
  const [a, b, c, d] = projectPoints(camera, pose.R, pose.t, squareCorners(side));
  return [a, b, c, d];
}

export function invertHomography(h: Homography): Homography {
  const [a, b, c, d, e, f, g, k, l] = h;
  const A = e * l - f * k;
  const B = -(d * l - f * g);
  const C = d * k - e * g;
  const det = a * A + b * B + c * C;
  return [A, -(b * l - c * k), b * f - c * e, B, a * l - c * g, -(a * f - c * d), C, -(a * k - b * g), a * e - b * d].map((v) => v / det);
}

export interface SceneMarker {
  id: number;
  /** Outer corners of the black border: top-left, top-right, bottom-right, bottom-left as printed. */
  corners: [Point, Point, Point, Point];
  /** Mean side length in pixels. */
  side: number;
  /** Tilt of the marker's plane away from the camera, in degrees. */
  tilt: number;
}

export interface SceneOptions {
  width: number;
  height: number;
  /** The dictionary's bits per side and each marker's bits (`MarkerDictionary.bits`), by ID. */
  markerSize: number;
  bits: (id: number) => ArrayLike<number>;
  ids: number[];
  /** Outer side of each marker in pixels (before tilt), drawn from [min, max]. */
  side: [number, number];
  /** Largest tilt in degrees. */
  maxTilt: number;
  /** Gaussian blur σ in pixels (0: none). */
  blur: number;
  /** Gaussian noise σ in gray levels. */
  noise: number;
  /** Distractors: boxes, bars and square outlines that are not markers. */
  clutter: number;
  /** Where marker k goes, overriding the drawn values given (for clips whose markers move smoothly). */
  place?: (k: number) => Partial<Placement>;
}

/** A marker's place: centre and side in pixels, tilt in degrees, spin and tilt axis in radians. */
export interface Placement {
  cx: number;
  cy: number;
  side: number;
  tilt: number;
  spin: number;
  axis: number;
  /** The marker's outer corners in the image, as printed (top-left first, clockwise), overriding the rest (a pose seen by a pinhole camera, say). */
  corners?: [Point, Point, Point, Point];
}

export interface MarkerScene {
  width: number;
  height: number;
  gray: Uint8Array;
  markers: SceneMarker[];
}

const SUB = 8;

/** A frame of markers at known corners (seeded: the same seed and options give the same frame everywhere). */
export function markerScene(seed: number, o: SceneOptions): MarkerScene {
  const r = rng(seed);
  const { width: w, height: h } = o;
  const img = new Float64Array(w * h);
  // Light: a base level with a linear ramp across the frame.
  const base = 110 + r() * 90;
  const gx = (r() - 0.5) * 120;
  const gy = (r() - 0.5) * 120;
  const illumination = (x: number, y: number) => base + (gx * (x - w / 2)) / w + (gy * (y - h / 2)) / h;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) img[y * w + x] = illumination(x, y);
  // How much of the light reaches a printed marker there (a dim corner of the frame prints darker).
  const light = (x: number, y: number) => 0.55 + (0.45 * illumination(x, y)) / 255;
  for (let c = 0; c < o.clutter; c++) {
    const kind = c % 3;
    const s = 8 + r() * Math.min(w, h) * 0.2;
    const x0 = r() * (w - s);
    const y0 = r() * (h - s);
    const v = kind === 2 ? 15 : r() * 255;
    for (let y = Math.floor(y0); y < y0 + (kind === 1 ? s / 6 : s); y++) {
      for (let x = Math.floor(x0); x < x0 + s; x++) {
        // kind 2: a black square outline one sixth of its side thick (a marker's border with no code inside).
        const inner = kind === 2 && x > x0 + s / 6 && x < x0 + s - s / 6 && y > y0 + s / 6 && y < y0 + s - s / 6;
        if (!inner && x >= 0 && y >= 0 && x < w && y < h) img[y * w + x] = v;
      }
    }
  }
  // Markers in a grid of places, one each, so that they never overlap.
  const n = o.markerSize;
  const cols = Math.max(1, Math.ceil(Math.sqrt((o.ids.length * w) / h)));
  const rows = Math.max(1, Math.ceil(o.ids.length / cols));
  const markers: SceneMarker[] = [];
  o.ids.forEach((id, k) => {
    const cw = w / cols;
    const ch = h / rows;
    const drawn: Placement = {
      side: Math.min(o.side[0] + r() * (o.side[1] - o.side[0]), 0.7 * Math.min(cw, ch)),
      cx: ((k % cols) + 0.5) * cw + (r() - 0.5) * 0.1 * cw,
      cy: (Math.floor(k / cols) + 0.5) * ch + (r() - 0.5) * 0.1 * ch,
      tilt: r() * o.maxTilt,
      spin: r() * 2 * Math.PI,
      axis: r() * Math.PI,
    };
    const { side, cx, cy, tilt, spin, axis, corners } = { ...drawn, ...o.place?.(k) } as Placement;
    // The marker's plane turned `tilt` about an in-plane axis, seen by a pinhole camera whose focal length puts
    // the untilted marker at `side` pixels.
    const f = 4 * side;
    const project = ([u, v]: Point): Point => {
      const cu = Math.cos(spin) * u - Math.sin(spin) * v;
      const cv = Math.sin(spin) * u + Math.cos(spin) * v;
      const ax = Math.cos(axis);
      const ay = Math.sin(axis);
      const along = cu * ax + cv * ay;
      const across = -cu * ay + cv * ax;
      const t = (tilt * Math.PI) / 180;
      const z = f + across * Math.sin(t);
      const acrossIn = across * Math.cos(t);
      const X = along * ax - acrossIn * ay;
      const Y = along * ay + acrossIn * ax;
      return [cx + (f * X) / z, cy + (f * Y) / z];
    };
    // Canonical marker coordinates: the outer border spans [0, n + 2] cells; a white quiet zone one cell wide.
    const S = n + 2;
    const half = S / 2;
    const canon: Point[] = [[0, 0], [S, 0], [S, S], [0, S]];
    const image = corners ?? canon.map(([u, v]) => project([((u - half) / S) * side, ((v - half) / S) * side]));
    const H = homography(canon, image);
    const Hi = invertHomography(H);
    const bits = o.bits(id);
    const quiet = canon.map(([u, v]) => applyHomography(H, [u + (u === 0 ? -1 : 1), v + (v === 0 ? -1 : 1)]));
    const xs = quiet.map((p) => p[0]);
    const ys = quiet.map((p) => p[1]);
    for (let y = Math.max(0, Math.floor(Math.min(...ys)) - 1); y <= Math.min(h - 1, Math.ceil(Math.max(...ys)) + 1); y++) {
      for (let x = Math.max(0, Math.floor(Math.min(...xs)) - 1); x <= Math.min(w - 1, Math.ceil(Math.max(...xs)) + 1); x++) {
        let sum = 0;
        let inside = 0;
        for (let a = 0; a < SUB; a++) {
          for (let b = 0; b < SUB; b++) {
            // Pixel (x, y) covers [x − ½, x + ½] × [y − ½, y + ½]: centres at integers.
            const [u, v] = applyHomography(Hi, [x - 0.5 + (b + 0.5) / SUB, y - 0.5 + (a + 0.5) / SUB]);
            if (u < -1 || v < -1 || u >= S + 1 || v >= S + 1) continue;
            inside++;
            const cu = Math.floor(u) - 1;
            const cv = Math.floor(v) - 1;
            const white = u < 0 || v < 0 || u >= S || v >= S ? 1 : cu >= 0 && cv >= 0 && cu < n && cv < n ? bits[cv * n + cu] : 0;
            // Printed black and white under the frame's light at that place.
            sum += (white ? 235 : 25) * light(x, y);
          }
        }
        if (inside) img[y * w + x] = (img[y * w + x] * (SUB * SUB - inside) + sum) / (SUB * SUB);
      }
    }
    const sides = [0, 1, 2, 3].map((i) => Math.hypot(image[(i + 1) % 4][0] - image[i][0], image[(i + 1) % 4][1] - image[i][1]));
    markers.push({ id, corners: image as SceneMarker['corners'], side: sides.reduce((s, x) => s + x, 0) / 4, tilt });
  });
  return { width: w, height: h, gray: photographed(img, w, h, o.blur, o.noise, r), markers };
}

/** A rendered scene blurred, with Gaussian noise from the scene's own generator, as 8-bit gray. */
export function photographed(img: Float64Array, w: number, h: number, blur: number, noise: number, r: () => number): Uint8Array {
  const blurred = blur > 0 ? gaussianBlur(img, w, h, blur) : img;
  const gray = new Uint8Array(w * h);
  for (let p = 0; p < w * h; p++) {
    // Box–Muller.
    const g = noise > 0 ? Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r()) * noise : 0;
    gray[p] = Math.max(0, Math.min(255, Math.round(blurred[p] + g)));
  }
  return gray;
}

/** Separable Gaussian blur, clamped at the borders. */
export function gaussianBlur(src: Float64Array, w: number, h: number, sigma: number): Float64Array {
  const radius = Math.ceil(3 * sigma);
  const k = Array.from({ length: 2 * radius + 1 }, (_, i) => Math.exp(-((i - radius) ** 2) / (2 * sigma * sigma)));
  const total = k.reduce((s, x) => s + x, 0);
  const kn = k.map((x) => x / total);
  const tmp = new Float64Array(w * h);
  const out = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = -radius; i <= radius; i++) s += kn[i + radius] * src[y * w + Math.min(w - 1, Math.max(0, x + i))];
      tmp[y * w + x] = s;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = -radius; i <= radius; i++) s += kn[i + radius] * tmp[Math.min(h - 1, Math.max(0, y + i)) * w + x];
      out[y * w + x] = s;
    }
  }
  return out;
}
