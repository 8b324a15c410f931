/**
 * Blob tracks drawn over the picture: each track's box and trail (from `track()`), one color per id, as line
 * segments in the frame's pixel coordinates; view them with `pixelCamera(width, height)` (the picture as
 * `scene.background`, from CameraBackground). One geometry for all tracks, rewritten in place each frame and grown
 * only when more tracks come than ever before.
 *
 * @example
 * const overlay = new TrackOverlay();
 * scene.add(overlay);
 * results.subscribe((r) => { overlay.follow(r.tracks!); renderer.render(scene, pixelCamera(r.width, r.height)); });
 */
import { BufferAttribute, BufferGeometry, Color, DynamicDrawUsage, Group, LineSegments, OrthographicCamera } from 'three';
import { LineBasicNodeMaterial } from 'three/webgpu';
import type { TrackInfo, TrackResults } from '../core/results.js';
import { InvalidOptionError } from '../core/errors.js';

export interface TrackOverlayOptions {
  /** Which tracks to draw (default confirmed and lost; lost ones at half brightness). */
  states?: readonly TrackInfo['state'][];
  /** Draw each track's trail (default true). */
  trails?: boolean;
}

/**
 * A camera that views the frame's pixels: x right, y down, pixel centres at integers (as flowmark's results). It
 * sits over the frame's middle: three.js draws `scene.background` on a sphere around the camera, 1.5 × the view's
 * height in radius for an orthographic one, so a camera at a corner left the far corner bare. Centred, the picture
 * covers frames up to 2.8 times as wide as high.
 */
export function pixelCamera(width: number, height: number): OrthographicCamera {
  if (!(width > 0 && height > 0)) throw new InvalidOptionError(`pixelCamera: width and height must be positive, got ${width} × ${height}`);
  if (width > 2.8 * height || height > 2.8 * width) throw new InvalidOptionError(`pixelCamera: ${width} × ${height} is wider than 2.8:1, past where three.js's background covers the view`);
  const camera = new OrthographicCamera(-width / 2, width / 2, -height / 2, height / 2, -1, 1);
  camera.position.set((width - 1) / 2, (height - 1) / 2, 0);
  camera.updateMatrixWorld();
  camera.name = 'pixels';
  return camera;
}

/** A color per id, well apart for consecutive ids (golden-ratio hues). */
export function trackColor(id: number, target = new Color()): Color {
  return target.setHSL((id * 0.618034) % 1, 0.85, 0.55);
}

export class TrackOverlay extends Group {
  readonly #states: ReadonlySet<TrackInfo['state']>;
  readonly #trails: boolean;
  readonly #lines: LineSegments<BufferGeometry, LineBasicNodeMaterial>;
  #capacity = 0;
  readonly #color = new Color();

  constructor(options: TrackOverlayOptions = {}) {
    super();
    const states = options.states ?? ['confirmed', 'lost'];
    if (!Array.isArray(states) || states.some((s) => s !== 'tentative' && s !== 'confirmed' && s !== 'lost')) {
      throw new InvalidOptionError(`TrackOverlay: states must list 'tentative', 'confirmed' or 'lost', got ${JSON.stringify(states)}`);
    }
    this.#states = new Set(states);
    this.#trails = options.trails ?? true;
    this.name = 'tracks';
    const material = new LineBasicNodeMaterial({ vertexColors: true, depthTest: false, depthWrite: false });
    this.#lines = new LineSegments(new BufferGeometry(), material);
    this.#lines.name = 'tracks:lines';
    this.#lines.frustumCulled = false;
    this.#lines.renderOrder = 1;
    this.add(this.#lines);
    this.#grow(256);
  }

  /** Line segments drawn this frame. */
  get segments(): number {
    return this.#lines.geometry.drawRange.count / 2;
  }

  /** Draws this frame's tracks. */
  follow(tracks: TrackResults): void {
    let need = 0;
    for (const t of tracks.tracks) if (this.#states.has(t.state)) need += 4 + (this.#trails ? Math.max(0, t.trail.length - 1) : 0);
    if (need > this.#capacity) this.#grow(Math.max(need, this.#capacity * 2));
    const geometry = this.#lines.geometry;
    const pos = geometry.getAttribute('position').array as Float32Array;
    const col = geometry.getAttribute('color').array as Float32Array;
    let v = 0;
    const point = (x: number, y: number, c: Color) => {
      pos[3 * v] = x;
      pos[3 * v + 1] = y;
      pos[3 * v + 2] = 0;
      col[3 * v] = c.r;
      col[3 * v + 1] = c.g;
      col[3 * v + 2] = c.b;
      v++;
    };
    for (const t of tracks.tracks) {
      if (!this.#states.has(t.state)) continue;
      const c = trackColor(t.id, this.#color);
      if (t.state === 'lost') c.multiplyScalar(0.5);
      // Inclusive pixel bounds: the box's edge lies half a pixel outside its outer pixels' centres.
      const [x0, y0, x1, y1] = [t.box[0] - 0.5, t.box[1] - 0.5, t.box[2] + 0.5, t.box[3] + 0.5];
      point(x0, y0, c), point(x1, y0, c);
      point(x1, y0, c), point(x1, y1, c);
      point(x1, y1, c), point(x0, y1, c);
      point(x0, y1, c), point(x0, y0, c);
      if (this.#trails) {
        for (let i = 1; i < t.trail.length; i++) {
          point(t.trail[i - 1][0], t.trail[i - 1][1], c);
          point(t.trail[i][0], t.trail[i][1], c);
        }
      }
    }
    geometry.setDrawRange(0, v);
    geometry.getAttribute('position').needsUpdate = true;
    geometry.getAttribute('color').needsUpdate = true;
  }

  /** Gives the geometry and material back to the renderer. */
  override dispose(): void {
    // Object3D's own dispose tells its listeners.
    super.dispose();
    this.#lines.geometry.dispose();
    this.#lines.material.dispose();
  }

  /** A new geometry (a renderer keeps a geometry's GPU buffers at their first size). */
  #grow(segments: number): void {
    const old = this.#lines.geometry;
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(new Float32Array(segments * 6), 3).setUsage(DynamicDrawUsage));
    geometry.setAttribute('color', new BufferAttribute(new Float32Array(segments * 6), 3).setUsage(DynamicDrawUsage));
    geometry.setDrawRange(0, 0);
    this.#lines.geometry = geometry;
    old.dispose();
    this.#capacity = segments;
  }
}
