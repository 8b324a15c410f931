// GPU-free units: dispatch math, cache keys, uniform reflection, in-flight leases.
import { describe, expect, it } from 'vitest';
import { dispatchSize, wordsFor } from '../../../src/core/dispatch.js';
import { kernelKey } from '../../../src/core/PipelineCache.js';
import { packUniform, uniformLayout } from '../../../src/core/uniforms.js';
import { InFlight } from '../../../src/core/InFlight.js';
import { wgsl } from '../../../shaders/wgsl.js';

describe('dispatchSize', () => {
  it('covers every item and respects the per-dimension limit', () => {
    for (const items of [1, 255, 256, 257, 65535 * 256, 65536 * 256, 4096 * 4096, 8192 * 8192]) {
      const [x, y] = dispatchSize(items, 256);
      expect(x).toBeLessThanOrEqual(65535);
      expect(y).toBeLessThanOrEqual(65535);
      expect(x * y * 256).toBeGreaterThanOrEqual(items);
      // No more than one row of spare groups.
      expect((x * y - Math.ceil(items / 256)) < x).toBe(true);
    }
    expect(dispatchSize(0, 64)).toEqual([1, 1]);
    expect(wordsFor(5)).toBe(2);
  });
});

describe('kernelKey', () => {
  it('does not depend on the order of override constants', () => {
    const a = kernelKey({ shader: 'image/threshold', entryPoint: 'binarize', bindings: ['uniform'], constants: { WG: 64, X: 1 } });
    const b = kernelKey({ shader: 'image/threshold', entryPoint: 'binarize', bindings: ['uniform'], constants: { X: 1, WG: 64 } });
    const c = kernelKey({ shader: 'image/threshold', entryPoint: 'binarize', bindings: ['uniform'], constants: { X: 2, WG: 64 } });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});

describe('uniform layouts come from the WGSL', () => {
  it('reads field names, types and offsets of Params', () => {
    const layout = uniformLayout('image/threshold', 'Params');
    const body = /struct Params \{([^}]*)\}/.exec(wgsl['image/threshold'])![1];
    const declared = [...body.matchAll(/^\s*(\w+)\s*:/gm)].map((m) => m[1]);
    expect(layout.fields.map((f) => f.name)).toEqual(declared);
    expect(layout.fields.find((f) => f.name === 'offset')?.type).toBe('i32');
    expect(layout.size % 16).toBe(0);
  });

  it('packs little-endian values and refuses missing or unknown fields', () => {
    const layout = uniformLayout('components/label/shibata', 'Params');
    const values = { width: 3, height: 2, pixels: 6, blocks: 4, level: 0 };
    const view = new Uint32Array(packUniform(layout, values));
    expect(Array.from(view.slice(0, 5))).toEqual([3, 2, 6, 4, 0]);
    expect(() => packUniform(layout, { ...values, extra: 1 })).toThrow(/no field extra/);
    const { blocks: _omit, ...missing } = values;
    expect(() => packUniform(layout, missing)).toThrow(/blocks/);
  });
});

describe('InFlight', () => {
  it('bounds leases, hands out distinct slots, wakes waiters in order and reports idle', async () => {
    const f = new InFlight(2);
    const a = f.tryAcquire()!;
    const b = f.tryAcquire()!;
    expect(new Set([a.slot, b.slot]).size).toBe(2);
    expect(f.tryAcquire()).toBeNull();
    const waiting = f.acquire();
    let idle = false;
    void f.idle().then(() => (idle = true));
    a.release();
    a.release(); // idempotent
    const c = (await waiting)!;
    expect(c.slot).toBe(a.slot);
    expect(f.inFlight).toBe(2);
    b.release();
    c.release();
    await Promise.resolve();
    expect(idle).toBe(true);
    f.close();
    expect(await f.acquire()).toBeNull();
  });
});
