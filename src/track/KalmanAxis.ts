/**
 * A constant-velocity Kalman filter of one coordinate (position and velocity), with white-noise acceleration of
 * spectral density `q` and measurement variance `r`. A box is four of them (centre x, centre y, width, height): with
 * diagonal noise the 8-state filter of SORT and its kind splits exactly into such independent pairs.
 */
export class KalmanAxis {
  p: number;
  v = 0;
  // Covariance [[a, b], [b, c]].
  a: number;
  b = 0;
  c: number;

  constructor(
    position: number,
    readonly q: number,
    readonly r: number,
    /** Initial velocity variance: how fast an object first seen may be moving. */
    velocityVariance: number,
  ) {
    this.p = position;
    this.a = r;
    this.c = velocityVariance;
  }

  /** Moves the state dt seconds ahead. */
  predict(dt: number): void {
    this.p += this.v * dt;
    const { a, b, c, q } = this;
    // P = F P Fᵀ + Q, F = [[1, dt], [0, 1]], Q = q [[dt³/3, dt²/2], [dt²/2, dt]].
    this.a = a + 2 * dt * b + dt * dt * c + (q * dt * dt * dt) / 3;
    this.b = b + dt * c + (q * dt * dt) / 2;
    this.c = c + q * dt;
  }

  /** Folds in a measured position. */
  update(z: number): void {
    const s = this.a + this.r;
    const k0 = this.a / s;
    const k1 = this.b / s;
    const y = z - this.p;
    this.p += k0 * y;
    this.v += k1 * y;
    const { a, b, c } = this;
    this.a = (1 - k0) * a;
    this.b = (1 - k0) * b;
    this.c = c - k1 * b;
  }
}
