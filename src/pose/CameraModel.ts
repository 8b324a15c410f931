/**
 * A pinhole camera with Brown–Conrady lens distortion, as OpenCV models it (`calibrateCamera`, `projectPoints`,
 * `undistortPoints`): intrinsics fx, fy, cx, cy in pixels (pixel centres at integers) and distortion k1, k2, p1, p2,
 * k3. "Normalised" coordinates are x / z, y / z of a point in the camera's frame (x right, y down, z forward).
 */
import { InvalidOptionError } from '../core/errors.js';

export interface CameraModel {
  fx: number;
  fy: number;
  cx: number;
  cy: number;
  /** k1, k2, p1, p2, k3 (zeros: no distortion). */
  distortion: [number, number, number, number, number];
}

export interface CameraSpec {
  fx: number;
  fy: number;
  cx: number;
  cy: number;
  /** k1, k2, p1, p2 and optionally k3; more coefficients (OpenCV's rational and thin-prism models) must be 0. */
  distortion?: readonly number[];
}

/** A validated camera model; `InvalidOptionError` names what is wrong. */
export function cameraModel(spec: CameraSpec): CameraModel {
  if (!spec || typeof spec !== 'object') throw new InvalidOptionError('camera: expected { fx, fy, cx, cy, distortion? }');
  for (const key of ['fx', 'fy', 'cx', 'cy'] as const) {
    const v = spec[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new InvalidOptionError(`camera: ${key} must be a finite number, got ${String(v)}`);
  }
  if (!(spec.fx > 0 && spec.fy > 0)) throw new InvalidOptionError(`camera: fx and fy must be positive, got ${spec.fx}, ${spec.fy}`);
  const d = spec.distortion ?? [];
  if (!Array.isArray(d) || !d.every((v) => typeof v === 'number' && Number.isFinite(v))) throw new InvalidOptionError('camera: distortion must be a list of finite numbers');
  if (d.length !== 0 && d.length < 4) throw new InvalidOptionError(`camera: distortion needs k1, k2, p1, p2 at least, got ${d.length} numbers`);
  if (d.slice(5).some((v) => v !== 0)) {
    throw new InvalidOptionError('camera: only k1, k2, p1, p2, k3 are modelled (Brown–Conrady); the rational and thin-prism terms must be 0');
  }
  return { fx: spec.fx, fy: spec.fy, cx: spec.cx, cy: spec.cy, distortion: [d[0] ?? 0, d[1] ?? 0, d[2] ?? 0, d[3] ?? 0, d[4] ?? 0] };
}

/** `fx,fy,cx,cy[,k1,k2,p1,p2[,k3]]`, as the command line takes it. */
export function parseCamera(text: string): CameraModel {
  const v = text.split(',').map((s) => Number(s.trim()));
  if (!(v.length === 4 || v.length === 8 || v.length === 9) || v.some((x) => !Number.isFinite(x))) {
    throw new InvalidOptionError(`camera: expected fx,fy,cx,cy[,k1,k2,p1,p2[,k3]] (4, 8 or 9 numbers), got "${text}"`);
  }
  return cameraModel({ fx: v[0], fy: v[1], cx: v[2], cy: v[3], distortion: v.slice(4) });
}

/**
 * The camera of an OpenCV calibration file, as `cv::FileStorage` writes it (YAML or JSON; the matrix named
 * camera_matrix, cameraMatrix, camera-matrix or K, the coefficients distortion_coefficients, dist_coeffs,
 * distCoeffs, distortion or D).
 */
export function readOpenCvCalibration(text: string): CameraModel {
  const matrix = findMatrix(text, ['camera_matrix', 'cameraMatrix', 'camera-matrix', 'K']);
  if (!matrix || matrix.length !== 9) throw new InvalidOptionError('camera: no 3×3 camera_matrix found in the calibration file');
  const [fx, skew, cx, zero1, fy, cy] = matrix;
  if (skew !== 0 || zero1 !== 0 || matrix[6] !== 0 || matrix[7] !== 0 || matrix[8] !== 1) {
    throw new InvalidOptionError(`camera: expected a camera matrix [fx 0 cx; 0 fy cy; 0 0 1], got [${matrix.join(', ')}]`);
  }
  const distortion = findMatrix(text, ['distortion_coefficients', 'dist_coeffs', 'distCoeffs', 'distortion', 'D']) ?? [];
  return cameraModel({ fx, fy, cx, cy, distortion });
}

/**
 * The camera as OpenCV's `cv::FileStorage` writes a calibration (YAML): `camera_matrix`, `distortion_coefficients`
 * (k1, k2, p1, p2, k3), the image size and, when given, the RMS reprojection error. `cv2.FileStorage` and
 * `readOpenCvCalibration` read it back.
 */
export function writeOpenCvCalibration(c: CameraModel, info: { width: number; height: number; error?: number }): string {
  const n = (v: number) => (Number.isInteger(v) ? `${v}.` : String(v));
  const matrix = (name: string, rows: number, cols: number, data: readonly number[]) =>
    `${name}: !!opencv-matrix\n   rows: ${rows}\n   cols: ${cols}\n   dt: d\n   data: [ ${data.map(n).join(', ')} ]\n`;
  return (
    '%YAML:1.0\n---\n' +
    `image_width: ${info.width}\nimage_height: ${info.height}\n` +
    matrix('camera_matrix', 3, 3, [c.fx, 0, c.cx, 0, c.fy, c.cy, 0, 0, 1]) +
    matrix('distortion_coefficients', 1, 5, c.distortion) +
    (info.error === undefined ? '' : `avg_reprojection_error: ${info.error}\n`)
  );
}

/** The `data` of the first matrix node with one of these names, in a FileStorage YAML or JSON text. */
function findMatrix(text: string, names: string[]): number[] | null {
  for (const name of names) {
    // YAML: `name: !!opencv-matrix … data: [ … ]`; JSON: `"name": { "type_id": …, "data": [ … ] }`. The data may
    // span lines; the node's other keys come before it.
    const m = new RegExp(`(?:^|[\\s{,])"?${name}"?\\s*:\\s*(?:!!opencv-matrix)?\\s*\\{?[^\\[]*?\\bdata"?\\s*:\\s*\\[([^\\]]*)\\]`, 'm').exec(text);
    if (!m) continue;
    const values = m[1].split(/[\s,]+/).filter(Boolean).map(Number);
    if (values.some((v) => !Number.isFinite(v))) throw new InvalidOptionError(`camera: ${name} has values that are not numbers`);
    return values;
  }
  return null;
}

const noDistortion = [0, 0, 0, 0, 0] as const;

/**
 * Normalised coordinates (pinhole, undistorted) to pixels, through the lens distortion. Like the other functions
 * here it takes a `CameraModel`; `{ fx, fy, cx, cy }` without distortion (from JavaScript) reads as none.
 */
export function toPixels(c: CameraModel | CameraSpec, x: number, y: number): [number, number] {
  const [k1 = 0, k2 = 0, p1 = 0, p2 = 0, k3 = 0] = c.distortion ?? noDistortion;
  const r2 = x * x + y * y;
  const radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3));
  const xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x);
  const yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y;
  return [c.fx * xd + c.cx, c.fy * yd + c.cy];
}

/**
 * Pixels to normalised coordinates, the distortion undone by fixed-point iteration as OpenCV's `undistortPoints`
 * (until it moves less than 1e-12, at most 50 rounds: enough for the distortion of ordinary lenses over the image).
 */
export function toNormalised(c: CameraModel | CameraSpec, u: number, v: number): [number, number] {
  const x0 = (u - c.cx) / c.fx;
  const y0 = (v - c.cy) / c.fy;
  const [k1 = 0, k2 = 0, p1 = 0, p2 = 0, k3 = 0] = c.distortion ?? noDistortion;
  if (k1 === 0 && k2 === 0 && p1 === 0 && p2 === 0 && k3 === 0) return [x0, y0];
  let [x, y] = [x0, y0];
  for (let i = 0; i < 50; i++) {
    const r2 = x * x + y * y;
    const inverse = 1 / (1 + r2 * (k1 + r2 * (k2 + r2 * k3)));
    const nx = (x0 - 2 * p1 * x * y - p2 * (r2 + 2 * x * x)) * inverse;
    const ny = (y0 - p1 * (r2 + 2 * y * y) - 2 * p2 * x * y) * inverse;
    const moved = Math.abs(nx - x) + Math.abs(ny - y);
    [x, y] = [nx, ny];
    if (moved < 1e-12) break;
  }
  return [x, y];
}

/** Points of an object seen at pose (R, t) (X_camera = R X + t, R row-major), in pixels, as OpenCV's `projectPoints`. */
export function projectPoints(c: CameraModel | CameraSpec, R: readonly number[], t: readonly number[], points: readonly (readonly number[])[]): [number, number][] {
  return points.map((X) => {
    const x = R[0] * X[0] + R[1] * X[1] + R[2] * X[2] + t[0];
    const y = R[3] * X[0] + R[4] * X[1] + R[5] * X[2] + t[1];
    const z = R[6] * X[0] + R[7] * X[1] + R[8] * X[2] + t[2];
    return toPixels(c, x / z, y / z);
  });
}
