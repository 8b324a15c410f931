/**
 * Binary morphology on the CPU, pixel by pixel: the reference for `morphology()` (nodes/morphology.ts). Masks hold
 * 0 or any nonzero value per pixel; results 0 or 255. Pixels outside the frame are ignored (OpenCV's default
 * border for erode and dilate).
 */

export type MorphShape = 'square' | 'disk';

/** One step of a morphology chain: an erosion or a dilation by a square or disk of side 2·radius + 1. */
export interface MorphStep {
  op: 'erode' | 'dilate';
  shape: MorphShape;
  radius: number;
}

/**
 * Half-width of the element's row dy: r for a square; round(sqrt(r² - dy²)) for a disk, as OpenCV's MORPH_ELLIPSE
 * of side 2r + 1 (the GPU computes the same in shaders/morphology.wgsl).
 */
export function halfWidth(shape: MorphShape, radius: number, dy: number): number {
  return shape === 'square' ? radius : Math.round(Math.sqrt(radius * radius - dy * dy));
}

/** The steps of an opening (erode, then dilate) or a closing (dilate, then erode). */
export function morphSteps(kind: 'open' | 'close', shape: MorphShape, radius: number): MorphStep[] {
  const [first, second]: MorphStep['op'][] = kind === 'open' ? ['erode', 'dilate'] : ['dilate', 'erode'];
  return [{ op: first, shape, radius }, { op: second, shape, radius }];
}

export function morphStepCpu(mask: ArrayLike<number>, width: number, height: number, step: MorphStep): Uint8Array {
  const out = new Uint8Array(width * height);
  const erode = step.op === 'erode';
  const r = step.radius;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Erosion: set unless a pixel of the element inside the frame is clear; dilation: set if any is set.
      let hit = erode;
      scan: for (let dy = -r; dy <= r; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        const k = halfWidth(step.shape, r, dy);
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
