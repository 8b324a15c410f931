/**
 * What a labeling algorithm is to `label()`: a record of its kernels and how it records one frame. Every algorithm
 * leaves each foreground pixel of the forest L in a tree whose root is its component's first pixel (raster order);
 * `label()` then runs the shared compression and canonical kernels (shaders/components/label/canonical.wgsl). Settings come
 * as values, never read back from pipeline keys.
 */
import type { Kernel, KernelSpec } from '../../../src/core/PipelineCache.js';
import type { PassRecorder } from '../../../src/core/PassRecorder.js';
import type { SetAllocator } from '../../../src/core/PerFrame.js';
import type { BindingResource } from '../../../src/core/kernels.js';
import type { UniformLayout } from '../../../src/core/uniforms.js';
import type { LabelInfo } from '../../../src/core/results.js';

/** The bind group every labeling kernel shares (shaders/common/labeling.wgsl): params, mask, L, info, blocks, out. */
export const labelingBindings = ['uniform', 'read-only-storage', 'storage', 'storage', 'storage', 'storage'] as const;

/** `label()` options after validation, as the algorithms see them. */
export interface LabelSettings {
  readonly connectivity: 4 | 8;
  /** Shibata's propagation passes, and the first batch of `until-converged` (8 unless a test asks otherwise). */
  readonly passes: number | 'until-converged';
  readonly firstBatch: number;
  /** HA4's segments: from byte reads or subgroup ballots. */
  readonly ha4Segments: 'ballot' | 'bits';
}

/** What an algorithm's own buffers are built from, once per frame size (see PerFrame.ts). */
export interface LabelingSize {
  readonly width: number;
  readonly height: number;
  /** The labeling uniform's layout and values (`level` 0), for algorithms that need variants of it. */
  readonly layout: UniformLayout;
  readonly values: Readonly<Record<string, number>>;
}

/** One frame's labeling, as `label()` hands it to the algorithm. */
export interface LabelRun<Own> {
  readonly width: number;
  readonly height: number;
  readonly pixels: number;
  /** Records into the frame's pass `label:<algorithm>`. */
  readonly rec: PassRecorder;
  /** The labeling bind group, and its resources in binding order (to bind variants, e.g. another uniform). */
  readonly group: GPUBindGroup;
  readonly resources: readonly BindingResource[];
  /** A bind group made once for this frame's buffer set. */
  bind(name: string, kernel: Kernel, resources: readonly BindingResource[]): GPUBindGroup;
  /** The algorithm's own buffers in this frame's set. */
  readonly own: Own;
  /**
   * Submits the frame's work so far, waits for it and reads the labeling's `info` through `readback` (32 bytes,
   * MAP_READ | COPY_DST); then recording goes on in a new encoder, through the recorder returned. Null when the
   * stream ended meanwhile. For algorithms whose pass count depends on the image (Shibata until converged).
   */
  checkpoint(readback: GPUBuffer): Promise<{ info: LabelInfo; rec: PassRecorder } | null>;
}

export interface LabelingAlgorithm<Own = undefined> {
  /** Its kernels, over the labeling bind group unless it says otherwise. */
  kernels(s: LabelSettings): Record<string, KernelSpec>;
  /** Its own buffers in each frame's set, beside L, labels, info and blocks. */
  buffers?(alloc: SetAllocator, size: LabelingSize, s: LabelSettings): Own;
  /**
   * For one subscription: the function that records a frame's labeling (a promise when it waits on the GPU), with
   * whatever the algorithm remembers from frame to frame.
   */
  recorder(k: Readonly<Record<string, Kernel>>, s: LabelSettings): (run: LabelRun<Own>) => void | Promise<void>;
}
