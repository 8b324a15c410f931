/**
 * The background model on the CPU: Zivkovic's adaptive Gaussian mixture (MOG2) per pixel, gray or color, step for
 * step as OpenCV's BackgroundSubtractorMOG2 updates one channel or three and as shaders/common/mog2.wgsl does, every
 * operation rounded to f32 (Math.fround) as the GPU computes it. The reference of `background()`
 * (nodes/image/background.ts).
 */

import { grayFromRgba } from '../image/grayFromRgba.js';
import { learningRateAt, ratioHistogramMedian, type BackgroundSettings } from '../image/backgroundSettings.js';

const f = Math.fround;

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
  /** Channels: 1 (gray) or 3 (color). */
  readonly #c: number;
  /** Mode k of pixel p at k·pixels + p, as on the GPU; channel c of a mode's mean at (k·channels + c)·pixels + p. */
  readonly weights: Float32Array;
  readonly means: Float32Array;
  readonly variances: Float32Array;
  readonly counts: Uint8Array;
  #frame = 0;

  readonly #width: number;
  /** color 'shadows': the color model beside this one (this one then models the frames' gray). */
  readonly #color: BackgroundModelCpu | null;

  constructor(settings: BackgroundSettings, width: number, height: number) {
    const pixels = width * height;
    this.#s = settings;
    this.#pixels = pixels;
    this.#width = width;
    this.#c = settings.color === true ? 3 : 1;
    this.#color = settings.color === 'shadows' ? new BackgroundModelCpu({ ...settings, color: true, prime: null }, width, height) : null;
    this.weights = new Float32Array(settings.mixtures * pixels);
    this.means = new Float32Array(settings.mixtures * this.#c * pixels);
    this.variances = new Float32Array(settings.mixtures * pixels);
    this.counts = new Uint8Array(pixels);
    const prime = settings.prime;
    if (prime) {
      if (prime.width !== width || prime.height !== height) throw new Error(`BackgroundModelCpu: the prime is ${prime.width}×${prime.height}, the model ${width}×${height}`);
      // The prime is the first frame, its masks (all foreground) unused. The color model beside takes it too.
      this.apply(this.#c === 1 && !this.#color && prime.format === 'rgba' ? grayFromRgba(prime.data, pixels) : prime.data);
    }
  }

  /** Pixel p of a frame: [gray], or [r, g, b] of RGBA data in color. */
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
    if (this.#color) {
      const gray = this.#own(grayFromRgba(data, this.#pixels));
      const color = this.#color.apply(data);
      // As shaders/image/backgroundShadows.wgsl: gray's shadow that the color model finds foreground is foreground.
      for (let p = 0; p < this.#pixels; p++) {
        if (gray.shadow[p] && color.mask[p]) {
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
