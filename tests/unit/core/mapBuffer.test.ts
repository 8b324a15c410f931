// mapBuffer / destroyBuffer: a buffer whose mapAsync is pending is destroyed only once the mapping has settled (Dawn's
// Node bindings crashed now and then rejecting the map of a buffer destroyed while pending), by itself and through
// BufferPool. Fake buffers and device: no GPU needed.
import { describe, expect, it } from 'vitest';
import { destroyBuffer, mapBuffer, mappingsSettled } from '../../../src/core/mapBuffer.js';
import { BufferPool } from '../../../src/core/BufferPool.js';

/** A buffer whose mapAsync settles when the test says; it records the map state each destroy() found. */
function fakeBuffer(size = 256) {
  let settle: { resolve(): void; reject(e: Error): void } | null = null;
  const b = {
    size,
    usage: 1 | 8,
    label: '',
    mapState: 'unmapped' as GPUBufferMapState,
    destroyedWhile: [] as GPUBufferMapState[],
    mapAsync() {
      b.mapState = 'pending';
      return new Promise<void>((resolve, reject) => {
        settle = {
          resolve: () => ((b.mapState = 'mapped'), resolve()),
          reject: (e) => ((b.mapState = 'unmapped'), reject(e)),
        };
      });
    },
    unmap() {
      b.mapState = 'unmapped';
    },
    destroy() {
      b.destroyedWhile.push(b.mapState);
    },
    settle: () => settle!,
  };
  return b;
}
type Fake = ReturnType<typeof fakeBuffer>;
const gpu = (b: Fake) => b as unknown as GPUBuffer;
const turn = () => new Promise((r) => setTimeout(r, 0));

describe('destroyBuffer', () => {
  it('destroys an unmapped or mapped buffer at once', () => {
    const a = fakeBuffer();
    destroyBuffer(gpu(a));
    expect(a.destroyedWhile).toEqual(['unmapped']);
  });

  it('waits for a pending mapping to resolve, or to reject, before destroying', async () => {
    for (const how of ['resolve', 'reject'] as const) {
      const a = fakeBuffer();
      const mapped = mapBuffer(gpu(a), 2).catch(() => undefined);
      destroyBuffer(gpu(a));
      await turn();
      expect(a.destroyedWhile, how).toEqual([]);
      if (how === 'resolve') a.settle().resolve();
      else a.settle().reject(new Error('lost'));
      await mapped;
      await turn();
      expect(a.destroyedWhile, how).toEqual([how === 'resolve' ? 'mapped' : 'unmapped']);
    }
  });

  it('forgets a mapping once settled: the next destroy is immediate', async () => {
    const a = fakeBuffer();
    const p = mapBuffer(gpu(a), 1);
    a.settle().resolve();
    await p;
    await turn();
    a.unmap();
    destroyBuffer(gpu(a));
    expect(a.destroyedWhile).toEqual(['unmapped']);
  });
});

describe('mappingsSettled', () => {
  it('is null with nothing pending, waits for what is pending, and gives up after its timeout', async () => {
    expect(mappingsSettled(10)).toBeNull();
    const a = fakeBuffer();
    const p = mapBuffer(gpu(a), 1);
    let done = false;
    void mappingsSettled(60_000)!.then(() => (done = true));
    await turn();
    expect(done).toBe(false);
    a.settle().resolve();
    await p;
    await turn();
    expect(done).toBe(true);
    expect(mappingsSettled(10)).toBeNull();
    // A mapping that never settles (a hung device) holds it back only until the timeout.
    mapBuffer(gpu(fakeBuffer()), 1);
    const t0 = Date.now();
    await mappingsSettled(30);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
  });
});

describe('BufferPool and pending mappings', () => {
  it('destroys a released or still in-use buffer only once its mapping has settled, and counts it released at once', async () => {
    const made: Fake[] = [];
    const device = { limits: { maxBufferSize: 1 << 30 }, createBuffer: () => (made.push(fakeBuffer()), gpu(made.at(-1)!)) } as unknown as GPUDevice;
    const pool = new BufferPool(device);
    const a = pool.acquire('a', 256, 9);
    const b = pool.acquire('b', 256, 9);
    const mapA = mapBuffer(a, 1);
    const mapB = mapBuffer(b, 1);
    pool.release(a);
    expect(pool.stats().inUse).toBe(1);
    pool.destroy();
    expect(pool.stats().inUse).toBe(0);
    await turn();
    expect(made.map((m) => m.destroyedWhile)).toEqual([[], []]);
    made[0].settle().resolve();
    made[1].settle().reject(new Error('device destroyed'));
    await Promise.allSettled([mapA, mapB]);
    await turn();
    expect(made.map((m) => m.destroyedWhile)).toEqual([['mapped'], ['unmapped']]);
  });
});
