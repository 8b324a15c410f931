/**
 * Photos of a printed board taken through a known lens: `n` views at known poses (tilted `tilt` degrees every way
 * around the circle, turned a little in the board's plane, `distance` away, every corner in the frame), drawn by
 * boardScene (a grid board) or charucoScene (a ChArUco board: its whole chessboard in the frame). For calibration
 * tests and benchmarks.
 */
import type { Board } from '../pose/Board.js';
import type { CharucoBoard } from '../pose/charucoBoard.js';
import { projectPoints, type CameraModel } from '../pose/CameraModel.js';
import { mul3, rotationFromVector, type Mat3 } from '../pose/rotation.js';
import type { MarkerScene } from './markerScene.js';
import { boardScene } from './boardScene.js';
import { charucoScene, type CharucoScene } from './charucoScene.js';
import { rng } from './images.js';

export interface BoardPhotoOptions {
  width: number;
  height: number;
  /** The dictionary's bits per side and each marker's bits, by id. */
  markerSize: number;
  bits: (id: number) => ArrayLike<number>;
  /** Tilt range in degrees, distance range (the board's unit). */
  tilt: [number, number];
  distance: [number, number];
  blur: number;
  noise: number;
}

export interface BoardPhoto {
  scene: MarkerScene | CharucoScene;
  /** The board's pose: X_camera = R X_board + t. */
  R: Mat3;
  t: number[];
}

export function boardPhotos(lens: CameraModel, board: Board | CharucoBoard, n: number, seed: number, o: BoardPhotoOptions): BoardPhoto[] {
  const r = rng(seed);
  const charuco = 'squareLength' in board ? board : null;
  const [bw, bh] = charuco ? [charuco.squaresX * charuco.squareLength, charuco.squaresY * charuco.squareLength] : [0, 0];
  const corners = charuco ? [[0, 0, 0], [bw, 0, 0], [bw, bh, 0], [0, bh, 0]] : board.markers.flatMap((m) => m.corners);
  const middle = [0, 1, 2].map((j) => corners.reduce((s, p) => s + p[j], 0) / corners.length);
  const photos: BoardPhoto[] = [];
  for (let attempt = 0; photos.length < n && attempt < 1000 * n; attempt++) {
    const tilt = ((o.tilt[0] + (o.tilt[1] - o.tilt[0]) * r()) * Math.PI) / 180;
    const axis = (photos.length / n) * 2 * Math.PI + r() * 0.5;
    const R = mul3(rotationFromVector([Math.cos(axis) * tilt, Math.sin(axis) * tilt, 0]), rotationFromVector([0, 0, (r() - 0.5) * 0.4]));
    const z = o.distance[0] + (o.distance[1] - o.distance[0]) * r();
    const m = [0, 1, 2].map((j) => R[3 * j] * middle[0] + R[3 * j + 1] * middle[1] + R[3 * j + 2] * middle[2]);
    const t = [(r() - 0.5) * 0.12 * z - m[0], (r() - 0.5) * 0.08 * z - m[1], z - m[2]];
    if (!projectPoints(lens, R, t, corners).every(([u, v]) => u > 3 && v > 3 && u < o.width - 4 && v < o.height - 4)) continue;
    const scene = charuco ? charucoScene(seed * 100 + photos.length, lens, charuco, { R, t }, o) : boardScene(seed * 100 + photos.length, lens, board, { R, t }, { ...o, clutter: 3 });
    photos.push({ scene, R, t });
  }
  return photos;
}
