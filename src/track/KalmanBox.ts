/**
 * A box's constant-velocity Kalman filter: centre x, centre y, width and height, each a position and a velocity with
 * white-noise acceleration of spectral density q and measurement variance r. With diagonal noise the 8-state filter
 * of SORT and its kind splits exactly into these four independent pairs, each with a 2×2 covariance.
 *
 * The state lives in one Float64Array, five numbers an axis (position, velocity, covariance a, b, c of [[a, b],
 * [b, c]]): V8 keeps a double in an object's field boxed, and the same filter on object fields ran about four times
 * slower (the tracker predicts every track of every frame).
 */
const STRIDE = 5;
const Q_CENTRE = 4 * STRIDE;
const Q_SIZE = Q_CENTRE + 1;
const R = Q_CENTRE + 2;

export class KalmanBox {
  readonly #s = new Float64Array(R + 1);

  /**
   * Starts at `box` = [cx, cy, w, h] at rest. Sizes change slowly: their acceleration density is a hundredth of the
   * centre's `q`; a velocity's initial variance is its axis's q (how fast an object first seen may be moving).
   */
  constructor(box: readonly [number, number, number, number], q: number, r: number) {
    const s = this.#s;
    s[Q_CENTRE] = q;
    s[Q_SIZE] = q / 100;
    s[R] = r;
    for (let axis = 0; axis < 4; axis++) {
      const o = axis * STRIDE;
      s[o] = box[axis];
      s[o + 2] = r;
      s[o + 4] = axis < 2 ? q : s[Q_SIZE];
    }
  }

  /** Position of an axis (0: centre x, 1: centre y, 2: width, 3: height). */
  p(axis: number): number {
    return this.#s[axis * STRIDE];
  }

  /** Velocity of an axis, per second. */
  v(axis: number): number {
    return this.#s[axis * STRIDE + 1];
  }

  /** Variance of an axis's position. */
  variance(axis: number): number {
    return this.#s[axis * STRIDE + 2];
  }

  /**
   * Moves the state dt seconds ahead; `noise` scales the acceleration's density for this step (Tracker.ts,
   * `modelRate`).
   */
  predict(dt: number, noise = 1): void {
    const s = this.#s;
    for (let axis = 0; axis < 4; axis++) {
      const o = axis * STRIDE;
      const q = noise * s[axis < 2 ? Q_CENTRE : Q_SIZE];
      s[o] += s[o + 1] * dt;
      const a = s[o + 2];
      const b = s[o + 3];
      const c = s[o + 4];
      // P = F P Fᵀ + Q, F = [[1, dt], [0, 1]], Q = q [[dt³/3, dt²/2], [dt²/2, dt]].
      s[o + 2] = a + 2 * dt * b + dt * dt * c + (q * dt * dt * dt) / 3;
      s[o + 3] = b + dt * c + (q * dt * dt) / 2;
      s[o + 4] = c + q * dt;
    }
  }

  /**
   * Sets an axis's velocity, its uncertainty kept: for a track that stops being measured (Track.coast),
   * its size held (0) and its centre carried on at the velocity its recent observations show.
   */
  setVelocity(axis: number, v: number): void {
    this.#s[axis * STRIDE + 1] = v;
  }

  /** Moves an axis's position by d, its velocity and uncertainty kept (a group member drawn into its blob). */
  shift(axis: number, d: number): void {
    this.#s[axis * STRIDE] += d;
  }

  /** Folds in a measured position of one axis. */
  update(axis: number, z: number): void {
    const s = this.#s;
    const o = axis * STRIDE;
    const a = s[o + 2];
    const b = s[o + 3];
    const c = s[o + 4];
    const sum = a + s[R];
    const k0 = a / sum;
    const k1 = b / sum;
    const y = z - s[o];
    s[o] += k0 * y;
    s[o + 1] += k1 * y;
    s[o + 2] = (1 - k0) * a;
    s[o + 3] = (1 - k0) * b;
    s[o + 4] = c - k1 * b;
  }
}
