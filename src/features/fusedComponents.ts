/**
 * Components and features of a frame without labels, in one labeling (shaders/components.wgsl): C2FL tiles in
 * workgroup memory accumulate each tile-local part's features while the tile is labelled, the border merge
 * unites the tiles, parts are added into their roots' parts, roots are counted per band of rows, and roots are
 * filtered and numbered canonically.
 * No label image is relabelled or read back; the labeling exists as the union-find forest the kernels share.
 */
import type { GpuContext } from '../GpuContext.js';
import type { GpuFrame } from '../GpuFrame.js';
import type { Kernel, KernelSpec } from '../PipelineCache.js';
import { bindGroup } from '../kernels.js';
import { packUniform, uniformLayout } from '../uniforms.js';
import { InvalidFrameError } from '../errors.js';
import { PassRecorder } from '../PassRecorder.js';
import { record } from './record.js';
import { featureResults, filterParams, type FeaturesPath, type FeaturesSettings } from './FeaturesPath.js';

/** TS in shaders/common/c2flTile.wgsl. */
const TILE = 32;
/** GROUP in shaders/components.wgsl: resolve and compact take GROUP×GROUP tiles per workgroup. */
const GROUP = 4;
/** Words of a part: the record and its root's pixel index (PREC in components.wgsl). */
const partWords = record.REC + 1;
/** Words of `book` before the per-tile entries (M_TILES in components.wgsl). */
const bookHead = 4;

export async function fusedComponents(ctx: GpuContext, s: FeaturesSettings): Promise<FeaturesPath> {
  const { device, pool } = ctx;
  const group = ['uniform', 'read-only-storage', 'read-only-storage', 'storage', 'storage', 'storage', 'storage'] as const;
  const constants = { CONN8: s.connectivity === 8 ? 1 : 0 };
  const spec = (entryPoint: string): KernelSpec => ({ shader: 'components', entryPoint, bindings: group, constants });
  const k: Record<string, Kernel> = await ctx.pipelines.acquireAll({
    tile: spec('tilePartsScalar'),
    tileQuad: spec('tilePartsQuad'),
    merge: spec('mergeTiles'),
    resolve: spec('resolve'),
    scan: spec('scanRoots'),
    compact: spec('compactParts'),
  });
  const layout = uniformLayout('components', 'Params');
  const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
  const params = pool.acquire('components:params', layout.size, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
  const out = featureResults(ctx, s, 'components');
  const results = out.buffer;
  let size = '';
  let tilesX = 0;
  let tilesY = 0;
  let L: GPUBuffer | null = null;
  let parts: GPUBuffer | null = null;
  let book: GPUBuffer | null = null;
  let inputs: GPUBuffer[] = [];
  let bind: GPUBindGroup | null = null;

  const release = () => {
    for (const b of [L, parts, book]) pool.release(b);
    L = parts = book = null;
  };

  const resize = (f: GpuFrame) => {
    const key = `${f.width}x${f.height}`;
    if (key !== size) {
      size = key;
      tilesX = Math.ceil(f.width / TILE);
      tilesY = Math.ceil(f.height / TILE);
      if (tilesX > maxDim || tilesY > maxDim) throw new InvalidFrameError(`features: a ${f.width}×${f.height} frame needs more than ${maxDim} tiles of 32 along one side`);
      const pixels = f.width * f.height;
      // A tile holds at most 512 parts (a 4-connected checkerboard); every part has a pixel of its own.
      const most = Math.min(Math.ceil(pixels / 2) + tilesX * tilesY, tilesX * tilesY * 512);
      const bytesCap = Math.floor(ctx.limits.maxStorageBufferBindingSize / (partWords * 4));
      const capacity = Math.max(1, Math.min(s.maxComponents ?? Math.min(most, 1 << 20), bytesCap));
      release();
      L = pool.acquire('components:L', pixels * 4, GPUBufferUsage.STORAGE);
      parts = pool.acquire('components:parts', capacity * partWords * 4, GPUBufferUsage.STORAGE);
      // Head, per tile (first part, parts), per band the roots, per tile and row the root bits and their prefix.
      const bookWords = bookHead + 2 * tilesX * tilesY + tilesY + 2 * tilesX * tilesY * TILE;
      book = pool.acquire('components:book', bookWords * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
      // The allocator and overflow flag start at zero; the kernels reset them for every later frame.
      device.queue.writeBuffer(book, 0, new Uint32Array(bookHead));
      device.queue.writeBuffer(params, 0, packUniform(layout, { width: f.width, height: f.height, tilesX, tilesY, capacity, ...filterParams(s) }));
      inputs = [];
    }
    const now = [f.mask!, f.gray!];
    if (now.some((b, i) => b !== inputs[i])) {
      inputs = now;
      bind = bindGroup(device, 'components:group', k.tile, [params, f.mask!, f.gray!, L!, parts!, book!, results]);
    }
  };

  const dispatch = (pass: GPUComputePassEncoder, kernel: Kernel, x: number, y = 1) => {
    pass.setPipeline(kernel.pipeline);
    pass.setBindGroup(0, bind!);
    pass.dispatchWorkgroups(x, y);
  };
  /** One workgroup per tile, or (`group`) per GROUP×GROUP tiles. */
  const grid = (pass: GPUComputePassEncoder, kernel: Kernel, group = 1) => dispatch(pass, kernel, Math.ceil(tilesX / group), Math.ceil(tilesY / group));

  return {
    record(f) {
      resize(f);
      const rec = new PassRecorder(f.encoder, f.profile, 'features:components', s.profileKernels);
      for (let r = 0; r < s.repeat; r++) {
        // Rows starting on 16-byte boundaries let each invocation store its four labels at once.
        rec.stage('tile', (pass) => grid(pass, f.width % 4 === 0 ? k.tileQuad : k.tile));
        rec.stage('merge', (pass) => grid(pass, k.merge));
        rec.stage('resolve', (pass) => grid(pass, k.resolve, GROUP));
        rec.stage('scan', (pass) => dispatch(pass, k.scan, tilesY)); // one workgroup per band of 32 rows
        rec.stage('compact', (pass) => grid(pass, k.compact, GROUP));
      }
      rec.end();
      return out.read(f);
    },
    dispose() {
      ctx.pipelines.releaseAll(k);
      release();
      for (const b of [params, results]) pool.release(b);
    },
  };
}
