/**
 * Background subtraction on the GPU: a per-pixel adaptive Gaussian mixture on gray (Zivkovic's MOG2, step for step
 * as OpenCV's BackgroundSubtractorMOG2, with its parameters and defaults), kept in GPU buffers from frame to frame.
 * Each frame updates the model and leaves the moving foreground as `frame.mask` (shadows excluded) and the shadows
 * (darker copies of the background) as `frame.shadow`, ready for `morphology()`, `label()` and `features()`.
 * `color: true` models RGBA frames' color as OpenCV does; `color: 'shadows'` runs a gray model and a color one
 * side by side and takes the foreground from gray, the color model deciding only which of gray's shadows are
 * objects (shaders/image/backgroundShadows.wgsl).
 *
 * @example
 * fromVideoFile(ctx, 'street.mp4').pipe(background({ history: 500 }), morphology({ open: 3, close: 5 }),
 *   features({ minArea: 50 }), readResults())
 *
 * The model restarts when the frame size changes. The first frame is all foreground (the model has nothing yet; all
 * shadow where shadows are detected, OpenCV's 127), as OpenCV's, unless the model starts from `prime`, an image of the
 * empty scene (`videoFileBackground`, `cameraPrime`); with the rate from history, a primed model then learns at
 * 1/history from the start, not at OpenCV's fast start (learningRateAt). Throws
 * `InvalidOptionError` for bad options; `InvalidFrameError` on the stream for a frame with no pixels, one whose model
 * would not fit the device's storage bindings, or one not of the prime's size.
 */
import type { OperatorFunction } from 'rxjs';
import { gpuNode } from '../../src/core/gpuNode.js';
import { withFrame, type GpuFrame } from '../../src/core/GpuFrame.js';
import type { FrameLease } from '../../src/core/FrameLease.js';
import type { Kernel, KernelSpec } from '../../src/core/PipelineCache.js';
import { packUniform, uniformLayout } from '../../src/core/uniforms.js';
import { wordsFor } from '../../src/core/dispatch.js';
import { PassRecorder } from '../../src/core/PassRecorder.js';
import { InvalidFrameError, InvalidOptionError } from '../../src/core/errors.js';
import { imageProblem } from '../../src/core/imageProblem.js';
import { defaultBackgroundSettings, learningRateAt, type BackgroundSettings, type PrimeImage } from '../../src/image/backgroundSettings.js';
import { grayFromRgba } from '../../src/image/grayFromRgba.js';
import { adaptiveKernels } from './threshold.js';
import { checkOptions } from '../../src/core/checkOptions.js';

export type BackgroundOptions = Partial<BackgroundSettings>;

/** `options` over the defaults, validated (also what the CPU reference takes: `new BackgroundModelCpu(settings, width, height)`). */
export function backgroundSettings(options: BackgroundOptions = {}): BackgroundSettings {
  checkOptions('background', options, Object.keys(defaultBackgroundSettings));
  const s = { ...defaultBackgroundSettings, ...options };
  const check = (ok: boolean, what: string, value: unknown) => {
    if (!ok) throw new InvalidOptionError(`background: ${what}, got ${String(value)}`);
  };
  const num = (v: number) => typeof v === 'number' && Number.isFinite(v);
  check(Number.isInteger(s.history) && s.history >= 1, 'history must be a positive integer', s.history);
  check(Number.isInteger(s.mixtures) && s.mixtures >= 1 && s.mixtures <= 8, 'mixtures must be an integer 1..8', s.mixtures);
  check(typeof s.detectShadows === 'boolean', 'detectShadows must be a boolean', s.detectShadows);
  for (const key of ['varThreshold', 'varThresholdGen', 'varInit', 'varMin', 'varMax'] as const) {
    check(num(s[key]) && s[key] > 0, `${key} must be a positive number`, s[key]);
  }
  check(s.varMin <= s.varMax && s.varInit >= s.varMin && s.varInit <= s.varMax, 'needs varMin <= varInit <= varMax', `${s.varMin}, ${s.varInit}, ${s.varMax}`);
  check(num(s.backgroundRatio) && s.backgroundRatio > 0 && s.backgroundRatio <= 1, 'backgroundRatio must be in (0, 1]', s.backgroundRatio);
  check(num(s.shadowThreshold) && s.shadowThreshold > 0 && s.shadowThreshold < 1, 'shadowThreshold must be in (0, 1)', s.shadowThreshold);
  check(num(s.complexityReduction) && s.complexityReduction >= 0 && s.complexityReduction < 1, 'complexityReduction must be in [0, 1)', s.complexityReduction);
  check(num(s.learningRate) && (s.learningRate === -1 || (s.learningRate >= 0 && s.learningRate <= 1)), 'learningRate must be -1 (from history) or in [0, 1]', s.learningRate);
  check(Number.isInteger(s.warmup) && s.warmup >= 0, 'warmup must be a whole number of frames (0 or more)', s.warmup);
  check(num(s.foregroundLearning) && s.foregroundLearning >= 0 && s.foregroundLearning <= 1, 'foregroundLearning must be in [0, 1]', s.foregroundLearning);
  check(typeof s.compensateLighting === 'boolean', 'compensateLighting must be a boolean', s.compensateLighting);
  check(typeof s.color === 'boolean' || s.color === 'shadows', "color must be true, false or 'shadows'", s.color);
  checkPrime(s);
  return s;
}

/** `prime` null, or an image whose data fits its size and format, RGBA where the model is color. */
function checkPrime(s: BackgroundSettings): void {
  const p = s.prime;
  if (p === null) return;
  const fail = (what: string) => {
    throw new InvalidOptionError(`background: prime ${what}`);
  };
  if (typeof p !== 'object') fail(`must be null or an image { width, height, format, data }, got ${String(p)}`);
  const problem = imageProblem(p);
  if (problem) fail(problem);
  if (s.color !== false && p.format !== 'rgba') fail(`must be RGBA for a color model (color: ${s.color === true ? 'true' : "'shadows'"}), got gray`);
}

/**
 * The planes of a model whose first frame was `prime` (pixels: gray, or RGBA in color), as MOG2's first step leaves
 * them: one mode a pixel, of weight 1, mean the pixel, variance varInit (shaders/common/mog2.wgsl, backgroundCpu.ts).
 */
function primedPlanes(s: BackgroundSettings, prime: PrimeImage, color: boolean) {
  const pixels = prime.width * prime.height;
  const channels = color ? 3 : 1;
  const gray = !color && prime.format === 'rgba' ? grayFromRgba(prime.data, pixels) : prime.data;
  const means = new Float32Array(channels * pixels);
  for (let p = 0; p < pixels; p++) {
    // A mode's channel c lies at (k·channels + c)·pixels + p; k is 0 here.
    if (color) for (let c = 0; c < 3; c++) means[c * pixels + p] = prime.data[4 * p + c];
    else means[p] = gray[p];
  }
  const counts = new Uint8Array(wordsFor(pixels) * 4);
  counts.fill(1, 0, pixels);
  return { weights: new Float32Array(pixels).fill(1), means, variances: new Float32Array(pixels).fill(s.varInit), counts };
}

// A model's three kernels share one layout and one bind group: the lighting ones read the model and write `light`.
const modelKernel = (s: BackgroundSettings, color: boolean, entryPoint: string): KernelSpec => ({
  shader: color ? 'image/backgroundColor' : 'image/background',
  entryPoint,
  bindings: ['uniform', 'read-only-storage', 'storage', 'storage', 'storage', 'storage', 'storage', 'storage', 'storage'],
  constants: entryPoint === 'lightGain' ? {} : { MODES: s.mixtures },
});

const modelKernels = (s: BackgroundSettings, color: boolean) => ({
  mog2: modelKernel(s, color, 'mog2'),
  lightHistogram: modelKernel(s, color, 'lightHistogram'),
  lightGain: modelKernel(s, color, 'lightGain'),
});

const shadowsByColor: KernelSpec = { shader: 'image/backgroundShadows', entryPoint: 'shadowsByColor', bindings: ['uniform', 'storage', 'storage', 'read-only-storage'] };

/** Words of the lighting buffer: the ratio histogram and the gain; samples each lightHistogram invocation counts (shaders/common/mog2.wgsl). */
const lightWords = 513;
const samplesPerInvocation = 4;

/** The model of one frame size: weights, means (a plane per channel) and variances of the modes, the packed mode counts and the lighting histogram. */
interface Model {
  size: string;
  planes: GPUBuffer[];
  counts: GPUBuffer;
  light: GPUBuffer;
  /** Frames the model has learnt from (OpenCV's nframes). */
  frames: number;
  /** The lease of the last frame that used it: the model is given back only once that frame is done. */
  lastLease: FrameLease | null;
}

type ModelKernels = Record<keyof ReturnType<typeof modelKernels>, Kernel>;

export function background(options: BackgroundOptions = {}): OperatorFunction<GpuFrame, GpuFrame> {
  const s = backgroundSettings(options);
  /** The uniform of a frame of `base`'s size learning at rate alpha. */
  const paramValues = (base: Record<string, number>, alpha: number) => ({
    ...base,
    alpha,
    prune: -alpha * s.complexityReduction,
    varThreshold: s.varThreshold,
    varThresholdGen: s.varThresholdGen,
    backgroundRatio: s.backgroundRatio,
    varInit: s.varInit,
    varMin: s.varMin,
    varMax: s.varMax,
    shadows: s.detectShadows ? 1 : 0,
    tau: s.shadowThreshold,
    foregroundLearning: s.foregroundLearning,
    compensate: s.compensateLighting ? 1 : 0,
  });
  // 'shadows': a gray model and a color one side by side (shaders/image/backgroundShadows.wgsl says why); without shadow
  // detection gray has no shadows to ask the color model about, and the gray model alone gives the same masks.
  const both = s.color === 'shadows' && s.detectShadows;
  return gpuNode('background', async (node) => {
    const k = await node.kernels({ gray: adaptiveKernels.gray, ...modelKernels(s, s.color === true) });
    const kc = both ? await node.kernels({ ...modelKernels(s, true), shadowsByColor }) : null;
    const layout = uniformLayout('image/background', 'Params');
    const { pool } = node.ctx;
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    // The model the mask comes from, and in 'shadows' the color model beside it.
    let model: Model | null = null;
    let colorModel: Model | null = null;
    const drop = (m: Model | null) => {
      if (!m) return;
      const giveBack = () => [...m.planes, m.counts, m.light].forEach((b) => pool.release(b));
      if (m.lastLease) m.lastLease.hold(giveBack);
      else giveBack();
    };
    node.onDispose(() => {
      drop(model);
      drop(colorModel);
    });

    const sets = node.perFrame((size, alloc) => {
      const pixels = size.width * size.height;
      const words = wordsFor(pixels);
      const base = { width: size.width, height: size.height, pixels, words };
      return {
        base,
        words,
        // Written every frame: the learning rate changes until the history is full.
        params: alloc.uniform('params', layout, paramValues(base, 0)),
        gray: alloc.buffer('gray', words * 4, GPUBufferUsage.STORAGE),
        mask: alloc.buffer('mask', words * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC),
        shadow: alloc.buffer('shadow', words * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC),
        // 'shadows': the color model's masks (its shadows are written, not read).
        colorMask: both ? alloc.buffer('colorMask', words * 4, GPUBufferUsage.STORAGE) : null,
        colorShadow: both ? alloc.buffer('colorShadow', words * 4, GPUBufferUsage.STORAGE) : null,
      };
    });

    /** Bytes of a model's means (a plane per channel, in one binding: the kernel already has eight storage bindings), refused where they do not fit one. */
    const meanBytesFor = (f: GpuFrame, color: boolean): number => {
      const meanBytes = s.mixtures * f.width * f.height * 4 * (color ? 3 : 1);
      const limit = node.ctx.limits.maxStorageBufferBindingSize;
      if (meanBytes > limit) {
        throw new InvalidFrameError(`background: ${f.width}×${f.height} with ${s.mixtures} mixtures${color ? ' in color' : ''} needs ${meanBytes} bytes for the modes' means, over this device's ${limit}-byte storage binding limit`);
      }
      return meanBytes;
    };

    const newModel = (f: GpuFrame, size: string, color: boolean): Model => {
      const pixels = f.width * f.height;
      const planeBytes = s.mixtures * pixels * 4;
      const meanBytes = meanBytesFor(f, color);
      const name = color && both ? 'background:color' : 'background';
      const planes = (['weights', 'means', 'variances'] as const).map((plane) => pool.acquire(`${name}:${plane}`, plane === 'means' ? meanBytes : planeBytes, usage));
      const counts = pool.acquire(`${name}:counts`, wordsFor(pixels) * 4, usage);
      const light = pool.acquire(`${name}:light`, lightWords * 4, usage);
      // The histogram starts empty; the gain is written before it is read.
      f.encoder.clearBuffer(light);
      if (!s.prime) {
        // No modes yet (a pooled buffer holds old contents): the planes are read only below each pixel's count.
        f.encoder.clearBuffer(counts);
        return { size, planes, counts, light, frames: 0, lastLease: null };
      }
      // Fresh from the pool, these buffers are in no frame's hands: written now, they are ready before this frame's
      // commands run. Only mode 0 is written: a pixel's count is 1.
      const primed = primedPlanes(s, s.prime, color);
      const queue = node.ctx.device.queue;
      queue.writeBuffer(planes[0], 0, primed.weights);
      queue.writeBuffer(planes[1], 0, primed.means);
      queue.writeBuffer(planes[2], 0, primed.variances);
      queue.writeBuffer(counts, 0, primed.counts);
      return { size, planes, counts, light, frames: 1, lastLease: null };
    };

    const modelFor = (f: GpuFrame): Model => {
      const size = `${f.width}x${f.height}`;
      if (model?.size === size) return model;
      // A frame too large for the color model, or not of the prime's size, is refused before a model is made.
      if (both) meanBytesFor(f, true);
      if (s.prime && (s.prime.width !== f.width || s.prime.height !== f.height)) {
        throw new InvalidFrameError(`background: the prime is ${s.prime.width}×${s.prime.height}, this frame ${f.width}×${f.height}`);
      }
      const next = newModel(f, size, s.color === true);
      const nextColor = both ? newModel(f, size, true) : null;
      drop(model);
      drop(colorModel);
      model = next;
      colorModel = nextColor;
      return model;
    };

    /** Records one model's update of this frame into `rec`: its lighting gain if compensated, then MOG2. */
    const record = (rec: PassRecorder, kk: ModelKernels, group: GPUBindGroup, f: GpuFrame, words: number, prefix: string) => {
      if (s.compensateLighting) {
        rec.items(`${prefix}lightHistogram`, kk.lightHistogram, group, Math.ceil((Math.ceil(f.width / 4) * Math.ceil(f.height / 4)) / samplesPerInvocation));
        rec.grid(`${prefix}lightGain`, kk.lightGain, group, 1);
      }
      rec.items(`${prefix}mog2`, kk.mog2, group, words);
    };

    return (f) => {
      if (!f.rgba && !f.gray) throw new InvalidFrameError('background: the frame has neither RGBA nor gray pixels');
      if (s.color && !f.rgba) throw new InvalidFrameError(`background: color: ${s.color === true ? 'true' : "'shadows'"} needs RGBA frames (fromVideoFile's format: 'rgba'), this one is gray`);
      const m = modelFor(f);
      const set = sets.take(f);
      // The set, its uniform included, belongs to this frame alone: writing it now touches no frame in flight.
      node.ctx.device.queue.writeBuffer(set.params, 0, packUniform(layout, paramValues(set.base, learningRateAt(s, ++m.frames))));
      m.lastLease = f.lease;
      const gray = f.gray ?? set.gray;
      const rec = PassRecorder.of(f, 'background');
      // threshold.wgsl's luma kernel reads only width..words, the first fields of this uniform too.
      if (!f.gray) rec.items('gray', k.gray, set.bind('gray', k.gray, [set.params, f.rgba!, set.gray]), set.words);
      // The model reads the RGBA pixels in color; the gray image is still made for what follows (features' gray sums).
      record(rec, k, set.bind('mog2', k.mog2, [set.params, s.color === true ? f.rgba! : gray, ...m.planes, m.counts, set.mask, set.shadow, m.light]), f, set.words, '');
      if (kc && colorModel) {
        const c = colorModel;
        c.lastLease = f.lease;
        record(rec, kc, set.bind('colorMog2', kc.mog2, [set.params, f.rgba!, ...c.planes, c.counts, set.colorMask!, set.colorShadow!, c.light]), f, set.words, 'color:');
        rec.items('shadowsByColor', kc.shadowsByColor, set.bind('shadowsByColor', kc.shadowsByColor, [set.params, set.mask, set.shadow, set.colorMask!]), set.words);
      }
      rec.end();
      return withFrame(f, { gray, mask: set.mask, shadow: set.shadow });
    };
  });
}
