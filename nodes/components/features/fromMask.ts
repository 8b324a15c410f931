/**
 * Components and their features from a mask, in one labeling (shaders/components/fromMask.wgsl): C2FL tiles in workgroup
 * memory accumulate each tile-local part's features while the tile is labelled, the border merge unites the
 * tiles, parts are added into their roots' parts, roots are counted per band of rows, and roots are filtered and
 * numbered canonically. No label image is relabelled or read back; the labeling exists as the union-find forest
 * the kernels share.
 */
import type { NodeScope, ProcessFrame } from '../../../src/core/gpuNode.js';
import type { KernelSpec } from '../../../src/core/PipelineCache.js';
import { uniformLayout, wgslConstant } from '../../../src/core/uniforms.js';
import { InvalidFrameError } from '../../../src/core/errors.js';
import { PassRecorder, type Analysis } from '../../../src/core/PassRecorder.js';
import { binWords, featureResults, histogramConstants, histogramCounts, record } from './results.js';
import { filterParams, type FeaturesSettings } from './settings.js';

const TILE = wgslConstant('components/fromMask', 'TS');
/** Resolve and compact take GROUP×GROUP tiles per workgroup. */
const GROUP = wgslConstant('components/fromMask', 'GROUP');
/** Words of a part: the record and its root's pixel index (PREC in components.wgsl). */
const partWords = record.REC + 1;

/**
 * Where the regions of `book` start (components.wgsl reads these offsets from its Params): the header, per tile
 * (first part, parts), per band of TILE rows its roots, per tile and row a bit word of roots, and per tile and row
 * the roots before that word in its band.
 */
export function bookLayout(tilesX: number, tilesY: number) {
  const tiles = tilesX * tilesY;
  const bookTiles = wgslConstant('components/fromMask', 'BOOK_HEAD');
  const bookBands = bookTiles + 2 * tiles;
  const bookRoots = bookBands + tilesY;
  const bookPrefixes = bookRoots + tiles * TILE;
  return { bookTiles, bookBands, bookRoots, bookPrefixes, words: bookPrefixes + tiles * TILE };
}

const bindings = ['uniform', 'read-only-storage', 'read-only-storage', 'storage', 'storage', 'storage', 'storage', 'storage'] as const;

export async function featuresFromMask(node: NodeScope, s: FeaturesSettings, analysis: Analysis): Promise<ProcessFrame> {
  const { ctx } = node;
  const constants = { CONN8: s.connectivity === 8 ? 1 : 0, ...histogramConstants(s.histogram) };
  const kernel = (entryPoint: string): KernelSpec => ({ shader: 'components/fromMask', entryPoint, bindings, constants });
  const k = await node.kernels({
    tile: kernel('tilePartsScalar'),
    tileQuad: kernel('tilePartsQuad'),
    merge: kernel('mergeTiles'),
    resolve: kernel('resolve'),
    scan: kernel('scanRoots'),
    compact: kernel('compactParts'),
  });
  const layout = uniformLayout('components/fromMask', 'Params');
  const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;

  const sets = node.perFrame((size, alloc) => {
    const tilesX = Math.ceil(size.width / TILE);
    const tilesY = Math.ceil(size.height / TILE);
    if (tilesX > maxDim || tilesY > maxDim) throw new InvalidFrameError(`features: a ${size.width}×${size.height} frame needs more than ${maxDim} tiles of ${TILE} along one side`);
    const pixels = size.width * size.height;
    // A tile holds at most 512 parts (a 4-connected checkerboard); every part has a pixel of its own.
    const most = Math.min(Math.ceil(pixels / 2) + tilesX * tilesY, tilesX * tilesY * 512);
    // Parts, and histograms (a spatial one is the larger), each one storage binding.
    const bytesCap = Math.floor(ctx.limits.maxStorageBufferBindingSize / (Math.max(partWords, record.HIST_BINS * binWords(s.histogram)) * 4));
    const capacity = Math.max(1, Math.min(s.maxComponents ?? Math.min(most, 1 << 20), bytesCap));
    const book = bookLayout(tilesX, tilesY);
    const { words, ...offsets } = book;
    const S = GPUBufferUsage.STORAGE;
    return {
      tilesX,
      tilesY,
      params: alloc.uniform('params', layout, { width: size.width, height: size.height, tilesX, tilesY, capacity, ...offsets, ...filterParams(s) }),
      L: alloc.buffer('L', pixels * 4, S),
      records: alloc.buffer('parts', capacity * partWords * 4, S),
      // The header (parts allocator, overflow flag) starts at zero; the kernels reset it for every later frame.
      book: alloc.buffer('book', words * 4, S | GPUBufferUsage.COPY_DST, new Uint32Array(book.bookTiles)),
      hist: histogramCounts(alloc, capacity, s.histogram),
      results: featureResults(alloc, s.maxResults, s.histogram),
    };
  });

  return (f) => {
    const set = sets.take(f);
    const group = set.bind('components', k.tile, [set.params, f.mask!, f.gray!, set.L, set.records, set.book, set.results.buffer, set.hist]);
    const rec = PassRecorder.of(f, 'features:components', analysis);
    const { tilesX: tx, tilesY: ty } = set;
    for (let r = 0; r < analysis.repeat; r++) {
      // Rows starting on 16-byte boundaries let each invocation store its four labels at once.
      rec.grid('tile', f.width % 4 === 0 ? k.tileQuad : k.tile, group, tx, ty);
      rec.grid('merge', k.merge, group, tx, ty);
      rec.grid('resolve', k.resolve, group, Math.ceil(tx / GROUP), Math.ceil(ty / GROUP));
      rec.grid('scan', k.scan, group, ty); // one workgroup per band of TILE rows
      rec.grid('compact', k.compact, group, Math.ceil(tx / GROUP), Math.ceil(ty / GROUP));
    }
    rec.end();
    return set.results.read(f);
  };
}
