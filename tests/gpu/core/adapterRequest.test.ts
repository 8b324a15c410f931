// How GpuContext asks for its adapter: the preferred one twice (a fresh Chromium answers the first request with null
// while its GPU process opens the hardware adapter, and the next with that adapter), then the fallback adapter.
// Checked on Dawn through a `gpu` whose first answers are null, as Chromium's are.
import { describe, expect, it } from 'vitest';
import { create } from 'webgpu';
import { GpuContext, GpuUnavailableError } from '../../../index.js';
import { defaultDawnFlags } from '../../../extend.js';

/** Dawn's `gpu`, answering null to the first `nulls` requests (every one with Infinity), with the requests seen. */
function slowGpu(nulls: number): { gpu: GPU; asked: GPURequestAdapterOptions[]; dawn: GPU } {
  const dawn = create([...defaultDawnFlags]) as GPU;
  const asked: GPURequestAdapterOptions[] = [];
  const gpu = {
    requestAdapter: async (options?: GPURequestAdapterOptions) => {
      asked.push({ ...options });
      return asked.length <= nulls ? null : dawn.requestAdapter(options);
    },
    getPreferredCanvasFormat: () => dawn.getPreferredCanvasFormat(),
    wgslLanguageFeatures: dawn.wgslLanguageFeatures,
  } as unknown as GPU;
  return { gpu, asked, dawn };
}

describe('GpuContext.create asks for its adapter', () => {
  it('twice before taking the fallback adapter, when the first answer is null', async () => {
    const { gpu, asked, dawn } = slowGpu(1);
    const ctx = await GpuContext.create({ gpu, label: 'adapter-request' });
    try {
      expect(asked).toEqual([{ powerPreference: 'high-performance' }, { powerPreference: 'high-performance' }]);
      const direct = await dawn.requestAdapter({ powerPreference: 'high-performance' });
      expect(ctx.adapterName).toContain(direct!.info.vendor);
    } finally {
      ctx.destroy();
    }
  });

  it('then the fallback adapter, and a GpuUnavailableError when there is none', async () => {
    const { gpu, asked } = slowGpu(Infinity);
    await expect(GpuContext.create({ gpu, powerPreference: 'low-power' })).rejects.toBeInstanceOf(GpuUnavailableError);
    expect(asked).toEqual([{ powerPreference: 'low-power' }, { powerPreference: 'low-power' }, { forceFallbackAdapter: true }]);
  });
});
