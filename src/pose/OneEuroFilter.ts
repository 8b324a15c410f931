/**
 * The One Euro filter (Casiez, Roussel & Vogel, CHI 2012): a low-pass filter whose cutoff rises with the signal's
 * speed, so that a still signal is smoothed hard (jitter gone) and a moving one is followed with little lag.
 * cutoff = minCutoff + beta · |filtered speed|. Lower `minCutoff` (Hz) for less jitter at rest; raise `beta` (per
 * unit of the signal's speed, e.g. per pixel/s) for less lag in motion. The speed itself is low-passed at
 * `derivativeCutoff` Hz.
 */
export interface OneEuroSettings {
  /** Hz: the cutoff at rest (default 0.5 for marker corners in pixels). */
  minCutoff: number;
  /** Cutoff added per unit of speed (default 0.05 for corners in pixels: a corner moving 100 px/s is cut at 5.5 Hz). */
  beta: number;
  /** Hz: the cutoff of the speed estimate (default 1). */
  derivativeCutoff: number;
}

export const defaultOneEuroSettings: Readonly<OneEuroSettings> = { minCutoff: 0.5, beta: 0.05, derivativeCutoff: 1 };

const smoothing = (cutoff: number, dt: number) => {
  const tau = 1 / (2 * Math.PI * cutoff);
  return 1 / (1 + tau / dt);
};

/** One filter over a vector of n values sampled together (a marker's eight corner coordinates). */
export class OneEuroFilter {
  readonly #s: OneEuroSettings;
  #x: Float64Array | null = null;
  #dx: Float64Array;

  constructor(
    readonly size: number,
    settings: OneEuroSettings = defaultOneEuroSettings,
  ) {
    this.#s = settings;
    this.#dx = new Float64Array(size);
  }

  /** Filters a sample taken dt seconds after the previous one; returns the filtered values (a new array). */
  filter(values: ArrayLike<number>, dt: number): Float64Array {
    const s = this.#s;
    if (!this.#x) {
      this.#x = Float64Array.from(values);
      return this.#x.slice();
    }
    const x = this.#x;
    // A repeated timestamp: nothing new to filter by.
    if (!(dt > 0)) return x.slice();
    const ad = smoothing(s.derivativeCutoff, dt);
    // One speed for the vector (its largest component): the corners of a marker move together.
    let speed = 0;
    for (let i = 0; i < this.size; i++) {
      this.#dx[i] += ad * ((values[i] - x[i]) / dt - this.#dx[i]);
      speed = Math.max(speed, Math.abs(this.#dx[i]));
    }
    const a = smoothing(s.minCutoff + s.beta * speed, dt);
    for (let i = 0; i < this.size; i++) x[i] += a * (values[i] - x[i]);
    return x.slice();
  }

  reset(): void {
    this.#x = null;
    this.#dx.fill(0);
  }
}
