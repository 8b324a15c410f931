/**
 * Uniform layouts and constants read from the WGSL itself, so TypeScript never restates them: `uniformLayout(id,
 * 'Params')` parses `struct Params { a: u32, b: i32, c: f32 }` (scalar fields, 4 bytes each) and `packUniform`
 * writes values by field name, failing on a missing or unknown field.
 */
import { shaderCode, shaderId, type ShaderSource } from './shaderSource.js';

export interface UniformLayout {
  readonly struct: string;
  readonly fields: readonly { name: string; type: 'u32' | 'i32' | 'f32'; offset: number }[];
  /** Size in bytes, padded to 16 as uniform buffers require. */
  readonly size: number;
}

const cache = new Map<string, UniformLayout>();

export function uniformLayout(shader: ShaderSource, struct: string): UniformLayout {
  const key = `${shaderId(shader)}:${struct}`;
  let layout = cache.get(key);
  if (layout) return layout;
  const m = new RegExp(`struct\\s+${struct}\\s*\\{([^}]*)\\}`).exec(shaderCode(shader));
  if (!m) throw new Error(`struct ${struct} not found in shader ${shaderId(shader)}`);
  const fields = m[1]
    .replace(/\/\/.*$/gm, '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((decl, i) => {
      const fm = /^(\w+)\s*:\s*(u32|i32|f32)$/.exec(decl);
      if (!fm) throw new Error(`${key}: only u32/i32/f32 scalar fields are supported, got "${decl}"`);
      return { name: fm[1], type: fm[2] as 'u32' | 'i32' | 'f32', offset: i * 4 };
    });
  layout = { struct, fields, size: Math.max(16, Math.ceil((fields.length * 4) / 16) * 16) };
  cache.set(key, layout);
  return layout;
}

export function packUniform(layout: UniformLayout, values: Readonly<Record<string, number>>): ArrayBuffer {
  const buf = new ArrayBuffer(layout.size);
  const view = new DataView(buf);
  for (const f of layout.fields) {
    const v = values[f.name];
    if (v === undefined) throw new Error(`uniform ${layout.struct}.${f.name} has no value`);
    if (f.type === 'u32') view.setUint32(f.offset, v, true);
    else if (f.type === 'i32') view.setInt32(f.offset, v, true);
    else view.setFloat32(f.offset, v, true);
  }
  for (const k of Object.keys(values)) {
    if (!layout.fields.some((f) => f.name === k)) throw new Error(`uniform ${layout.struct} has no field ${k}`);
  }
  return buf;
}

/** The value of `const NAME: u32 = <n>u;` in a shader (with its includes), so TypeScript never restates it. */
export function wgslConstant(shader: ShaderSource, name: string): number {
  const m = new RegExp(`const\\s+${name}\\s*:\\s*u32\\s*=\\s*(\\d+)u\\s*;`).exec(shaderCode(shader));
  if (!m) throw new Error(`shader ${shaderId(shader)} has no const ${name}: u32`);
  return Number(m[1]);
}
