/**
 * Binary morphology on the CPU, pixel by pixel: the reference for `morphology()` (nodes/morphology.ts). Masks hold
 * 0 or any nonzero value per pixel; results 0 or 255. Pixels outside the frame are ignored (OpenCV's default
 * border for erode and dilate).
 */

export type MorphShape = 'square' | 'disk';

/**
 * One step of a morphology chain: an erosion or a dilation by an element 2·radiusX + 1 wide and 2·radiusY + 1 tall:
 * a square (a rectangle where the radii differ) or a disk (an ellipse).
 */
export interface MorphStep {
  op: 'erode' | 'dilate';
  shape: MorphShape;
  radiusX: number;
  radiusY: number;
}

/**
 * Half-width of the element's row dy (|dy| <= ry): rx for a square; round(rx·sqrt(ry² - dy²)/ry) for a disk, as
 * OpenCV's MORPH_ELLIPSE of size (2rx + 1, 2ry + 1) (the GPU computes the same in shaders/morphology.wgsl, in f32:
 * no value lies within 2e-4 of a rounding tie for radii up to 15, so both round alike). A disk one row tall (ry = 0)
 * is a line 2rx + 1 wide (OpenCV's is one pixel).
 */
export function halfWidth(shape: MorphShape, rx: number, ry: number, dy: number): number {
  if (shape === 'square' || ry === 0) return rx;
  return Math.round((rx * Math.sqrt(ry * ry - dy * dy)) / ry);
}

/** The steps of an opening (erode, then dilate) or a closing (dilate, then erode). */
export function morphSteps(kind: 'open' | 'close', shape: MorphShape, radiusX: number, radiusY = radiusX): MorphStep[] {
  const [first, second]: MorphStep['op'][] = kind === 'open' ? ['erode', 'dilate'] : ['dilate', 'erode'];
  return [first, second].map((op) => ({ op, shape, radiusX, radiusY }));
}

export function morphStepCpu(mask: ArrayLike<number>, width: number, height: number, step: MorphStep): Uint8Array {
  const out = new Uint8Array(width * height);
  const erode = step.op === 'erode';
  const { radiusX: rx, radiusY: ry } = step;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Erosion: set unless a pixel of the element inside the frame is clear; dilation: set if any is set.
      let hit = erode;
      scan: for (let dy = -ry; dy <= ry; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        const k = halfWidth(step.shape, rx, ry, dy);
        for (let dx = Math.max(-k, -x); dx <= k && x + dx < width; dx++) {
          if ((mask[yy * width + x + dx] !== 0) !== erode) {
            hit = !erode;
            break scan;
          }
        }
      }
      out[y * width + x] = hit ? 255 : 0;
    }
  }
  return out;
}

/** Runs the steps in order. */
export function morphologyCpu(mask: ArrayLike<number>, width: number, height: number, steps: readonly MorphStep[]): Uint8Array {
  return steps.reduce<Uint8Array>((m, s) => morphStepCpu(m, width, height, s), Uint8Array.from(mask as ArrayLike<number>, (v) => (v ? 255 : 0)));
}
