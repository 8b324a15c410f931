/**
 * Finds the WebGPU entry point: `navigator.gpu` in browsers, Dawn (the `webgpu` package) in Node.
 *
 * Dawn keeps the Node process alive while its instance is referenced, so the Node instance is reference-counted:
 * `releaseGpu()` drops the last reference and the process can exit once every context is destroyed.
 */
import { GpuUnavailableError } from './errors.js';

interface DawnInstance {
  gpu: GPU;
  refs: number;
  flags: string;
}

let dawn: DawnInstance | null = null;

/** Dawn flags used by default in Node. Timestamp quantization would round short passes to 0 ns. */
export const defaultDawnFlags: readonly string[] = ['disable-dawn-features=timestamp_quantization'];

export async function acquireGpu(dawnFlags: readonly string[] = defaultDawnFlags): Promise<{ gpu: GPU; node: boolean }> {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  if (nav?.gpu) return { gpu: nav.gpu, node: false };
  const isNode = typeof process !== 'undefined' && !!process.versions?.node;
  if (!isNode) throw new GpuUnavailableError('WebGPU is not available in this browser (navigator.gpu is missing).');
  const key = dawnFlags.join(' ');
  if (dawn && dawn.flags !== key && dawn.refs > 0) {
    throw new GpuUnavailableError(`Dawn is already running with flags "${dawn.flags}"; destroy its contexts first`);
  }
  if (!dawn || dawn.flags !== key) {
    // A variable specifier keeps browser bundlers from trying to include the native module.
    const specifier = 'webgpu';
    let mod: { create(flags: string[]): GPU; globals: Record<string, unknown> };
    try {
      mod = await import(/* @vite-ignore */ specifier);
    } catch (cause) {
      throw new GpuUnavailableError('The `webgpu` package (Dawn for Node) could not be loaded; run `npm install`.', {
        cause,
      });
    }
    // Dawn's enums (GPUBufferUsage, GPUMapMode, ...) are globals in browsers; make them so in Node too.
    for (const [k, v] of Object.entries(mod.globals)) {
      if (!(k in globalThis)) (globalThis as Record<string, unknown>)[k] = v;
    }
    dawn = { gpu: mod.create([...dawnFlags]), refs: 0, flags: key };
  }
  dawn.refs++;
  return { gpu: dawn.gpu, node: true };
}

export function releaseGpu(node: boolean): void {
  if (!node || !dawn) return;
  if (--dawn.refs <= 0) dawn = null; // last reference gone: Dawn's instance can be collected, Node can exit
}
