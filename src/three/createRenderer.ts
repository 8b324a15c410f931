/**
 * three.js's WebGPURenderer on flowmark's GPU device, so that the renderer samples what flowmark's operators wrote
 * (the camera picture, CameraBackground) with no copy between devices or through the CPU; or the reverse, a
 * flowmark context on the device of a renderer the application already has.
 *
 * @example
 * const ctx = await GpuContext.create();
 * const renderer = await createRenderer(ctx, { canvas, width: 640, height: 480 });
 * // or: const ctx = await contextForRenderer(renderer);  (an initialised WebGPURenderer)
 *
 * Throws `InvalidOptionError` for a bad size or a renderer that is not WebGPU-backed.
 */
import { UnsignedByteType, WebGPURenderer } from 'three/webgpu';
import { GpuContext } from '../core/GpuContext.js';
import { InvalidOptionError } from '../core/errors.js';

export interface CreateRendererOptions {
  /**
   * Where to draw (an HTMLCanvasElement or OffscreenCanvas). Without one, in a browser three.js makes a canvas; in
   * Node (no DOM) the renderer draws into an offscreen texture, `offscreenTexture(renderer)`.
   */
  canvas?: HTMLCanvasElement | OffscreenCanvas;
  /** The drawing buffer's size in pixels: the camera frame's, for a picture drawn one to one. */
  width: number;
  height: number;
  /** Multisampled edges (default true). */
  antialias?: boolean;
}

export async function createRenderer(ctx: GpuContext, options: CreateRendererOptions): Promise<WebGPURenderer> {
  const { width, height } = options;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new InvalidOptionError(`createRenderer: width and height must be positive integers, got ${width}×${height}`);
  }
  const antialias = options.antialias ?? true;
  // three.js asks a canvas for its size and a context for the texture of each frame; Node's missing DOM has neither.
  const target = options.canvas || typeof document !== 'undefined' ? null : new OffscreenTarget(ctx.device, width, height);
  const renderer = target
    ? // UnsignedByteType output: bgra8unorm, without asking navigator.gpu for the preferred format.
      new WebGPURenderer({ device: ctx.device, canvas: target.canvas as unknown as HTMLCanvasElement, context: target as unknown as GPUCanvasContext, antialias, outputType: UnsignedByteType })
    : new WebGPURenderer({ device: ctx.device, canvas: options.canvas as HTMLCanvasElement | undefined, antialias });
  await renderer.init();
  if (target) {
    offscreen.set(renderer, target);
    // three.js's per-frame clock runs on requestAnimationFrame, which Node lacks: a 60 Hz timer that does not keep
    // the process alive stands in for it.
    const animation = (renderer as unknown as { _animation?: { setContext(c: unknown): void } })._animation;
    animation?.setContext({
      requestAnimationFrame: (cb: (t: number) => void) => setTimeout(() => cb(performance.now()), 1000 / 60).unref(),
      cancelAnimationFrame: (t: ReturnType<typeof setTimeout>) => clearTimeout(t),
    });
  }
  // One drawing-buffer pixel per camera pixel; the page's CSS scales the canvas.
  renderer.setPixelRatio(1);
  renderer.setSize(width, height, false);
  return renderer;
}

/**
 * What three.js needs of a canvas and its WebGPU context, over a texture (Node has no DOM): the texture is the
 * drawing buffer, resized with the renderer.
 */
class OffscreenTarget {
  readonly canvas: { width: number; height: number; style: Record<string, string> };
  #texture: GPUTexture | null = null;
  #format: GPUTextureFormat = 'bgra8unorm';
  #usage: GPUTextureUsageFlags = GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC;

  constructor(
    private readonly device: GPUDevice,
    width: number,
    height: number,
  ) {
    this.canvas = { width, height, style: {} };
  }

  configure(c: GPUCanvasConfiguration): void {
    this.#format = c.format;
    this.#usage = (c.usage ?? GPUTextureUsage.RENDER_ATTACHMENT) | GPUTextureUsage.COPY_SRC;
  }

  unconfigure(): void {
    this.#texture?.destroy();
    this.#texture = null;
  }

  getCurrentTexture(): GPUTexture {
    const { width, height } = this.canvas;
    if (!this.#texture || this.#texture.width !== width || this.#texture.height !== height || this.#texture.format !== this.#format) {
      this.#texture?.destroy();
      this.#texture = this.device.createTexture({ label: 'three:offscreen', size: [width, height], format: this.#format, usage: this.#usage });
    }
    return this.#texture;
  }
}

const offscreen = new WeakMap<WebGPURenderer, OffscreenTarget>();

/** The texture a renderer made by `createRenderer` without a canvas (in Node) draws into: bgra8unorm, the canvas's size. */
export function offscreenTexture(renderer: WebGPURenderer): GPUTexture {
  const target = offscreen.get(renderer);
  if (!target) throw new InvalidOptionError('offscreenTexture: this renderer draws into a canvas (made by createRenderer with a canvas, or in a browser)');
  return target.getCurrentTexture();
}

/** A flowmark context on an initialised WebGPURenderer's device (the renderer keeps owning the device). */
export async function contextForRenderer(renderer: WebGPURenderer, label = 'three'): Promise<GpuContext> {
  const device = (renderer.backend as { device?: GPUDevice | null }).device;
  if (!device || typeof device.createComputePipelineAsync !== 'function') {
    throw new InvalidOptionError('contextForRenderer: the renderer has no WebGPU device (await renderer.init(); a WebGL fallback cannot share one)');
  }
  return GpuContext.create({ device, label });
}
