/**
 * What is wrong with raw pixels given as an image (`{ width, height, format, data }`: fromPixels' frames, a
 * background's prime, medianImage's images), said the same way for each, or null when nothing is: each caller
 * throws it as its own error, named for where the image came from.
 */
export function imageProblem(img: { width?: unknown; height?: unknown; format?: unknown; data?: unknown } | null | undefined): string | null {
  const { width, height, format, data } = img ?? {};
  if (!Number.isInteger(width) || !Number.isInteger(height) || (width as number) < 1 || (height as number) < 1) {
    return `width and height must be positive integers, got ${String(width)}×${String(height)}`;
  }
  if (format !== 'rgba' && format !== 'gray') return `format must be 'rgba' or 'gray', got ${String(format)}`;
  const expected = (width as number) * (height as number) * (format === 'rgba' ? 4 : 1);
  if (!(data instanceof Uint8Array || data instanceof Uint8ClampedArray)) {
    const kind = data == null ? 'no data' : Array.isArray(data) ? 'an Array' : ArrayBuffer.isView(data) ? `a ${data.constructor.name}` : typeof data;
    return `${width}×${height} ${format} needs its ${expected} bytes in a Uint8Array or Uint8ClampedArray, got ${kind}`;
  }
  if (data.length !== expected) return `${width}×${height} ${format} needs ${expected} bytes, got ${data.length}`;
  return null;
}
