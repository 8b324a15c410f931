// The CLI compiles a command's kernels on a blank frame before the first input: a line says so while it takes long
// (a software GPU's first run takes minutes with nothing else printed), and how long it took; a quick compile says
// nothing. The chain here is a stand-in that takes as long as it is told.
import { describe, expect, it } from 'vitest';
import { timer } from 'rxjs';
import { compileKernels } from '../../../cli/outputs.js';
import type { GpuContext } from '../../../index.js';

const ctx = { adapterName: 'test adapter' } as GpuContext;

describe('compileKernels', () => {
  it('says what it is doing past the threshold, then how long it took', async () => {
    const said: string[] = [];
    await compileKernels(ctx, () => timer(120), (s) => said.push(s), 30);
    expect(said).toHaveLength(2);
    expect(said[0]).toBe('flowmark: compiling the GPU kernels for test adapter (once per machine; minutes on a software GPU)…');
    expect(said[1]).toMatch(/^flowmark: kernels compiled in 0\.1 s$/);
  });

  it('says nothing when compiling is quick', async () => {
    const said: string[] = [];
    await compileKernels(ctx, () => timer(5), (s) => said.push(s), 200);
    expect(said).toEqual([]);
  });

  it('passes a failure on, with no line left pending', async () => {
    const said: string[] = [];
    const failing = () => timer(5).pipe(() => { throw new Error('no device'); });
    await expect(compileKernels(ctx, failing, (s) => said.push(s), 50)).rejects.toThrow('no device');
    await new Promise((r) => setTimeout(r, 80));
    expect(said).toEqual([]);
  });
});
