/**
 * Rotations as row-major 3×3 matrices, as OpenCV's rotation vectors (axis × angle, `cv::Rodrigues`) and as unit
 * quaternions [x, y, z, w] (three.js's order). A pose maps a point X of the object to the camera: R X + t.
 */
export type Vec3 = [number, number, number];
/** Row-major: m[3 * row + column]. */
export type Mat3 = number[];

export function mul3(a: Mat3, b: Mat3): Mat3 {
  const m = new Array<number>(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
  return m;
}

export function transpose3(a: Mat3): Mat3 {
  return [a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]];
}

export function apply3(a: Mat3, v: readonly number[]): Vec3 {
  return [a[0] * v[0] + a[1] * v[1] + a[2] * v[2], a[3] * v[0] + a[4] * v[1] + a[5] * v[2], a[6] * v[0] + a[7] * v[1] + a[8] * v[2]];
}

/** The rotation of a rotation vector (its direction the axis, its length the angle in radians). */
export function rotationFromVector(r: readonly number[]): Mat3 {
  const theta = Math.hypot(r[0], r[1], r[2]);
  if (theta < 1e-12) return [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const [x, y, z] = [r[0] / theta, r[1] / theta, r[2] / theta];
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  const C = 1 - c;
  return [c + x * x * C, x * y * C - z * s, x * z * C + y * s, y * x * C + z * s, c + y * y * C, y * z * C - x * s, z * x * C - y * s, z * y * C + x * s, c + z * z * C];
}

/** The rotation vector of a rotation (angle in [0, π]), as `cv::Rodrigues` gives it. */
export function vectorFromRotation(m: Mat3): Vec3 {
  const cos = Math.max(-1, Math.min(1, (m[0] + m[4] + m[8] - 1) / 2));
  const theta = Math.acos(cos);
  const w: Vec3 = [m[7] - m[5], m[2] - m[6], m[3] - m[1]];
  if (theta < 1e-6) return [w[0] / 2, w[1] / 2, w[2] / 2];
  if (Math.PI - theta > 1e-4) {
    const k = theta / (2 * Math.sin(theta));
    return [w[0] * k, w[1] * k, w[2] * k];
  }
  // Near a half turn sin θ vanishes: the axis is the column of (R + I) / 2 = a aᵀ with the largest diagonal, its
  // sign set by the antisymmetric part (what is left of it).
  const d = [(m[0] + 1) / 2, (m[4] + 1) / 2, (m[8] + 1) / 2];
  const i = d[0] >= d[1] && d[0] >= d[2] ? 0 : d[1] >= d[2] ? 1 : 2;
  const a = [0, 1, 2].map((j) => (j === i ? Math.sqrt(Math.max(0, d[i])) : (m[3 * i + j] + m[3 * j + i]) / 4 / Math.sqrt(Math.max(1e-300, d[i]))));
  const n = Math.hypot(a[0], a[1], a[2]);
  const sign = a[0] * w[0] + a[1] * w[1] + a[2] * w[2] < 0 ? -1 : 1;
  return [(sign * theta * a[0]) / n, (sign * theta * a[1]) / n, (sign * theta * a[2]) / n];
}

/** The unit quaternion [x, y, z, w] of a rotation (w ≥ 0). */
export function quaternionFromRotation(m: Mat3): [number, number, number, number] {
  const r = vectorFromRotation(m);
  const theta = Math.hypot(r[0], r[1], r[2]);
  if (theta < 1e-12) return [0, 0, 0, 1];
  const s = Math.sin(theta / 2) / theta;
  return [r[0] * s, r[1] * s, r[2] * s, Math.cos(theta / 2)];
}

/** The angle in radians of the rotation that takes a to b. */
export function rotationBetween(a: Mat3, b: Mat3): number {
  const m = mul3(transpose3(a), b);
  return Math.acos(Math.max(-1, Math.min(1, (m[0] + m[4] + m[8] - 1) / 2)));
}
