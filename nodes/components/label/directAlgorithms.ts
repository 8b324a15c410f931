/**
 * The direct labeling algorithms: each records a fixed number of dispatches, whatever the image, that leave every
 * foreground pixel of L in a tree rooted at its component's first pixel.
 */
import type { KernelSpec } from '../../../src/core/PipelineCache.js';
import { labelingBindings as bindings, type LabelingAlgorithm, type LabelSettings } from './LabelingAlgorithm.js';

const conn8 = (s: LabelSettings) => ({ CONN8: s.connectivity === 8 ? 1 : 0 });
const spec = (shader: KernelSpec['shader'], entryPoint: string, s: LabelSettings): KernelSpec => ({ shader, entryPoint, bindings, constants: conn8(s) });

/** Pixel union-find (Playne & Hawick; Komura): runs joined at initialisation, one merge kernel. */
export const unionFind: LabelingAlgorithm = {
  kernels: (s) => ({ init: spec('components/label/unionfind', 'init', s), merge: spec('components/label/unionfind', 'merge', s) }),
  recorder: (k) => (run) => {
    run.rec.items('init', k.init, run.group, run.pixels);
    run.rec.items('merge', k.merge, run.group, run.pixels);
  },
};

/** Block union-find (Allegretti et al.): one invocation per 2×2 block (2×1 for 4-connectivity). */
export const buf: LabelingAlgorithm = {
  kernels: (s) => ({ init: spec('components/label/buf', 'init', s), merge: spec('components/label/buf', 'merge', s), finish: spec('components/label/buf', 'finish', s) }),
  recorder: (k, s) => (run) => {
    // A 2×2 block's diagonal pair is not 4-connected: blocks are 2×1 then (as bh() in buf.wgsl).
    const blocks = Math.ceil(run.width / 2) * Math.ceil(run.height / (s.connectivity === 8 ? 2 : 1));
    for (const name of ['init', 'merge', 'finish']) run.rec.items(name, k[name], run.group, blocks);
  },
};

/** C2FL-style coarse-to-fine: 32×32 tiles labelled in workgroup memory, then a merge over tile borders. */
export const c2fl: LabelingAlgorithm = {
  kernels: (s) => ({
    tile: spec('components/label/c2fl', 'tileLabel', s),
    tileQuad: spec('components/label/c2fl', 'tileLabelQuad', s),
    border: spec('components/label/c2fl', 'borderMerge', s),
  }),
  recorder: (k) => (run) => {
    const tx = Math.ceil(run.width / 32);
    const ty = Math.ceil(run.height / 32);
    // Rows starting on 16-byte boundaries let each invocation store its four labels at once.
    run.rec.grid('tile', run.width % 4 === 0 ? k.tileQuad : k.tile, run.group, tx, ty);
    run.rec.grid('border', k.border, run.group, tx, ty);
  },
};

/** HA4-style strip labeling over bit-packed rows (segments from byte reads or subgroup ballots). */
export const ha4: LabelingAlgorithm = {
  kernels: (s) => ({
    pack: s.ha4Segments === 'ballot' ? { shader: 'components/label/ha4ballot', entryPoint: 'packBallot', bindings } : spec('components/label/ha4', 'pack', s),
    init: spec('components/label/ha4', 'init', s),
    strips: spec('components/label/ha4', 'strips', s),
    borders: spec('components/label/ha4', 'borders', s),
  }),
  recorder: (k, s) => (run) => {
    const words = Math.ceil(run.width / 32);
    const strips = Math.ceil(run.height / 8); // STRIP in ha4.wgsl
    // A ballot workgroup covers WG pixel slots of the row-padded image; the byte kernel one word per invocation.
    run.rec.items('pack', k.pack, run.group, s.ha4Segments === 'ballot' ? words * 32 * run.height : words * run.height);
    run.rec.items('init', k.init, run.group, words * run.height);
    run.rec.grid('strips', k.strips, run.group, strips);
    if (strips > 1) run.rec.items('borders', k.borders, run.group, (strips - 1) * words);
  },
};

/** Boundaries at odd multiples of t below extent (as `boundaries` in shaders/components/label/tiles.wgsl). */
function boundaries(extent: number, t: number): number {
  return extent <= t ? 0 : Math.floor((extent - 1 - t) / (2 * t)) + 1;
}

/** Levels of the hierarchical merge: tiles of side 4·2^level, while a side is below the frame's. */
function levels(width: number, height: number): number {
  let n = 0;
  while (4 << n < Math.max(width, height)) n++;
  return n;
}

/** Two-pass tiled labeling (Muhammad et al.): 4×4 tiles with a merger table, borders merged level by level. */
export const tiles: LabelingAlgorithm<GPUBuffer[]> = {
  kernels: (s) => ({ init: spec('components/label/tiles', 'tileInit', s), merge: spec('components/label/tiles', 'mergeLevel', s) }),
  // One uniform per merge level: the same labeling Params with `level` set.
  buffers: (alloc, size) =>
    Array.from({ length: levels(size.width, size.height) }, (_, level) => alloc.uniform(`params${level}`, size.layout, { ...size.values, level })),
  recorder: (k) => (run) => {
    run.rec.items('init', k.init, run.group, Math.ceil(run.width / 4) * Math.ceil(run.height / 4));
    // Level k joins tiles of side 4·2^k in pairs, across the boundaries at odd multiples of that side.
    run.own.forEach((params, level) => {
      const t = 4 << level;
      const threads = boundaries(run.width, t) * run.height + boundaries(run.height, t) * run.width;
      if (threads === 0) return;
      const group = run.bind(`level${level}`, k.merge, [params, ...run.resources.slice(1)]);
      run.rec.items(`merge${level}`, k.merge, group, threads);
    });
  },
};
