/**
 * An operator written outside flowmark, as a user would write one: `foregroundCount()` counts the mask's
 * foreground pixels on the GPU with its own WGSL and reads the count back as `result.foreground`. It follows the
 * pattern of flowmark's own operators (ARCHITECTURE.md, "Adding an operator"): options checked in the factory,
 * kernels and per-frame buffers taken through the node's scope (given back on unsubscribe), passes recorded into
 * the frame's encoder, a compact result read back by the sink.
 *
 * Run it: `node dist/examples/node/foregroundCount.js [image.png ...]` (default: the shipped sample frames).
 */
import { fileURLToPath } from 'node:url';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { lastValueFrom, toArray, type OperatorFunction } from 'rxjs';
import { GpuContext, InvalidFrameError, InvalidOptionError, readResults, threshold, type GpuFrame } from 'flowmark';
import { PassRecorder, gpuNode, uniformLayout, withRead, type WgslModule } from 'flowmark/extend';
import { fromImages } from 'flowmark/node';

// The result this operator adds to what the sink reads back.
declare module 'flowmark' {
  interface ResultValues {
    /** Foreground pixels of the frame's mask (`foregroundCount()`). */
    foreground?: number;
  }
}

/** The operator's WGSL: one invocation per mask word (four pixels), a workgroup sum, one atomic per workgroup. */
export const foregroundWgsl: WgslModule = {
  id: 'example/foregroundCount',
  code: /* wgsl */ `
override WG: u32; // the workgroup size flowmark gives every 1-D kernel (it sizes their dispatches by it)
struct Params { words: u32, pixels: u32, minValue: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> mask: array<u32>;
@group(0) @binding(2) var<storage, read_write> count: array<atomic<u32>>;
var<workgroup> sum: atomic<u32>;

@compute @workgroup_size(WG)
fn countForeground(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) li: u32) {
  let w = gid.y * nwg.x * WG + gid.x;
  var n = 0u;
  if (w < params.words) {
    let word = mask[w];
    for (var k = 0u; k < 4u; k++) {
      if (w * 4u + k < params.pixels && ((word >> (8u * k)) & 0xffu) >= params.minValue) { n += 1u; }
    }
  }
  if (n != 0u) { atomicAdd(&sum, n); }
  workgroupBarrier();
  if (li == 0u) { let s = atomicLoad(&sum); if (s != 0u) { atomicAdd(&count[0], s); } }
}
`,
};

export interface ForegroundCountOptions {
  /** Mask values counted as foreground, from this value up (default 1: any nonzero). */
  minValue?: number;
}

export function foregroundCount(options: ForegroundCountOptions = {}): OperatorFunction<GpuFrame, GpuFrame> {
  const minValue = options.minValue ?? 1;
  if (!Number.isInteger(minValue) || minValue < 1 || minValue > 255) throw new InvalidOptionError(`foregroundCount: minValue must be an integer 1..255, got ${minValue}`);
  return gpuNode('foregroundCount', async (node) => {
    const k = await node.kernels({ count: { shader: foregroundWgsl, entryPoint: 'countForeground', bindings: ['uniform', 'read-only-storage', 'storage'] } });
    const layout = uniformLayout(foregroundWgsl, 'Params');
    // What this operator writes for a frame: its own per frame, reused by later frames of the same size.
    const sets = node.perFrame((size, alloc) => {
      const pixels = size.width * size.height;
      const words = Math.ceil(pixels / 4);
      return {
        words,
        params: alloc.uniform('params', layout, { words, pixels, minValue }),
        count: alloc.buffer('count', 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST),
      };
    });
    return (f) => {
      if (!f.mask) throw new InvalidFrameError('foregroundCount: the frame has no mask; put threshold() first');
      const set = sets.take(f);
      f.encoder.clearBuffer(set.count);
      const rec = PassRecorder.of(f, 'foregroundCount');
      rec.items('count', k.count, set.bind('count', k.count, [set.params, f.mask, set.count]), set.words);
      rec.end();
      return withRead(f, { key: 'foreground', buffer: set.count, offset: 0, size: 4, decode: (b) => new Uint32Array(b)[0] });
    };
  });
}

async function main(): Promise<void> {
  const dir = fileURLToPath(new URL('../../../examples/data/frames/', import.meta.url));
  const files = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(dir).filter((f) => f.endsWith('.png')).sort().map((f) => join(dir, f));
  const ctx = await GpuContext.create({ label: 'foreground-count' });
  const results = await lastValueFrom(fromImages(ctx, files).pipe(threshold({ method: 'otsu', invert: true }), foregroundCount(), readResults(), toArray()));
  results.forEach((r, i) => console.log(`${files[i]}: ${r.width}x${r.height}, ${r.foreground} foreground pixels (Otsu level ${r.threshold!.level})`));
  ctx.destroy();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
