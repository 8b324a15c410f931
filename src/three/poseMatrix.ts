/**
 * A pose from `pose()` (OpenCV's camera axes: x right, y down, z forward; X_camera = R X_marker + t) as a three.js
 * matrix in the camera's three.js axes (x right, y up, z backward): M = diag(1, -1, -1, 1) · [R | t]. The marker's
 * own axes stay OpenCV's marker axes (x right, y up, z out of the marker, toward the camera), which are three.js's
 * usual ones for an object facing the viewer: a cube of side s on the marker sits at z = s / 2.
 */
import type { Matrix4 } from 'three';
import { rotationFromVector } from '../pose/rotation.js';

export function poseMatrix(pose: { readonly rvec: readonly number[]; readonly tvec: readonly number[] }, target: Matrix4): Matrix4 {
  const r = rotationFromVector(pose.rvec);
  const t = pose.tvec;
  // Matrix4.set takes rows; rows 2 and 3 (y, z) change sign.
  return target.set(
    r[0], r[1], r[2], t[0],
    -r[3], -r[4], -r[5], -t[1],
    -r[6], -r[7], -r[8], -t[2],
    0, 0, 0, 1,
  );
}
