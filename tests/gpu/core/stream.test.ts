// Stream semantics on a real GPU: resource reuse over many frames, teardown, errors, ordering.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { firstValueFrom, lastValueFrom, take, tap, toArray, type Observable, type OperatorFunction } from 'rxjs';
import { DisposedError, GpuContext, GpuDeviceLostError, InvalidOptionError, features, InvalidFrameError, fromPixels, label, readResults, threshold, type GpuFrame, type PixelImage } from '../../../index.js';
import { gpuNode, withRead } from '../../../extend.js';
import { labelCpu } from '../../../src/reference/labelCpu.js';
import { randomBlocks } from '../../../src/eval/images.js';
import { gray, testContext } from '../../support/gpu.js';

let ctx: GpuContext;
beforeAll(async () => {
  // Timed: the profiler's slots are part of what a frame holds (the cancellation test below counts them).
  ctx = await testContext({ profile: true });
});
afterAll(() => ctx?.destroy());

function* frames(n: number, w = 48, h = 32): Generator<PixelImage> {
  for (let i = 0; i < n; i++) yield gray(w, h, randomBlocks(w, h, 0.5, 2, i), i * 1000);
}

const pipeline = (images: Iterable<PixelImage>) =>
  fromPixels(ctx, images).pipe(threshold(), label({ passes: 'until-converged' }), readResults());

describe('streams', () => {
  it('an operator or a second readResults() after readResults() ends the stream with an InvalidFrameError, nothing held', async () => {
    // Plain JavaScript, where nothing checks the types: the subscriber hears the error rather than the process dying.
    const misuse = [
      [threshold(), readResults(), features()],
      [threshold(), readResults(), readResults()],
    ] as unknown as OperatorFunction<unknown, unknown>[][];
    for (const ops of misuse) {
      const stream = ops.reduce((s, op) => op(s), fromPixels(ctx, frames(3)) as Observable<unknown>);
      const e = await lastValueFrom(stream).then(() => null, (err: unknown) => err);
      expect(e).toBeInstanceOf(InvalidFrameError);
      expect((e as Error).message).toMatch(/^(features|readResults): expected a frame on the GPU .*got a FrameResult/);
      await new Promise((r) => setTimeout(r, 50));
      expect(ctx.pool.stats().inUse).toBe(0);
    }
  });

  it('runs 1000 frames with no growth in pooled buffers or pipelines, in order, with correct counts', async () => {
    let afterWarmup: ReturnType<typeof ctx.pool.stats> | null = null;
    let pipelinesWarm = 0;
    let expectedSeq = 0;
    let wrong = 0;
    await new Promise<void>((resolve, reject) => {
      pipeline(frames(1000)).subscribe({
        next(r) {
          if (r.seq !== expectedSeq++) reject(new Error(`frame ${r.seq} out of order`));
          if (r.timeUs !== r.seq * 1000) reject(new Error('timestamp lost'));
          if (r.labeling!.count !== labelCpu(randomBlocks(48, 32, 0.5, 2, r.seq), 48, 32, 8).count) wrong++;
          if (r.seq === 10) {
            afterWarmup = ctx.pool.stats();
            pipelinesWarm = ctx.pipelines.stats().pipelines;
          }
          if (r.seq > 10) {
            const s = ctx.pool.stats();
            if (s.created !== afterWarmup!.created || s.inUse !== afterWarmup!.inUse) {
              reject(new Error(`buffers grew at frame ${r.seq}: ${JSON.stringify(s)} vs ${JSON.stringify(afterWarmup)}`));
            }
            if (ctx.pipelines.stats().pipelines !== pipelinesWarm) reject(new Error('pipelines grew'));
          }
        },
        error: reject,
        complete: resolve,
      });
    });
    expect(expectedSeq).toBe(1000);
    expect(wrong).toBe(0);
    expect(ctx.pool.stats().inUse).toBe(0);
    expect(ctx.pipelines.stats().refs).toBe(0);
  });

  it('releases every buffer and pipeline reference when unsubscribed mid-stream, and tolerates a second unsubscribe', async () => {
    const seen: number[] = [];
    await new Promise<void>((resolve, reject) => {
      const sub = pipeline(frames(500)).subscribe({
        next(r) {
          seen.push(r.seq);
          if (r.seq === 20) {
            expect(ctx.pool.stats().inUse).toBeGreaterThan(0);
            expect(ctx.pipelines.stats().refs).toBeGreaterThan(0);
            sub.unsubscribe();
            sub.unsubscribe();
            resolve();
          }
        },
        error: reject,
      });
    });
    expect(seen.at(-1)).toBe(20);
    expect(ctx.pool.stats().inUse).toBe(0);
    expect(ctx.pipelines.stats().refs).toBe(0);
    // The context is still usable afterwards.
    const r = await firstValueFrom(pipeline(frames(1)));
    expect(r.labeling!.converged).toBe(true);
  });

  it('compiles pipelines when subscribed, before the first frame arrives', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* late(): AsyncGenerator<PixelImage> {
      await gate;
      yield* frames(2);
    }
    const before = ctx.pipelines.stats().refs;
    const done = lastValueFrom(fromPixels(ctx, late()).pipe(threshold({ method: 'otsu' }), label({ connectivity: 4 }), readResults(), toArray()));
    await new Promise((r) => setTimeout(r, 200));
    expect(ctx.pipelines.stats().refs).toBeGreaterThan(before);
    release();
    expect((await done).map((r) => r.seq)).toEqual([0, 1]);
    expect(ctx.pipelines.stats().refs).toBe(before);
  });

  it('submits several frames at once with framesPerSubmit, results unchanged and in order', async () => {
    const images = [...frames(23, 40, 30)];
    for (const algorithm of ['c2fl', 'shibata'] as const) {
      const results = await lastValueFrom(
        fromPixels(ctx, images, { maxInFlight: 8 }).pipe(
          threshold(),
          label({ algorithm, passes: 'until-converged', readLabels: true }),
          readResults({ framesPerSubmit: 4 }),
          toArray(),
        ),
      );
      expect(results.map((r) => r.seq)).toEqual(images.map((_, i) => i));
      results.forEach((r, i) => expect(Array.from(r.labels!)).toEqual(Array.from(labelCpu(images[i].data, 40, 30, 8).labels)));
    }
    expect(() => readResults({ framesPerSubmit: 0 })).toThrow(/framesPerSubmit/);
  });

  it('take() ends the stream cleanly', async () => {
    const results = await lastValueFrom(pipeline(frames(50)).pipe(take(3), toArray()));
    expect(results.map((r) => r.seq)).toEqual([0, 1, 2]);
    await new Promise((r) => setTimeout(r, 50));
    expect(ctx.pool.stats().inUse).toBe(0);
  });

  it('handles frames that change size within one stream', async () => {
    const sizes = [[10, 10], [33, 7], [10, 10], [1, 1], [64, 9]];
    const images = sizes.map(([w, h], i) => gray(w, h, randomBlocks(w, h, 0.6, 1, 40 + i)));
    const results = await lastValueFrom(
      fromPixels(ctx, images).pipe(threshold(), label({ passes: 'until-converged', readLabels: true }), readResults(), toArray()),
    );
    results.forEach((r, i) => {
      const ref = labelCpu(images[i].data, images[i].width, images[i].height, 8);
      expect([r.width, r.height]).toEqual(sizes[i]);
      expect(Array.from(r.labels!)).toEqual(Array.from(ref.labels));
    });
  });

  it('errors the stream with InvalidFrameError on bad pixels, and releases its buffers', async () => {
    const bad = [gray(8, 8, new Uint8Array(64)), { width: 8, height: 8, format: 'gray', data: new Uint8Array(10) } as PixelImage];
    const seen: number[] = [];
    const err = await new Promise<unknown>((resolve) =>
      pipeline(bad).subscribe({ next: (r) => seen.push(r.seq), error: resolve, complete: () => resolve(null) }),
    );
    expect(err).toBeInstanceOf(InvalidFrameError);
    expect((err as Error).message).toMatch(/needs 64 bytes, got 10/);
    await new Promise((r) => setTimeout(r, 50));
    expect(ctx.pool.stats().inUse).toBe(0);
    expect(() => fromPixels(ctx, [], { maxInFlight: 0 })).toThrow(/maxInFlight/);
  });

  it('releases a frame a node was still working on when the subscription ended (no profiler slot or buffer leaks)', async () => {
    // An operator whose work on a frame resolves later, as a convergence check does.
    const slow = gpuNode('slow', async () => (f) => new Promise<GpuFrame>((resolve) => setTimeout(() => resolve(f), 5)));
    // More cancellations than the profiler has slots (16): a frame dropped without its release would use them up.
    for (let i = 0; i < 20; i++) {
      await new Promise<void>((resolve, reject) => {
        const sub = fromPixels(ctx, frames(3))
          .pipe(
            threshold(),
            // The second frame arrives while slow() works on the first (the first created it: \`tap\` hides the
            // stream's tag): end then, with the first frame pending.
            tap((f) => f.seq === 1 && queueMicrotask(() => (sub.unsubscribe(), resolve()))),
            slow,
            label(),
            readResults(),
          )
          .subscribe({ error: reject });
      });
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(ctx.pool.stats().inUse).toBe(0);
    const [r] = await lastValueFrom(pipeline(frames(1)).pipe(toArray()));
    expect(r.timings.length).toBeGreaterThan(0);
  });

  it('turns device loss into GpuDeviceLostError on the stream', async () => {
    const own = await testContext();
    const endless = function* () {
      for (let i = 0; ; i++) yield gray(32, 32, randomBlocks(32, 32, 0.5, 1, i));
    };
    const err = await new Promise<unknown>((resolve) => {
      let n = 0;
      fromPixels(own, endless())
        .pipe(threshold(), label(), readResults())
        .subscribe({
          next() {
            if (++n === 3) own.device.destroy();
          },
          error: resolve,
          complete: () => resolve(null),
        });
    });
    expect(err).toBeInstanceOf(GpuDeviceLostError);
    own.destroy();
  });

  it('ctx.destroy() while frames are in flight ends the stream with one DisposedError; later streams get it too', async () => {
    // The device itself is destroyed only once the frames' mappings have settled: destroying it rejects those still
    // pending, as destroying their buffers does, which crashed Dawn's Node bindings now and then (src/core/mapBuffer.ts).
    const globals = globalThis as unknown as { GPUBuffer: { prototype: GPUBuffer }; GPUDevice: { prototype: GPUDevice } };
    const [bufferProto, deviceProto] = [globals.GPUBuffer.prototype, globals.GPUDevice.prototype];
    const [mapAsync, destroyDevice] = [bufferProto.mapAsync, deviceProto.destroy];
    const mapped = new Set<GPUBuffer>();
    const pendingAtDestroy: number[] = [];
    bufferProto.mapAsync = function (this: GPUBuffer, ...args: Parameters<GPUBuffer['mapAsync']>) {
      mapped.add(this);
      return mapAsync.apply(this, args);
    };
    deviceProto.destroy = function (this: GPUDevice) {
      pendingAtDestroy.push([...mapped].filter((b) => b.mapState === 'pending').length);
      destroyDevice.call(this);
    };
    onTestFinished(() => {
      bufferProto.mapAsync = mapAsync;
      deviceProto.destroy = destroyDevice;
    });
    for (const framesPerSubmit of [1, 4]) {
      const own = await testContext();
      const endless = function* () {
        for (let i = 0; ; i++) yield gray(64, 48, randomBlocks(64, 48, 0.5, 1, i));
      };
      const errors: unknown[] = [];
      let n = 0;
      await new Promise<void>((resolve) => {
        fromPixels(own, endless(), { maxInFlight: 4 })
          .pipe(threshold(), label({ passes: 'until-converged' }), features(), readResults({ framesPerSubmit }))
          .subscribe({
            next() {
              if (++n === 3) own.destroy();
            },
            error: (e) => (errors.push(e), resolve()),
            complete: resolve,
          });
      });
      // Anything else that failed would arrive late: give it the time to.
      await new Promise((r) => setTimeout(r, 100));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(DisposedError);
      expect((errors[0] as Error).message).toMatch(/destroyed while a stream was running/);
      const late = await new Promise<unknown>((resolve) =>
        fromPixels(own, frames(1)).pipe(threshold(), readResults()).subscribe({ error: resolve, complete: () => resolve(null) }),
      );
      expect(late).toBeInstanceOf(DisposedError);
      expect((late as Error).message).toMatch(/after GpuContext "test" was destroyed/);
    }
    // Both contexts' devices (and any an earlier test's context left to go once its mappings settled).
    expect(pendingAtDestroy.length).toBeGreaterThanOrEqual(2);
    expect(pendingAtDestroy.filter((n) => n > 0)).toEqual([]);
  });

  it('gives every buffer and pipeline back before complete, so a leak check in complete works', async () => {
    const held = await new Promise<[number, number]>((resolve, reject) =>
      fromPixels(ctx, frames(5))
        .pipe(threshold({ method: 'otsu' }), label({ passes: 'until-converged' }), features(), readResults({ framesPerSubmit: 2 }))
        .subscribe({ error: reject, complete: () => resolve([ctx.pool.stats().inUse, ctx.pipelines.stats().refs]) }),
    );
    expect(held).toEqual([0, 0]);
  });

  it("features({ maxResults }) beyond the device's buffer limit is an InvalidOptionError, and nothing is allocated", async () => {
    const before = ctx.pool.stats();
    const err = await new Promise<unknown>((resolve) =>
      fromPixels(ctx, frames(1)).pipe(threshold(), features({ maxResults: 1e9 }), readResults()).subscribe({ error: resolve, complete: () => resolve(null) }),
    );
    expect(err).toBeInstanceOf(InvalidOptionError);
    expect((err as Error).message).toMatch(/maxResults 1000000000 needs \d+ bytes of results, over this device's limit of \d+ bytes per buffer; at most \d+/);
    await new Promise((r) => setTimeout(r, 50));
    const after = ctx.pool.stats();
    expect([after.inUse, after.bytesInUse]).toEqual([0, 0]);
    expect(after.bytesFree).toBeLessThanOrEqual(before.bytesFree + (1 << 20));
    expect(() => ctx.pool.acquire('too big', ctx.limits.maxBufferSize + 16, GPUBufferUsage.STORAGE)).toThrow(InvalidFrameError);
    expect(ctx.pool.stats().created).toBe(after.created);
  });

  it('uploads through staging buffers it reuses: a bounded number however many frames, each frame its own pixels', async () => {
    const own = await testContext();
    const created: string[] = [];
    const createBuffer = own.device.createBuffer.bind(own.device);
    own.device.createBuffer = (d: GPUBufferDescriptor) => {
      if (d.usage & GPUBufferUsage.MAP_WRITE) created.push(d.label ?? '');
      return createBuffer(d);
    };
    for (const maxInFlight of [1, 3]) {
      created.length = 0;
      const images = [...frames(300, 40, 30)];
      const results = await lastValueFrom(
        fromPixels(own, images, { maxInFlight }).pipe(threshold(), label({ algorithm: 'c2fl', readLabels: true }), readResults(), toArray()),
      );
      results.forEach((r, i) => expect(Array.from(r.labels!), `frame ${i}`).toEqual(Array.from(labelCpu(images[i].data, 40, 30, 8).labels)));
      // At most three per slot (one written, one in flight, one mapping back), never one per frame.
      expect(created.length).toBeGreaterThan(0);
      expect(created.length).toBeLessThanOrEqual(3 * maxInFlight);
    }
    own.destroy();
  });

  it("a decoder that throws ends the stream with its error, and gives everything back", async () => {
    // An operator of one's own whose result cannot be decoded (here: always).
    const broken = gpuNode('broken', async () => (f) =>
      withRead(f, { key: 'broken', buffer: f.mask!, offset: 0, size: 16, decode: () => { throw new Error('cannot decode this'); } }),
    );
    const err = await new Promise<unknown>((resolve) =>
      fromPixels(ctx, frames(5)).pipe(threshold(), broken, readResults()).subscribe({ error: resolve, complete: () => resolve(null) }),
    );
    expect((err as Error).message).toBe('cannot decode this');
    await new Promise((r) => setTimeout(r, 50));
    expect(ctx.pool.stats().inUse).toBe(0);
    const [r] = await lastValueFrom(pipeline(frames(1)).pipe(toArray()));
    expect(r.labeling!.converged).toBe(true);
  });

  it('destroys no buffer while its mapping is pending: at completion, on a size change, on unsubscribe', async () => {
    // Destroying a buffer whose mapAsync was pending crashed this process now and then under Dawn's Node bindings
    // (src/core/mapBuffer.ts): the staging buffers of uploads and readbacks, and Shibata's check, wait for their mappings.
    const proto = (globalThis as unknown as { GPUBuffer: { prototype: GPUBuffer } }).GPUBuffer.prototype;
    const destroy = proto.destroy;
    const whilePending: string[] = [];
    let destroyed = 0;
    proto.destroy = function (this: GPUBuffer) {
      destroyed++;
      if (this.mapState === 'pending') whilePending.push(this.label);
      destroy.call(this);
    };
    onTestFinished(() => {
      proto.destroy = destroy;
    });
    const sizes = [[48, 32], [48, 32], [100, 70], [100, 70], [48, 32], [300, 200]];
    const images = sizes.map(([w, h], i) => gray(w, h, randomBlocks(w, h, 0.5, 2, i), i * 1000));
    expect(await lastValueFrom(pipeline(images).pipe(toArray()))).toHaveLength(sizes.length);
    expect(await firstValueFrom(pipeline(frames(20)).pipe(take(3), toArray()))).toHaveLength(3);
    await ctx.device.queue.onSubmittedWorkDone();
    await new Promise((r) => setTimeout(r, 50));
    expect(whilePending).toEqual([]);
    // Buffers did go: the uploads' staging buffers of each size left behind, at least.
    expect(destroyed).toBeGreaterThan(0);
  });
});
