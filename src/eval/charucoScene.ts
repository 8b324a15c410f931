/**
 * A frame of a ChArUco board at a known pose through a camera, lens distortion included, with its true chessboard
 * corners and marker corners. Each pixel is 4 × 4 samples mapped back onto the board (the distortion undone, then
 * the plane's homography): black squares, white squares holding their markers (black border, bits, centred), and a
 * white margin of one square round the board; then blur and noise, seeded, as `markerScene`. Straight printed edges
 * come out bent as the lens bends them.
 */
import type { CharucoBoard } from '../pose/charucoBoard.js';
import { projectPoints, toNormalised, type CameraModel, type CameraSpec } from '../pose/CameraModel.js';
import { applyHomography, homography } from '../pose/homography.js';
import { invertHomography, photographed } from './markerScene.js';
import { rng } from './images.js';
import type { BoardSceneOptions } from './boardScene.js';

export interface CharucoScene {
  width: number;
  height: number;
  gray: Uint8Array;
  /** Every chessboard corner where the camera puts it, by corner id. */
  corners: [number, number][];
  markers: { id: number; corners: [number, number][] }[];
}

/** As a board scene's, without clutter (a ChArUco board fills its part of the frame). */
export type CharucoSceneOptions = Omit<BoardSceneOptions, 'clutter'>;

const SUB = 8;

export function charucoScene(seed: number, camera: CameraModel | CameraSpec, board: CharucoBoard, pose: { readonly R: readonly number[]; readonly t: readonly number[] }, o: CharucoSceneOptions): CharucoScene {
  const r = rng(seed);
  const { width: w, height: h } = o;
  const sq = board.squareLength;
  const [bw, bh] = [board.squaresX * sq, board.squaresY * sq];
  const plane: [number, number, number][] = [[0, 0, 0], [bw, 0, 0], [bw, bh, 0], [0, bh, 0]];
  // The plane to normalised (undistorted) image coordinates, inverted.
  const toBoard = invertHomography(homography(plane, projectPoints({ fx: 1, fy: 1, cx: 0, cy: 0 }, pose.R, pose.t, plane)));
  const n = o.markerSize;
  const cell = board.markerLength / (n + 2);
  const inset = (sq - board.markerLength) / 2;
  const markerAt = new Map(board.markers.map((m) => [`${Math.floor(m.corners[0][0] / sq)},${Math.floor(m.corners[0][1] / sq)}`, o.bits(m.id)]));
  const background = 90 + r() * 60;
  const shade = (u: number, v: number): number | null => {
    if (u < -sq || v < -sq || u >= bw + sq || v >= bh + sq) return null;
    if (u < 0 || v < 0 || u >= bw || v >= bh) return 1;
    const [sx, sy] = [Math.floor(u / sq), Math.floor(v / sq)];
    if ((sx + sy) % 2 === 0) return 0;
    const bits = markerAt.get(`${sx},${sy}`)!;
    const [cu, cv] = [Math.floor((u - sx * sq - inset) / cell), Math.floor((v - sy * sq - inset) / cell)];
    if (cu < 0 || cv < 0 || cu > n + 1 || cv > n + 1) return 1;
    if (cu === 0 || cv === 0 || cu === n + 1 || cv === n + 1) return 0;
    return bits[(cv - 1) * n + cu - 1] ? 1 : 0;
  };
  // Normalised coordinates at every pixel's corners; inside a pixel they are interpolated (the distortion is smooth
  // over a pixel: the interpolation's error is far under a thousandth of a pixel, and none without distortion).
  const corner = new Float64Array(2 * (w + 1) * (h + 1));
  for (let y = 0; y <= h; y++) {
    for (let x = 0; x <= w; x++) corner.set(toNormalised(camera, x - 0.5, y - 0.5), 2 * (y * (w + 1) + x));
  }
  const img = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [i00, i01, i10, i11] = [y * (w + 1) + x, y * (w + 1) + x + 1, (y + 1) * (w + 1) + x, (y + 1) * (w + 1) + x + 1].map((i) => 2 * i);
      let sum = 0;
      for (let a = 0; a < SUB; a++) {
        for (let b = 0; b < SUB; b++) {
          const [fx, fy] = [(b + 0.5) / SUB, (a + 0.5) / SUB];
          const at = (k: number) => (corner[i00 + k] * (1 - fx) + corner[i01 + k] * fx) * (1 - fy) + (corner[i10 + k] * (1 - fx) + corner[i11 + k] * fx) * fy;
          const [u, v] = applyHomography(toBoard, [at(0), at(1)]);
          const s = shade(u, v);
          sum += s === null ? background : s ? 225 : 30;
        }
      }
      img[y * w + x] = sum / (SUB * SUB);
    }
  }
  return {
    width: w,
    height: h,
    gray: photographed(img, w, h, o.blur, o.noise, r),
    corners: projectPoints(camera, pose.R, pose.t, board.corners.map((c) => c.at)),
    markers: board.markers.map((m) => ({ id: m.id, corners: projectPoints(camera, pose.R, pose.t, m.corners) })),
  };
}
