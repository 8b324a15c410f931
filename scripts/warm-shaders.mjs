// Compiles, once per machine, the kernels that a software GPU takes minutes to compile, before the tests run:
// lavapipe (Mesa's LLVM Vulkan driver) needs 1.5–2 minutes for the marker fit (shaders/markers/fit.wgsl) at each
// workgroup size (4 before its functions with barriers were called once each), more on a slow day, against the tests'
// 4-minute limit; Mesa's shader cache then keeps it (a second run takes seconds).
// Run by scripts/test.sh after the build. Real GPUs compile it in well under a second.
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, fromPixels, readResults } from '../dist/index.js';
import { markersWith } from '../dist/nodes/markers/markers.js';

const started = performance.now();
const ctx = await GpuContext.create({ label: 'warm-shaders' });
const frame = { width: 64, height: 64, format: 'gray', data: new Uint8Array(64 * 64).fill(200) };
for (const fitInvocations of [256, 512]) {
  if (ctx.limits.maxComputeInvocationsPerWorkgroup < fitInvocations) continue;
  await lastValueFrom(fromPixels(ctx, [frame]).pipe(markersWith({ dictionary: 'DICT_4X4_50' }, { fitInvocations }), readResults(), toArray()));
}
ctx.destroy();
console.log(`shaders warmed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
