/**
 * The background model's settings (MOG2's, with OpenCV's names and defaults, and flowmark's additions), its learning
 * rate per frame and the lighting gain's median: the rules `background()` (nodes/image/background.ts) and its CPU
 * reference (src/reference/backgroundCpu.ts) share.
 */

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
   * summed over the channels, as OpenCV's MOG2 on color frames. The shadow test then asks for the background's
   * color scaled, where on gray any darker pixel within the ratio passes for shadow (dark objects included). Three
   * times the memory for the means.
   * 'shadows' (not in OpenCV): a gray model and a color one side by side on RGBA frames; the foreground is gray's,
   * and of what gray calls shadow, what the color model finds foreground is foreground (a dark object whose color
   * is not the background's). A video's color is stored at half resolution and compressed harder than its
   * brightness: a color model's foreground spreads past the objects' edges and joins neighbours, gray's does not.
   */
  color: boolean | 'shadows';
  /**
   * The model's first frame, given rather than taken from the stream (not in OpenCV; null, the default, is its
   * behaviour): an image of the empty scene, such as `videoFileBackground`'s median of frames spread over a video's
   * first seconds. The model starts with one mode per pixel there, so what stands in view in the stream's first frame
   * is foreground from that frame on, and leaves no ghost when it goes: no warmup is needed to learn it away. The
   * stream's frames then count from 2 (learningRate -1: their rates are those after one frame). Gray, or RGBA where
   * the model is color (`color` true or 'shadows'); RGBA for a gray model is taken as its gray. Its size must be the
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
