/**
 * Frames that arrive as images the GPU can copy (a camera's video element, a WebCodecs `VideoFrame`) go into a
 * texture with `copyExternalImageToTexture` (no CPU copy), then a compute pass recorded in the frame's encoder
 * packs them into the RGBA storage buffer every node reads, turned as displayed (a video's track header). One
 * texture and buffer per in-flight slot, so a new frame never overwrites one still in use.
 *
 * Some browsers cannot share a video frame with WebGPU's device (headless Chromium on Vulkan without a GPU): there
 * the copy fails validation and leaves the texture unwritten. So the first frames are
 * also drawn on a 2D canvas and written with `writeTexture` after the copy (queue order: the write wins) while the
 * copy's error scope is pending; once it resolves, frames take the copy alone, or the canvas alone if it failed.
 */
import type { GpuContext } from '../../src/core/GpuContext.js';
import type { Kernel } from '../../src/core/PipelineCache.js';
import type { ProfileScope } from '../../src/core/Profiler.js';
import { bindGroup } from '../../src/core/kernels.js';
import { PassRecorder } from '../../src/core/PassRecorder.js';
import { packUniform, uniformLayout } from '../../src/core/uniforms.js';
import { displayTransform, type DisplayTransform } from './displayTransform.js';

interface Slot {
  texture: GPUTexture;
  rgba: GPUBuffer;
  params: GPUBuffer;
  group: GPUBindGroup;
  w: number;
  h: number;
  turn: string;
}

/** How frames reach the texture: `copyExternalImageToTexture`, a 2D canvas's pixels, or not yet known. */
export type UploadPath = 'external' | 'canvas' | 'checking';

export class TextureUploader {
  readonly #ctx: GpuContext;
  readonly #label: string;
  readonly #slots: Slot[] = [];
  #kernel: Kernel | null = null;
  #path: UploadPath = 'checking';
  #checking = false;
  #canvas: OffscreenCanvasRenderingContext2D | null = null;

  constructor(ctx: GpuContext, label: string) {
    this.#ctx = ctx;
    this.#label = label;
  }

  async ready(): Promise<void> {
    this.#kernel ??= await this.#ctx.pipelines.acquire({ shader: 'sources/fromTexture', entryPoint: 'pack', bindings: ['uniform', 'texture', 'storage'] });
  }

  /**
   * Copies `source` (w×h as decoded) into slot `i` now (a queue operation) and returns the packed buffer, turned as
   * `display` says (a video's track header; none by default), with its size, and the pass that fills it, to record
   * into the frame's encoder.
   */
  upload(
    i: number,
    source: GPUCopyExternalImageSource,
    w: number,
    h: number,
    display?: DisplayTransform,
  ): { rgba: GPUBuffer; width: number; height: number; record(encoder: GPUCommandEncoder, profile: ProfileScope | null): void } {
    const ctx = this.#ctx;
    // The same turn on this frame's own size (a stream's frames may change size).
    const turn = display ? displayTransform(w, h, [display.a, display.b, 0, display.c, display.d]) : displayTransform(w, h);
    const key = `${turn.a},${turn.b},${turn.c},${turn.d}`;
    let s = this.#slots[i];
    if (!s || s.w !== w || s.h !== h || s.turn !== key) {
      if (s) this.#free(s);
      const layout = uniformLayout('sources/fromTexture', 'Params');
      const texture = ctx.device.createTexture({
        label: `${this.#label}:texture${i}`,
        size: [w, h],
        format: 'rgba8unorm',
        usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.RENDER_ATTACHMENT,
      });
      const rgba = ctx.pool.acquire(`${this.#label}:rgba${i}`, w * h * 4, GPUBufferUsage.STORAGE);
      const params = ctx.pool.acquire(`${this.#label}:params${i}`, layout.size, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
      const { a, b, c, d, tx, ty } = turn;
      ctx.device.queue.writeBuffer(params, 0, packUniform(layout, { width: turn.width, height: turn.height, a, b, c, d, tx, ty }));
      const group = bindGroup(ctx.device, `${this.#label}:slot${i}`, this.#kernel!, [params, texture.createView(), rgba]);
      s = this.#slots[i] = { texture, rgba, params, group, w, h, turn: key };
    }
    if (this.#path === 'external') ctx.device.queue.copyExternalImageToTexture({ source }, { texture: s.texture }, [w, h]);
    else if (this.#path === 'canvas') this.#drawn(source, s.texture, w, h);
    else {
      if (!this.#checking) {
        this.#checking = true;
        ctx.device.pushErrorScope('validation');
        ctx.device.queue.copyExternalImageToTexture({ source }, { texture: s.texture }, [w, h]);
        void ctx.device.popErrorScope().then((e) => (this.#path = e ? 'canvas' : 'external'));
      }
      this.#drawn(source, s.texture, w, h);
    }
    const slot = s;
    return {
      rgba: slot.rgba,
      width: turn.width,
      height: turn.height,
      record: (encoder, profile) => {
        const rec = new PassRecorder(encoder, profile, this.#label, ctx.limits.maxComputeWorkgroupsPerDimension);
        rec.items('pack', this.#kernel!, slot.group, w * h);
        rec.end();
      },
    };
  }

  /** How the latest frames went to the GPU. */
  get path(): UploadPath {
    return this.#path;
  }

  /** `source` drawn on a 2D canvas, its pixels written into `texture`. */
  #drawn(source: GPUCopyExternalImageSource, texture: GPUTexture, w: number, h: number): void {
    let g = this.#canvas;
    if (!g || g.canvas.width !== w || g.canvas.height !== h) {
      g = this.#canvas = new OffscreenCanvas(w, h).getContext('2d', { willReadFrequently: true })!;
    }
    g.drawImage(source as CanvasImageSource, 0, 0, w, h);
    const pixels = g.getImageData(0, 0, w, h).data;
    this.#ctx.device.queue.writeTexture({ texture }, pixels, { bytesPerRow: w * 4, rowsPerImage: h }, [w, h]);
  }

  #free(s: Slot): void {
    s.texture.destroy();
    this.#ctx.pool.release(s.rgba);
    this.#ctx.pool.release(s.params);
  }

  dispose(): void {
    this.#slots.splice(0).forEach((s) => s && this.#free(s));
    this.#ctx.pipelines.release(this.#kernel);
    this.#kernel = null;
    this.#canvas = null;
  }
}
