// A destroyed GpuContext gives back what it took: once the garbage collector runs, nothing holds the context or its
// device (Dawn's Node binding keeps a device alive while it has an event listener, and with it every pipeline and
// buffer the context made). Checked with weak references over contexts that ran a chain, their own devices and not.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { lastValueFrom } from 'rxjs';
import { GpuContext, features, fromPixels, readResults, threshold } from '../../../index.js';
import { testContext } from '../../support/gpu.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A context made, run over a few frames and destroyed, known only by weak references. */
async function cycle(options: { device?: GPUDevice } = {}): Promise<{ context: WeakRef<GpuContext>; device: WeakRef<GPUDevice> }> {
  const ctx = options.device ? await GpuContext.create({ device: options.device, label: 'release' }) : await testContext();
  const frame = { width: 64, height: 48, format: 'gray' as const, data: new Uint8Array(64 * 48).map((_, p) => (p % 7 ? 200 : 0)) };
  await lastValueFrom(fromPixels(ctx, [frame, frame]).pipe(threshold({ level: 128 }), features(), readResults()));
  const refs = { context: new WeakRef(ctx), device: new WeakRef(ctx.device) };
  ctx.destroy();
  return refs;
}

async function collect(): Promise<void> {
  // The device's loss is delivered after destroy(); the context lets Dawn's instance go 20 ms after it.
  for (let i = 0; i < 6; i++) {
    await new Promise((r) => setTimeout(r, 50));
    gc();
  }
}

describe('GpuContext release', () => {
  it('leaves nothing holding a destroyed context or its device', async () => {
    const refs = [await cycle(), await cycle(), await cycle()];
    await collect();
    expect(refs.filter((r) => r.context.deref()).length).toBe(0);
    expect(refs.filter((r) => r.device.deref()).length).toBe(0);
  });

  it('leaves nothing holding a destroyed context made on a device it was given (the device is the caller\'s)', async () => {
    const base = await testContext();
    const refs = [await cycle({ device: base.device }), await cycle({ device: base.device })];
    await collect();
    expect(refs.filter((r) => r.context.deref()).length).toBe(0);
    base.destroy();
  });
});
