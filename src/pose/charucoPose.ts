/**
 * A ChArUco board's pose from its chessboard corners found (`charucoCorners`, best refined by `refineChessCorners`),
 * as OpenCV's `estimatePoseCharucoBoard`: the corners undistorted, the board plane's homography to them, the pose it
 * implies, then Levenberg–Marquardt on the reprojection error. Chessboard corners are placed more exactly than marker
 * corners, and a board's many corners leave no flip. Null when fewer than four corners, or all on one line.
 *
 * @example
 * const corners = refineChessCorners(gray, w, h, charucoCorners(b, result.markers.found).map((c) => c.at));
 * charucoPose(b, found.map((c, i) => ({ id: c.id, at: corners[i] })), camera) // { R, t, error } or null
 */
import type { CharucoBoard } from './charucoBoard.js';
import { cameraModel, toNormalised, type CameraModel, type CameraSpec } from './CameraModel.js';
import { charucoViews } from './calibrateCamera.js';
import { planeHomography, poseFromHomography } from './homography.js';
import { refinePose, type PoseSolution } from './refinePose.js';

export function charucoPose(board: CharucoBoard, corners: readonly { readonly id: number; readonly at: readonly [number, number] }[], camera: CameraModel | CameraSpec): PoseSolution | null {
  const lens = cameraModel(camera);
  const view = charucoViews(board, [corners], 4)[0];
  if (!view) return null;
  const image = view.image.map(([u, v]) => toNormalised(lens, u, v));
  const start = poseFromHomography(planeHomography(view.object, image), { fx: 1, fy: 1, cx: 0, cy: 0 });
  return refinePose(start, view.object, image, [lens.fx, lens.fy]);
}
