/**
 * The direct labeling algorithms: each records a fixed number of dispatches that leave every foreground pixel of
 * L in a tree whose root is its component's first pixel (raster order); the label node then runs the shared
 * compress and canonical kernels. No pass count depends on the image.
 */
import type { Kernel, KernelSpec } from '../PipelineCache.js';
import { dispatch1d } from '../kernels.js';
import type { PassRecorder } from '../PassRecorder.js';

export interface LabelDims {
  width: number;
  height: number;
  pixels: number;
  maxPerDim: number;
  /** The labeling bind group with `params.level` set to `level` (for multi-level algorithms). */
  groupForLevel(level: number): GPUBindGroup;
}

export interface AlgorithmChoices {
  connectivity: 4 | 8;
  /** HA4: build segments from subgroup ballots (needs the `subgroups` feature) or from byte reads. */
  ha4Segments: 'ballot' | 'bits';
}

export interface DirectAlgorithm {
  /** Kernels over the labeling bind group (params, mask, L, info, blocks, out). */
  specs(choices: AlgorithmChoices): Record<string, KernelSpec>;
  record(rec: PassRecorder, k: Record<string, Kernel>, group: GPUBindGroup, d: LabelDims): void;
}

const pixelGroup = ['uniform', 'read-only-storage', 'storage', 'storage', 'storage', 'storage'] as const;
const WG = 256;

function grid(pass: GPUComputePassEncoder, kernel: Kernel, group: GPUBindGroup, x: number, y: number): void {
  pass.setPipeline(kernel.pipeline);
  pass.setBindGroup(0, group);
  pass.dispatchWorkgroups(x, y);
}

/** Boundaries at odd multiples of t below extent (as `boundaries` in shaders/label/tiles.wgsl). */
function boundaries(extent: number, t: number): number {
  return extent <= t ? 0 : Math.floor((extent - 1 - t) / (2 * t)) + 1;
}

export const directAlgorithms: Record<'union-find' | 'buf' | 'c2fl' | 'ha4' | 'tiles', DirectAlgorithm> = {
  'union-find': {
    specs: ({ connectivity: conn }) => {
      const constants = { WG, CONN8: conn === 8 ? 1 : 0 };
      return {
        init: { shader: 'label/unionfind', entryPoint: 'init', bindings: pixelGroup, constants },
        merge: { shader: 'label/unionfind', entryPoint: 'merge', bindings: pixelGroup, constants },
      };
    },
    record(rec, k, group, d) {
      rec.stage('init', (pass) => dispatch1d(pass, k.init, group, d.pixels, WG, d.maxPerDim));
      rec.stage('merge', (pass) => dispatch1d(pass, k.merge, group, d.pixels, WG, d.maxPerDim));
    },
  },
  buf: {
    specs: ({ connectivity: conn }) => {
      const constants = { WG, CONN8: conn === 8 ? 1 : 0 };
      return {
        init: { shader: 'label/buf', entryPoint: 'init', bindings: pixelGroup, constants },
        merge: { shader: 'label/buf', entryPoint: 'merge', bindings: pixelGroup, constants },
        finish: { shader: 'label/buf', entryPoint: 'finish', bindings: pixelGroup, constants },
      };
    },
    record(rec, k, group, d) {
      // Blocks are 2×2 for 8-connectivity, 2×1 for 4 (the shader decides from CONN8; the count here must match).
      const bh = k.init.key.includes('CONN8=1') ? 2 : 1;
      const blocks = Math.ceil(d.width / 2) * Math.ceil(d.height / bh);
      for (const name of ['init', 'merge', 'finish']) rec.stage(name, (pass) => dispatch1d(pass, k[name], group, blocks, WG, d.maxPerDim));
    },
  },
  c2fl: {
    specs: ({ connectivity: conn }) => {
      const constants = { CONN8: conn === 8 ? 1 : 0 };
      return {
        tile: { shader: 'label/c2fl', entryPoint: 'tileLabel', bindings: pixelGroup, constants },
        tileQuad: { shader: 'label/c2fl', entryPoint: 'tileLabelQuad', bindings: pixelGroup, constants },
        border: { shader: 'label/c2fl', entryPoint: 'borderMerge', bindings: pixelGroup, constants },
      };
    },
    record(rec, k, group, d) {
      const tx = Math.ceil(d.width / 32);
      const ty = Math.ceil(d.height / 32);
      // Rows starting on 16-byte boundaries let each invocation store its four labels at once.
      rec.stage('tile', (pass) => grid(pass, d.width % 4 === 0 ? k.tileQuad : k.tile, group, tx, ty));
      rec.stage('border', (pass) => grid(pass, k.border, group, tx, ty));
    },
  },
  ha4: {
    specs: (choices) => {
      const constants = { CONN8: choices.connectivity === 8 ? 1 : 0 };
      return {
        pack: choices.ha4Segments === 'ballot'
          ? { shader: 'label/ha4ballot', entryPoint: 'packBallot', bindings: pixelGroup }
          : { shader: 'label/ha4', entryPoint: 'pack', bindings: pixelGroup, constants },
        init: { shader: 'label/ha4', entryPoint: 'init', bindings: pixelGroup, constants },
        strips: { shader: 'label/ha4', entryPoint: 'strips', bindings: pixelGroup, constants },
        borders: { shader: 'label/ha4', entryPoint: 'borders', bindings: pixelGroup, constants },
      };
    },
    record(rec, k, group, d) {
      const words = Math.ceil(d.width / 32);
      const strips = Math.ceil(d.height / 8); // STRIP in ha4.wgsl
      // The ballot kernel covers 256 pixel slots (8 words) per workgroup; the byte kernel one word per invocation.
      const ballot = k.pack.key.includes('packBallot');
      rec.stage('pack', (pass) => dispatch1d(pass, k.pack, group, ballot ? Math.ceil((words * d.height) / 8) * WG : words * d.height, WG, d.maxPerDim));
      rec.stage('init', (pass) => dispatch1d(pass, k.init, group, words * d.height, WG, d.maxPerDim));
      rec.stage('strips', (pass) => grid(pass, k.strips, group, strips, 1));
      if (strips > 1) rec.stage('borders', (pass) => dispatch1d(pass, k.borders, group, (strips - 1) * words, WG, d.maxPerDim));
    },
  },
  tiles: {
    specs: ({ connectivity: conn }) => {
      const constants = { CONN8: conn === 8 ? 1 : 0 };
      return {
        init: { shader: 'label/tiles', entryPoint: 'tileInit', bindings: pixelGroup, constants },
        merge: { shader: 'label/tiles', entryPoint: 'mergeLevel', bindings: pixelGroup, constants },
      };
    },
    record(rec, k, group, d) {
      rec.stage('init', (pass) => dispatch1d(pass, k.init, group, Math.ceil(d.width / 4) * Math.ceil(d.height / 4), WG, d.maxPerDim));
      // Level k joins tiles of side 4·2^k in pairs, across the boundaries at odd multiples of that side.
      for (let level = 0; 4 << level < Math.max(d.width, d.height); level++) {
        const t = 4 << level;
        const threads = boundaries(d.width, t) * d.height + boundaries(d.height, t) * d.width;
        if (threads > 0) rec.stage(`merge${level}`, (pass) => dispatch1d(pass, k.merge, d.groupForLevel(level), threads, WG, d.maxPerDim));
      }
    },
  },
};
