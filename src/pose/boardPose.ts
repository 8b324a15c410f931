/**
 * One pose for a board from every marker of it seen: each seen marker's two IPPE poses (its own square's) carried
 * to the board's frame are the starting points; the one that best explains all the seen corners, and the best one
 * of another rotation (the flip, when the seen markers leave one), are refined by Levenberg–Marquardt over all the
 * corners together (refinePose.ts). With markers spread over the board the flip's error is far larger and the pose
 * is exact to a fraction of any one marker's error; with one marker seen it is that marker's pose, moved.
 */
import type { BoardMarker } from './Board.js';
import { refinePose, reprojectionError, type PoseSolution } from './refinePose.js';
import { apply3, mul3, rotationBetween, transpose3, type Mat3 } from './rotation.js';

export interface SeenBoardMarker {
  marker: BoardMarker;
  /** Its corners, normalised (undistorted x / z, y / z), in the board marker's corner order. */
  image: readonly (readonly [number, number])[];
  /** Its own poses (marker frame to camera: IPPE's two, refined), any order. */
  poses: readonly Pick<PoseSolution, 'R' | 't'>[];
}

/** The refined pose that fits best, and the other rotation's (the flip), or null when no start had another. */
export type BoardSolution = [PoseSolution, PoseSolution | null];

/** Two starting rotations closer than this are the same solution. */
const flipDegrees = 5;

/** The marker's frame in the board's: X_board = B X_marker + c (B's columns: the marker's x, y and z axes). */
function markerFrame(m: BoardMarker): { B: Mat3; c: number[] } {
  const [p0, p1, , p3] = m.corners;
  const c = [0, 1, 2].map((k) => (m.corners[0][k] + m.corners[1][k] + m.corners[2][k] + m.corners[3][k]) / 4);
  const unit = (v: number[]) => {
    const n = Math.hypot(v[0], v[1], v[2]);
    return v.map((x) => x / n);
  };
  const x = unit([p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]]);
  const y = unit([p0[0] - p3[0], p0[1] - p3[1], p0[2] - p3[2]]);
  const z = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
  return { B: [x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]], c };
}

/** The board's pose from its seen markers (at least one); errors in the units of `scale` (fx, fy: pixels). */
export function boardPose(seen: readonly SeenBoardMarker[], scale: readonly [number, number]): BoardSolution {
  const object = seen.flatMap((s) => s.marker.corners);
  const image = seen.flatMap((s) => s.image);
  const starts = seen.flatMap((s) => {
    const { B, c } = markerFrame(s.marker);
    const Bt = transpose3(B);
    return s.poses.map((p) => {
      // X_camera = R_m Bᵀ (X_board − c) + t_m.
      const R = mul3(p.R, Bt);
      const Rc = apply3(R, c);
      const t: [number, number, number] = [p.t[0] - Rc[0], p.t[1] - Rc[1], p.t[2] - Rc[2]];
      return { R, t, error: reprojectionError(R, t, object, image, scale) };
    });
  });
  starts.sort((a, b) => a.error - b.error);
  const best = starts[0];
  const flip = starts.find((s) => rotationBetween(s.R, best.R) * (180 / Math.PI) > flipDegrees) ?? null;
  const a = refinePose(best, object, image, scale);
  const b = flip ? refinePose(flip, object, image, scale) : null;
  return b && b.error < a.error ? [b, a] : [a, b];
}
