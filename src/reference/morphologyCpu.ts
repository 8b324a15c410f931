/**
 * Binary morphology on the CPU, pixel by pixel: the reference for `morphology()` (nodes/image/morphology.ts). Masks hold
 * 0 or any nonzero value per pixel; results 0 or 255. Pixels outside the frame are ignored (OpenCV's default
 * border for erode and dilate).
 */

import { halfWidth, type MorphStep } from '../image/morphSteps.js';

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

/** An element as `morphology()` takes it: an odd side N (an N×N square), or `{ shape, size: N | [width, height] }`. */
type ElementSpec = number | { shape?: 'square' | 'disk'; size: number | readonly [number, number] };

/**
 * `morphology(options)` on the CPU, read from the options as the operator's documentation says (docs/operators/
 * morphology.md), apart from the runtime's step list: the opening first (erode, then dilate), then the closing
 * (dilate, then erode).
 */
export function morphologyOptionsCpu(mask: ArrayLike<number>, width: number, height: number, options: { open?: ElementSpec; close?: ElementSpec }): Uint8Array {
  const element = (e: ElementSpec) => {
    const { shape = 'square', size } = typeof e === 'number' ? { size: e } : e;
    const [w, h] = typeof size === 'number' ? [size, size] : size;
    return { shape, radiusX: (w - 1) / 2, radiusY: (h - 1) / 2 };
  };
  let m: Uint8Array = Uint8Array.from(mask as ArrayLike<number>, (v) => (v ? 255 : 0));
  const step = (op: MorphStep['op'], e: ElementSpec) => (m = morphStepCpu(m, width, height, { op, ...element(e) }));
  if (options.open !== undefined) {
    step('erode', options.open);
    step('dilate', options.open);
  }
  if (options.close !== undefined) {
    step('dilate', options.close);
    step('erode', options.close);
  }
  return m;
}
