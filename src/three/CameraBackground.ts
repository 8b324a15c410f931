/**
 * The camera picture behind a three.js scene, with no copy through the CPU: `capture()` (an operator, early in
 * the chain) writes each frame's pixels, already on the GPU, into a texture the frame owns, in the frame's own
 * command encoder; `readResults()` hands it over as `result.picture`; `show(result)` copies it (GPU to GPU) into
 * the one texture the scene samples, so the picture drawn is the frame whose poses are drawn over it, whatever
 * number of frames is in flight.
 *
 * @example
 * const background = new CameraBackground(ctx);
 * fromCamera(ctx).pipe(background.capture(), markers(), readResults(), pose({ camera, markerSize: 0.05 }))
 *   .subscribe((r) => { scene.background = background.show(r); renderer.render(scene, camera); });
 *
 * Ownership: a frame's texture is its own from `capture()` until `readResults()` hands it over (a later frame never
 * writes it meanwhile); a texture handed over stays the result's until a later result is shown, or until
 * `keep` (default 3) later pictures were handed over without being shown. The renderer must be on the context's
 * device (`createRenderer(ctx)`). Throws `InvalidFrameError` on the stream for a frame with neither RGBA nor gray
 * pixels, `InvalidOptionError` to `show` for a result without a picture from this background.
 */
import type { OperatorFunction } from 'rxjs';
import { ExternalTexture, SRGBColorSpace } from 'three';
import type { GpuContext } from '../core/GpuContext.js';
import { withRead, type GpuFrame } from '../core/GpuFrame.js';
import { gpuNode } from '../core/gpuNode.js';
import { PassRecorder } from '../core/PassRecorder.js';
import { uniformLayout } from '../core/uniforms.js';
import { DisposedError, InvalidFrameError, InvalidOptionError } from '../core/errors.js';
import type { FramePicture, ResultValues } from '../core/results.js';

export interface CameraBackgroundOptions {
  /** Pictures handed over and not shown that are kept for `show` (default 3); older ones are reused. */
  keep?: number;
}

interface Slot {
  readonly texture: GPUTexture;
  readonly view: GPUTextureView;
  readonly width: number;
  readonly height: number;
  /** free; frame: a frame in the chain owns it; handed: its result owns it. */
  state: 'free' | 'frame' | 'handed';
  seq: number;
  picture: FramePicture | null;
}

const kernels = {
  fromRgba: { shader: 'sources/frameTexture', entryPoint: 'fromRgba', bindings: ['uniform', 'read-only-storage', 'rgba8-out'] },
  fromGray: { shader: 'sources/frameTexture', entryPoint: 'fromGray', bindings: ['uniform', 'read-only-storage', 'rgba8-out'] },
} as const;

export class CameraBackground {
  readonly #ctx: GpuContext;
  readonly #keep: number;
  readonly #slots: Slot[] = [];
  #shown: { gpu: GPUTexture; texture: ExternalTexture } | null = null;
  #disposed = false;
  #made = 0;

  constructor(ctx: GpuContext, options: CameraBackgroundOptions = {}) {
    const keep = options.keep ?? 3;
    if (!Number.isInteger(keep) || keep < 1 || keep > 16) throw new InvalidOptionError(`CameraBackground: keep must be an integer 1..16, got ${keep}`);
    this.#ctx = ctx;
    this.#keep = keep;
  }

  /** The texture the scene samples (`scene.background`), once a picture was shown; a new one when the size changes. */
  get texture(): ExternalTexture | null {
    return this.#shown?.texture ?? null;
  }

  /** Textures made so far (the frames in flight plus `keep`, at most, for one frame size). */
  get textures(): number {
    return this.#slots.length;
  }

  /** The operator that writes each frame's picture into a texture the frame owns (adds `result.picture`). */
  capture(): OperatorFunction<GpuFrame, GpuFrame> {
    return gpuNode('cameraBackground', async (node) => {
      if (node.ctx !== this.#ctx) throw new InvalidOptionError('CameraBackground: capture() is on a stream of another GpuContext');
      const k = await node.kernels(kernels);
      const layout = uniformLayout('sources/frameTexture', 'Params');
      const sets = node.perFrame((size, alloc) => ({ params: alloc.uniform('params', layout, { width: size.width, height: size.height }) }));
      return (f) => {
        if (this.#disposed) throw new DisposedError('CameraBackground: disposed while its stream runs');
        const pixels = f.rgba ?? f.gray;
        if (!pixels) throw new InvalidFrameError('cameraBackground: the frame has neither RGBA nor gray pixels');
        const set = sets.take(f);
        const slot = this.#take(f.width, f.height, f.seq);
        f.lease.hold(() => {
          // Dropped or failed before its results were read: nobody will show it.
          if (slot.state === 'frame') slot.state = 'free';
        });
        const kernel = f.rgba ? k.fromRgba : k.fromGray;
        const rec = PassRecorder.of(f, 'cameraBackground');
        rec.items('write', kernel, set.bind(f.rgba ? 'rgba' : 'gray', kernel, [set.params, pixels, slot.view]), f.width * f.height);
        rec.end();
        return withRead(f, {
          key: 'picture',
          buffer: set.params,
          offset: 0,
          size: 0,
          decode: (): FramePicture => {
            slot.state = 'handed';
            slot.picture = { texture: slot.texture, width: slot.width, height: slot.height, seq: f.seq };
            return slot.picture;
          },
        });
      };
    });
  }

  /**
   * Shows a result's picture: copies it, on the GPU, into the scene's texture, and returns that texture (set it as
   * `scene.background`). Pictures handed over before this one go back for reuse.
   */
  show(result: ResultValues): ExternalTexture {
    if (this.#disposed) throw new DisposedError('CameraBackground: show() after dispose()');
    const picture = result.picture;
    const slot = picture && this.#slots.find((s) => s.picture === picture && s.state === 'handed');
    if (!slot) throw new InvalidOptionError('CameraBackground.show: the result has no picture of this background (put capture() before readResults(); a picture is kept until a later one is shown)');
    const { device } = this.#ctx;
    let shown = this.#shown;
    if (!shown || shown.gpu.width !== slot.width || shown.gpu.height !== slot.height) {
      this.#dropShown();
      const gpu = device.createTexture({
        label: 'cameraBackground:shown',
        size: [slot.width, slot.height],
        // The camera's bytes are sRGB-encoded: sampled through an -srgb view they come out linear, as three.js
        // works, and its output encodes them back (the same bytes on the canvas).
        format: 'rgba8unorm-srgb',
        usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
      });
      const texture = new ExternalTexture(gpu);
      texture.colorSpace = SRGBColorSpace;
      // three.js samples a background with v up (its uploads put an image's bottom row first); this texture has the
      // frame's top row first, so v is turned over by the texture's transform.
      texture.repeat.set(1, -1);
      texture.offset.set(0, 1);
      // Sizes three.js reads from a texture's image (this one has none: its pixels are already on the GPU).
      (texture as { image: unknown }).image = { width: slot.width, height: slot.height };
      shown = this.#shown = { gpu, texture };
    }
    const encoder = device.createCommandEncoder({ label: 'cameraBackground:show' });
    encoder.copyTextureToTexture({ texture: slot.texture }, { texture: shown.gpu }, [slot.width, slot.height]);
    // Submitted before any later frame's passes can be: the copy reads the picture before it is reused.
    this.#ctx.submit([encoder.finish()]);
    for (const s of this.#slots) if (s.state === 'handed' && s.seq <= slot.seq) this.#free(s);
    return shown.texture;
  }

  /** Destroys every texture (the scene's too); streams through `capture()` must have ended. Idempotent. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const s of this.#slots.splice(0)) s.texture.destroy();
    this.#dropShown();
  }

  #take(width: number, height: number, seq: number): Slot {
    // Pictures handed over but never shown: all but the newest `keep` go back.
    const handed = this.#slots.filter((s) => s.state === 'handed').sort((a, b) => b.seq - a.seq);
    for (const s of handed.slice(this.#keep)) this.#free(s);
    let slot = this.#slots.find((s) => s.state === 'free' && s.width === width && s.height === height);
    if (!slot) {
      // Free textures of another size wait for frames that may never come.
      for (const s of this.#slots.filter((x) => x.state === 'free')) {
        s.texture.destroy();
        this.#slots.splice(this.#slots.indexOf(s), 1);
      }
      const texture = this.#ctx.device.createTexture({
        label: `cameraBackground:picture${this.#made++}`,
        size: [width, height],
        format: 'rgba8unorm',
        usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC,
      });
      slot = { texture, view: texture.createView({ label: `${texture.label}:view` }), width, height, state: 'free', seq: -1, picture: null };
      this.#slots.push(slot);
    }
    slot.state = 'frame';
    slot.seq = seq;
    slot.picture = null;
    return slot;
  }

  #free(slot: Slot): void {
    slot.state = 'free';
    slot.picture = null;
  }

  #dropShown(): void {
    if (!this.#shown) return;
    this.#shown.texture.dispose();
    this.#shown.gpu.destroy();
    this.#shown = null;
  }
}
