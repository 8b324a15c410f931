// dispatch() leaves out binding calls that would change nothing (one frame at a time is host-bound), and only those.
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../src/core/kernels.js';
import type { Kernel } from '../../../src/core/PipelineCache.js';

function recordingPass() {
  const calls: string[] = [];
  const pass = {
    setPipeline: (p: { label: string }) => calls.push(`pipeline ${p.label}`),
    setBindGroup: (_: number, g: { label: string }) => calls.push(`group ${g.label}`),
    dispatchWorkgroups: (x: number, y: number) => calls.push(`dispatch ${x}×${y}`),
  };
  return { pass: pass as unknown as GPUComputePassEncoder, calls };
}

const kernel = (label: string) => ({ pipeline: { label }, layout: {} }) as unknown as Kernel;
const group = (label: string) => ({ label }) as unknown as GPUBindGroup;

describe('dispatch', () => {
  it('binds a pipeline and a group once while they stay the same, and again whenever either changes', () => {
    const { pass, calls } = recordingPass();
    const [a, b] = [kernel('a'), kernel('b')];
    const [g1, g2] = [group('g1'), group('g2')];
    dispatch(pass, a, g1, 4);
    dispatch(pass, a, g1, 4, 2);
    dispatch(pass, a, g2, 1);
    dispatch(pass, b, g2, 1);
    dispatch(pass, a, g2, 1);
    expect(calls).toEqual([
      'pipeline a', 'group g1', 'dispatch 4×1',
      'dispatch 4×2',
      'group g2', 'dispatch 1×1',
      'pipeline b', 'group g2', 'dispatch 1×1',
      'pipeline a', 'group g2', 'dispatch 1×1',
    ]);
  });

  it('starts every pass afresh', () => {
    const first = recordingPass();
    const second = recordingPass();
    const [a, g] = [kernel('a'), group('g')];
    dispatch(first.pass, a, g, 1);
    dispatch(second.pass, a, g, 1);
    expect(second.calls).toEqual(['pipeline a', 'group g', 'dispatch 1×1']);
  });
});
