/**
 * The background model on the CPU: Zivkovic's adaptive Gaussian mixture (MOG2) per pixel, gray or colour, step for
 * step as OpenCV's BackgroundSubtractorMOG2 updates one channel or three and as shaders/common/mog2.wgsl does, every
 * operation rounded to f32 (Math.fround) as the GPU computes it. The reference of `background()`
 * (nodes/background.ts).
 */

import { grayFromRgba } from './thresholdCpu.js';

/** An image of the scene without what moves, to start a model from (`BackgroundSettings.prime`): raw pixels, row-major, no padding. */
export interface PrimeImage {
  width: number;
  height: number;
  format: 'gray' | 'rgba';
  /** width·height bytes for gray, width·height·4 for RGBA. */
  data: Uint8Array | Uint8ClampedArray;
}

/** MOG2's parameters, OpenCV's names in the comments; defaults are OpenCV's. */
export interface BackgroundSettings {
  /** Frames the learning rate averages over (history): alpha = 1 / min(2·frame, history). */
  history: number;
  /** Squared distance in variances within which a pixel matches a background mode (varThreshold). */
  varThreshold: number;
  /** Mark shadows (a darker copy of the background) apart from foreground (detectShadows). */
  detectShadows: boolean;
  /** A shadow is at least this fraction of the background's brightness (shadowThreshold, tau). */
  shadowThreshold: number;
  /** Most Gaussians per pixel (nmixtures), 1..8. */
  mixtures: number;
  /** Weight the background modes make up (backgroundRatio). */
  backgroundRatio: number;
  /** Squared distance in variances within which a pixel updates a mode rather than making one (varThresholdGen). */
  varThresholdGen: number;
  /** Variance of a new mode, and its bounds (varInit, varMin, varMax). */
  varInit: number;
  varMin: number;
  varMax: number;
  /** Prior that drops modes with too little support (complexityReductionThreshold). */
  complexityReduction: number;
  /** A fixed learning rate in [0, 1], or -1 for 1 / min(2·frame, history) (learningRate of apply()). */
  learningRate: number;
  /**
   * With a fixed learningRate: the first `warmup` frames learn at OpenCV's starting rate 1/(2·frame) where that is
   * faster (not in OpenCV; 0, the default, is its behaviour). The first frame's pixels are all the model knows, and
   * at a slow fixed rate whatever stood there (people in view when a camera starts) stays a ghost for about
   * 0.1/(rate·foregroundLearning) frames once it has gone; a short warmup learns what it reveals in the first frames,
   * where OpenCV's own start (to history/2 frames) also takes in the insides of slow plain objects for seconds.
   */
  warmup: number;
  /**
   * Factor on the learning rate of pixels found foreground, in [0, 1] (not in OpenCV: 1 is its behaviour). Below 1,
   * what stops (a parked car, a person waiting) stays foreground about 1/foregroundLearning times longer: with a
   * fixed rate 1/history, about 0.1·history/foregroundLearning frames. 0 never learns it.
   */
  foregroundLearning: number;
  /**
   * Divide each frame by its gain against the model before learning and testing it (not in OpenCV: false is its
   * behaviour): the median ratio of gray to the background over one pixel in 16, so a change of exposure or light
   * over the whole scene (a step or a ramp) is not taken for foreground. Moving objects, a minority of the pixels,
   * do not move the median.
   */
  compensateLighting: boolean;
  /**
   * true: model the three channels of RGBA frames (not gray): a mode's mean per channel and one variance, distances
   * summed over the channels, as OpenCV's MOG2 on colour frames. The shadow test then asks for the background's
   * colour scaled, where on gray any darker pixel within the ratio passes for shadow (dark objects included). Three
   * times the memory for the means.
   * 'shadows' (not in OpenCV): a gray model and a colour one side by side on RGBA frames; the foreground is gray's,
   * and of what gray calls shadow, what the colour model finds foreground is foreground (a dark object whose colour
   * is not the background's). A video's colour is stored at half resolution and compressed harder than its
   * brightness: a colour model's foreground spreads past the objects' edges and joins neighbours, gray's does not.
   */
  color: boolean | 'shadows';
  /**
   * The model's first frame, given rather than taken from the stream (not in OpenCV; null, the default, is its
   * behaviour): an image of the empty scene, such as `videoFileBackground`'s median of frames spread over a video's
   * first seconds. The model starts with one mode per pixel there, so what stands in view in the stream's first frame
   * is foreground from that frame on, and leaves no ghost when it goes: no warmup is needed to learn it away. The
   * stream's frames then count from 2 (learningRate -1: their rates are those after one frame). Gray, or RGBA where
   * the model is colour (`color` true or 'shadows'); RGBA for a gray model is taken as its gray. Its size must be the
   * frames'.
   */
  prime: PrimeImage | null;
}

export const defaultBackgroundSettings: Readonly<BackgroundSettings> = {
  history: 500,
  varThreshold: 16,
  detectShadows: true,
  shadowThreshold: 0.5,
  mixtures: 5,
  backgroundRatio: 0.9,
  varThresholdGen: 9,
  varInit: 15,
  varMin: 4,
  varMax: 75,
  complexityReduction: 0.05,
  learningRate: -1,
  warmup: 0,
  foregroundLearning: 1,
  compensateLighting: false,
  color: false,
  prime: null,
};

/**
 * The learning rate of the model's `frame`-th frame (1-based), as OpenCV picks it (the first always learns at 1/2),
 * and within `warmup` frames at least 1/(2·frame). A primed model (its first frame the prime) picking its rate from
 * history learns at 1/history from its second frame: the prime stands for a scene seen over a stretch, and OpenCV's
 * fast start (1/4, 1/6, …) would learn what stands in view in a few frames, which the prime is there to prevent: it
 * learns as at a fixed rate of 1/history, warmup included.
 */
export function learningRateAt(s: BackgroundSettings, frame: number): number {
  const rate = s.learningRate < 0 && s.prime ? 1 / s.history : s.learningRate;
  if (rate < 0 || frame <= 1) return 1 / Math.min(2 * frame, s.history);
  return frame <= s.warmup ? Math.max(rate, 1 / (2 * frame)) : rate;
}

const f = Math.fround;

/**
 * The median of a lighting histogram (512 bins of 1/128 of brightness ratio), interpolated within its bin, each step
 * rounded by `round` (Math.fround where it stands for the GPU's f32); 1 with fewer than 32 samples. As
 * shaders/common/mog2.wgsl's lightGain; `BackgroundModelCpu.gain` and medianImage's `lightGain` walk it.
 */
export function ratioHistogramMedian(histogram: Uint32Array, round: (x: number) => number = (x) => x): number {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total < 32) return 1;
  const half = round(total * 0.5);
  let below = 0;
  for (let b = 0; b < histogram.length; b++) {
    const n = histogram[b];
    if (below + n >= half) return round(round(b + round(round(half - below) / n)) / 128);
    below += n;
  }
  return 1;
}

/** a·b over the channels in f32 steps (one channel: the product). */
function dot(a: number[], b: number[]): number {
  let t = f(a[0] * b[0]);
  for (let c = 1; c < a.length; c++) t = f(t + f(a[c] * b[c]));
  return t;
}

const squared = (d: number[]) => dot(d, d);

export class BackgroundModelCpu {
  readonly #s: BackgroundSettings;
  readonly #pixels: number;
  /** Channels: 1 (gray) or 3 (colour). */
  readonly #c: number;
  /** Mode k of pixel p at k·pixels + p, as on the GPU; channel c of a mode's mean at (k·channels + c)·pixels + p. */
  readonly weights: Float32Array;
  readonly means: Float32Array;
  readonly variances: Float32Array;
  readonly counts: Uint8Array;
  #frame = 0;

  readonly #width: number;
  /** color 'shadows': the colour model beside this one (this one then models the frames' gray). */
  readonly #colour: BackgroundModelCpu | null;

  constructor(settings: BackgroundSettings, width: number, height: number) {
    const pixels = width * height;
    this.#s = settings;
    this.#pixels = pixels;
    this.#width = width;
    this.#c = settings.color === true ? 3 : 1;
    this.#colour = settings.color === 'shadows' ? new BackgroundModelCpu({ ...settings, color: true, prime: null }, width, height) : null;
    this.weights = new Float32Array(settings.mixtures * pixels);
    this.means = new Float32Array(settings.mixtures * this.#c * pixels);
    this.variances = new Float32Array(settings.mixtures * pixels);
    this.counts = new Uint8Array(pixels);
    const prime = settings.prime;
    if (prime) {
      if (prime.width !== width || prime.height !== height) throw new Error(`BackgroundModelCpu: the prime is ${prime.width}×${prime.height}, the model ${width}×${height}`);
      // The prime is the first frame, its masks (all foreground) unused. The colour model beside takes it too.
      this.apply(this.#c === 1 && !this.#colour && prime.format === 'rgba' ? grayFromRgba(prime.data, pixels) : prime.data);
    }
  }

  /** Pixel p of a frame: [gray], or [r, g, b] of RGBA data in colour. */
  #pixel(data: ArrayLike<number>, p: number): number[] {
    return this.#c === 1 ? [data[p]] : [data[4 * p], data[4 * p + 1], data[4 * p + 2]];
  }

  /** Channel sum (the brightness the lighting gain compares), in f32 steps. */
  static #sum(x: number[]): number {
    let t = x[0];
    for (let c = 1; c < x.length; c++) t = f(t + x[c]);
    return t;
  }

  /** Mean of mode k of pixel p, per channel. */
  #mean(k: number, p: number): number[] {
    return Array.from({ length: this.#c }, (_, c) => this.means[(k * this.#c + c) * this.#pixels + p]);
  }

  /**
   * Updates the model with a frame (gray, one byte a pixel; RGBA with `color`); foreground (shadows excluded) and
   * shadow masks, 0 or 255.
   */
  apply(data: ArrayLike<number>): { mask: Uint8Array; shadow: Uint8Array } {
    if (this.#colour) {
      const gray = this.#own(grayFromRgba(data, this.#pixels));
      const colour = this.#colour.apply(data);
      // As shaders/backgroundShadows.wgsl: gray's shadow that the colour model finds foreground is foreground.
      for (let p = 0; p < this.#pixels; p++) {
        if (gray.shadow[p] && colour.mask[p]) {
          gray.mask[p] = 255;
          gray.shadow[p] = 0;
        }
      }
      return gray;
    }
    return this.#own(data);
  }

  /** This model's step (gray, or RGBA with color true). */
  #own(data: ArrayLike<number>): { mask: Uint8Array; shadow: Uint8Array } {
    const s = this.#s;
    const alpha = f(learningRateAt(s, ++this.#frame));
    const prune = f(-alpha * f(s.complexityReduction));
    const mask = new Uint8Array(this.#pixels);
    const shadow = new Uint8Array(this.#pixels);
    const gain = s.compensateLighting ? this.gain(data) : 1;
    for (let p = 0; p < this.#pixels; p++) {
      const x = this.#pixel(data, p);
      const kind = this.#update(p, gain === 1 ? x : x.map((v) => f(v / gain)), alpha, prune);
      if (kind === 1) mask[p] = 255;
      if (kind === 2) shadow[p] = 255;
    }
    return { mask, shadow };
  }

  /**
   * The gain of a frame against the model as it stands (before the frame): the median of brightness (gray, or the
   * channels' sum) over the heaviest mode's, over every fourth column of every fourth row, where the model has a
   * mode, its mean is 16 or more a channel and no channel of the pixel is saturated; from a histogram of 512 bins
   * of 1/128, interpolated within the median's bin; 1 with fewer than 32 such pixels. As shaders/common/mog2.wgsl
   * (lightHistogram, lightGain).
   */
  gain(data: ArrayLike<number>): number {
    const histogram = new Uint32Array(512);
    const w = this.#width;
    const h = this.#pixels / w;
    for (let y = 0; y < h; y += 4) {
      for (let x = 0; x < w; x += 4) {
        const p = y * w + x;
        const mean = BackgroundModelCpu.#sum(this.#mean(0, p));
        const v = this.#pixel(data, p);
        if (this.counts[p] === 0 || mean < 16 * this.#c || Math.max(...v) >= 255) continue;
        histogram[Math.min(511, Math.floor(f(f(BackgroundModelCpu.#sum(v) / mean) * 128)))]++;
      }
    }
    return ratioHistogramMedian(histogram, f);
  }

  #update(p: number, x: number[], alpha: number, prune: number): 0 | 1 | 2 {
    const P = this.#pixels;
    const C = this.#c;
    const used = this.counts[p];
    const load = () => ({
      W: Array.from({ length: used }, (_, k) => this.weights[k * P + p]),
      M: Array.from({ length: used }, (_, k) => this.#mean(k, p)),
      V: Array.from({ length: used }, (_, k) => this.variances[k * P + p]),
    });
    let m = load();
    let r = this.#learn(x, used, alpha, prune, m.W, m.M, m.V);
    const background = r.background;
    // A pixel found foreground learns again from its old modes at foregroundLearning × the rate.
    const factor = f(this.#s.foregroundLearning);
    if (!background && factor < 1) {
      m = load();
      r = this.#learn(x, used, f(alpha * factor), f(prune * factor), m.W, m.M, m.V);
    }
    const { W, M, V } = m;
    const n = r.n;
    for (let k = 0; k < n; k++) {
      this.weights[k * P + p] = W[k];
      for (let c = 0; c < C; c++) this.means[(k * C + c) * P + p] = M[k][c];
      this.variances[k * P + p] = V[k];
    }
    this.counts[p] = n;
    if (background) return 0;
    return this.#s.detectShadows && this.#isShadow(x, n, W, M, V) ? 2 : 1;
  }

  /** One MOG2 step of the modes W, M, V (`used` of them, changed in place) with pixel x at rate alpha. */
  #learn(x: number[], used: number, alpha: number, prune: number, W: number[], M: number[][], V: number[]): { background: boolean; n: number } {
    const s = this.#s;
    const modes = s.mixtures;
    let n = used;
    const swap = (i: number, j: number) => {
      [W[i], W[j]] = [W[j], W[i]];
      [M[i], M[j]] = [M[j], M[i]];
      [V[i], V[j]] = [V[j], V[i]];
    };
    const keep = f(1 - alpha);
    const Tb = f(s.varThreshold);
    const Tg = f(s.varThresholdGen);
    const TB = f(s.backgroundRatio);
    let total = 0;
    let background = false;
    let fits = false;
    // As OpenCV: a pruned mode shortens the loop (the last mode is dropped), and a matched mode bubbles up.
    for (let k = 0; k < n; k++) {
      let weight = f(f(keep * W[k]) + prune);
      let swaps = 0;
      if (!fits) {
        const v = V[k];
        const d = M[k].map((m, c) => f(m - x[c]));
        const d2 = squared(d);
        if (total < TB && d2 < f(Tb * v)) background = true;
        if (d2 < f(Tg * v)) {
          fits = true;
          weight = f(weight + alpha);
          const g = f(alpha / weight);
          M[k] = M[k].map((m, c) => f(m - f(g * d[c])));
          V[k] = Math.min(Math.max(f(v + f(g * f(d2 - v))), f(s.varMin)), f(s.varMax));
          for (let i = k; i > 0; i--) {
            if (weight < W[i - 1]) break;
            swaps++;
            swap(i, i - 1);
          }
        }
      }
      if (weight < -prune) {
        weight = 0;
        n--;
      }
      W[k - swaps] = weight;
      total = f(total + weight);
    }
    if (total > 0) {
      const inv = f(1 / total);
      for (let k = 0; k < n; k++) W[k] = f(W[k] * inv);
    }
    if (!fits && alpha > 0) {
      let k = modes - 1;
      if (n < modes) k = n++;
      if (n === 1) {
        W[k] = 1;
      } else {
        W[k] = alpha;
        for (let i = 0; i + 1 < n; i++) W[i] = f(W[i] * keep);
      }
      M[k] = x.slice();
      V[k] = f(s.varInit);
      for (let i = n - 1; i > 0; i--) {
        if (alpha < W[i - 1]) break;
        swap(i, i - 1);
      }
    }
    return { background, n };
  }

  /** OpenCV's detectShadowGMM, over the updated modes. */
  #isShadow(x: number[], n: number, W: number[], M: number[][], V: number[]): boolean {
    const s = this.#s;
    let total = 0;
    for (let k = 0; k < n; k++) {
      const num = dot(M[k], x);
      const den = dot(M[k], M[k]);
      if (den === 0) return false;
      if (num <= den && num >= f(f(s.shadowThreshold) * den)) {
        const a = f(num / den);
        const d = M[k].map((m, c) => f(f(a * m) - x[c]));
        if (squared(d) < f(f(f(f(s.varThreshold) * V[k]) * a) * a)) return true;
      }
      total = f(total + W[k]);
      if (total > f(s.backgroundRatio)) return false;
    }
    return false;
  }
}
