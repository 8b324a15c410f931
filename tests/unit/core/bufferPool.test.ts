// The buffer pool's bound on free buffers, on a device that records what it made and destroyed: frames of ever new
// sizes leave at most `maxFreeBytes` behind, the least recently used sizes go first, and a size in use again is
// reused rather than made anew.
import { describe, expect, it } from 'vitest';
import { BufferPool } from '../../../src/core/BufferPool.js';

interface Made {
  size: number;
  usage: number;
  destroyed: boolean;
}

function fakeDevice() {
  const made: Made[] = [];
  const device = {
    limits: { maxBufferSize: 1 << 30 },
    createBuffer({ size, usage }: GPUBufferDescriptor) {
      const m: Made = { size, usage, destroyed: false };
      made.push(m);
      return { size, usage, label: '', mapState: 'unmapped', destroy: () => void (m.destroyed = true), made: m };
    },
  } as unknown as GPUDevice;
  return { device, made };
}

const STORAGE = 0x80;
/** Live free bytes as the fake device sees them: made, released and not destroyed. */
const liveBytes = (made: Made[], inUse: Set<Made>) => made.filter((m) => !m.destroyed && !inUse.has(m)).reduce((s, m) => s + m.size, 0);

describe('BufferPool bound', () => {
  it('keeps at most maxFreeBytes of released buffers over 300 frame sizes, counted as the device sees them', () => {
    const { device, made } = fakeDevice();
    const cap = 1 << 20;
    const pool = new BufferPool(device, cap);
    for (let s = 0; s < 300; s++) {
      // A frame's set: three buffers of its size.
      const bytes = 4096 + 160 * s;
      const set = [0, 1, 2].map((k) => pool.acquire(`f${k}`, bytes * (k + 1), STORAGE));
      for (const b of set) pool.release(b);
      const stats = pool.stats();
      expect(stats.bytesFree).toBeLessThanOrEqual(cap);
      expect(stats.bytesFree).toBe(liveBytes(made, new Set()));
      expect(stats.maxFreeBytes).toBe(cap);
    }
    expect(pool.stats().bytesFree).toBeGreaterThan(cap / 2);
  });

  it('releases the least recently used sizes first, and reuses a size used again', () => {
    const { device, made } = fakeDevice();
    const pool = new BufferPool(device, 3000);
    const a = pool.acquire('a', 1040, STORAGE);
    const b = pool.acquire('b', 1008, STORAGE);
    const c = pool.acquire('c', 1024, STORAGE);
    pool.release(a);
    pool.release(b);
    // a is taken again and given back: now the most recently used.
    pool.release(pool.acquire('a', 1040, STORAGE));
    expect(made).toHaveLength(3);
    pool.release(c);
    // 1040 + 1008 + 1024 > 3000: the least recently used, b, went.
    expect(made.map((m) => m.destroyed)).toEqual([false, true, false]);
    expect(pool.stats()).toMatchObject({ free: 2, bytesFree: 2064, created: 3 });
    pool.acquire('a', 1040, STORAGE);
    pool.acquire('c', 1024, STORAGE);
    expect(made).toHaveLength(3);
    pool.acquire('b', 1008, STORAGE);
    expect(made).toHaveLength(4);
  });

  it('keeps nothing with a bound of 0, and trim() empties it', () => {
    const { device, made } = fakeDevice();
    const none = new BufferPool(device, 0);
    none.release(none.acquire('x', 64, STORAGE));
    expect(made[0].destroyed).toBe(true);
    expect(none.stats()).toMatchObject({ free: 0, bytesFree: 0 });
    const some = new BufferPool(device, 1 << 20);
    for (const size of [64, 128, 256]) some.release(some.acquire('y', size, STORAGE));
    expect(some.stats().bytesFree).toBe(448);
    some.trim();
    expect(some.stats()).toMatchObject({ free: 0, bytesFree: 0 });
    expect(made.every((m) => m.destroyed)).toBe(true);
  });
});
