/**
 * A frame of a board of markers at a known pose: each marker drawn where the camera puts its four corners (lens
 * distortion included; its inside by the homography between them, so a bending lens moves the corners, not the
 * straight edges between them). The board example's test, the pose evaluation and boardPhotos render boards so.
 */
import type { Board } from '../pose/Board.js';
import { projectPoints, type CameraModel, type CameraSpec } from '../pose/CameraModel.js';
import { markerScene, type MarkerScene } from './markerScene.js';
import { type Point } from '../markers/centreOf.js';

export interface BoardSceneOptions {
  width: number;
  height: number;
  /** The dictionary's bits per side and each marker's bits, by id. */
  markerSize: number;
  bits: (id: number) => ArrayLike<number>;
  blur: number;
  noise: number;
  clutter: number;
}

/** The board at pose (R, t) (X_camera = R X_board + t) seen by `camera`; seeded as `markerScene`. */
export function boardScene(seed: number, camera: CameraModel | CameraSpec, board: Board, pose: { readonly R: readonly number[]; readonly t: readonly number[] }, o: BoardSceneOptions): MarkerScene {
  return markerScene(seed, {
    width: o.width,
    height: o.height,
    markerSize: o.markerSize,
    bits: o.bits,
    ids: board.markers.map((m) => m.id),
    side: [40, 40],
    maxTilt: 0,
    blur: o.blur,
    noise: o.noise,
    clutter: o.clutter,
    place: (k) => ({ corners: projectPoints(camera, pose.R, pose.t, board.markers[k].corners) as [Point, Point, Point, Point] }),
  });
}
