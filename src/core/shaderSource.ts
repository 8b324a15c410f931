/**
 * Where a kernel's WGSL comes from: one of flowmark's shaders (`shaders/**.wgsl`, built into shaders/wgsl.ts) by
 * its id, or a module an operator outside the package brings (its own id and code). Pipelines, uniform layouts
 * and the pipeline cache's keys all go through here.
 */
import { wgsl, type ShaderId } from '../../shaders/wgsl.js';

/** WGSL an operator outside flowmark brings. `id` names it in cache keys and errors: one id, one code. */
export interface WgslModule {
  readonly id: string;
  readonly code: string;
}

export type ShaderSource = ShaderId | WgslModule;

export function shaderId(source: ShaderSource): string {
  return typeof source === 'string' ? source : source.id;
}

export function shaderCode(source: ShaderSource): string {
  if (typeof source !== 'string') return source.code;
  const code = wgsl[source];
  if (code === undefined) throw new Error(`no shader ${String(source)} in shaders/`);
  return code;
}
