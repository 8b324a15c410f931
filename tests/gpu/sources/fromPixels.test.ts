// fromPixels: images checked against the device's limits before anything is uploaded.
import { describe, expect, it } from 'vitest';
import { GpuContext, InvalidFrameError, type PixelImage } from '../../../index.js';
import { validateImage } from '../../../nodes/sources/fromPixels.js';
import { gray } from '../../support/gpu.js';

describe('fromPixels', () => {
  it('refuses a frame beyond the device limits, or with the wrong data length, with InvalidFrameError', () => {
    // A device whose storage bindings hold 4096 bytes: a u32 per pixel for 1024 pixels.
    const limits = { maxStorageBufferBindingSize: 4096, maxBufferSize: 1 << 20 };
    const maxFramePixels = Object.getOwnPropertyDescriptor(GpuContext.prototype, 'maxFramePixels')!.get!.call({ limits });
    expect(maxFramePixels).toBe(1024);
    const small = { limits, maxFramePixels } as unknown as GpuContext;
    expect(() => validateImage(small, gray(33, 32, new Uint8Array(33 * 32)), 0)).toThrow(InvalidFrameError);
    expect(() => validateImage(small, gray(32, 32, new Uint8Array(32 * 32)), 0)).not.toThrow();
    expect(() => validateImage(small, gray(8, 8, new Uint8Array(10)), 3)).toThrow(/image 3: 8×8 gray needs 64 bytes, got 10/);
    // The right length in the wrong kind of array says which kind it got.
    const floats = { width: 2, height: 2, format: 'gray', data: new Float32Array(4) } as unknown as PixelImage;
    expect(() => validateImage(small, floats, 1)).toThrow(/image 1: 2×2 gray needs its 4 bytes in a Uint8Array or Uint8ClampedArray, got a Float32Array/);
    expect(() => validateImage(small, { ...floats, data: [1, 2, 3, 4] } as unknown as PixelImage, 2)).toThrow(/got an Array/);
  });
});
