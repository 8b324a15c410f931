/**
 * Morphology's steps and structuring elements: what `morphology()` (nodes/image/morphology.ts) records and its CPU
 * reference (src/reference/morphologyCpu.ts) applies.
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
 * OpenCV's MORPH_ELLIPSE of size (2rx + 1, 2ry + 1) (the GPU computes the same in shaders/image/morphology.wgsl, in f32:
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
