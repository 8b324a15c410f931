// The rooms of ARCHITECTURE.md and what may import what, checked on the source itself (TypeScript's own import
// scanner): the runtime imports no operator, operators never reach for the entry points, the CLI and the examples
// use only the public entry points, and nothing imports in a circle.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function walk(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const p = join(dir, name);
    return statSync(join(root, p)).isDirectory() ? walk(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** Every import and re-export of a file: relative ones as repository paths (.ts), the rest as written. */
function importsOf(file: string): { files: string[]; packages: string[] } {
  const info = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  const files: string[] = [];
  const packages: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) {
      packages.push(fileName);
      continue;
    }
    const target = relative(root, resolve(root, dirname(file), fileName)).replace(/\.js$/, '.ts');
    files.push(existsSync(join(root, target)) ? target : `${target} (missing)`);
  }
  return { files, packages };
}

/** Every file under `dir`, whatever its kind. */
function walkAll(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const p = join(dir, name);
    return statSync(join(root, p)).isDirectory() ? walkAll(p) : [p];
  });
}

const entries = ['index.ts', 'node.ts', 'three.ts', 'extend.ts', 'reference.ts'];
const sources = [...entries, ...walk('src'), ...walk('nodes'), ...walk('cli'), ...walk('bench')];
const graph = new Map(sources.map((f) => [f, importsOf(f)]));
const room = (f: string) => (entries.includes(f) ? 'entry' : f.split('/')[0]);
/** The test side of src/: CPU oracles (src/reference/) and evaluation scenes and metrics (src/eval/). */
const testSide = (f: string) => f.startsWith('src/reference/') || f.startsWith('src/eval/');
/** What ships and runs for a user: the entry points but flowmark/reference, the runtime and capabilities, operators, the CLI. */
const production = (f: string) => (room(f) === 'entry' ? f !== 'reference.ts' : ['src', 'nodes', 'cli'].includes(room(f)) && !testSide(f));

/** Imports of files in `from` that leave the rooms they may use. */
function breaches(from: string, allowed: (target: string) => boolean): string[] {
  return sources.filter((f) => room(f) === from).flatMap((f) => graph.get(f)!.files.filter((t) => !allowed(t)).map((t) => `${f} → ${t}`));
}

describe('architecture (ARCHITECTURE.md)', () => {
  it('sees the whole tree', () => {
    expect(sources.filter((f) => room(f) === 'src').length).toBeGreaterThan(15);
    expect(sources.filter((f) => room(f) === 'nodes').length).toBeGreaterThan(15);
    expect([...graph.values()].flatMap((g) => g.files).filter((t) => t.endsWith('(missing)'))).toEqual([]);
  });

  it('src/ imports no operator, entry point or program', () => {
    expect(breaches('src', (t) => t.startsWith('src/') || t.startsWith('shaders/'))).toEqual([]);
  });

  it('the runtime (src/core/) imports nothing of the project but itself and the shaders', () => {
    const core = sources.filter((f) => f.startsWith('src/core/'));
    expect(core.length).toBeGreaterThan(15);
    expect(core.flatMap((f) => graph.get(f)!.files.filter((t) => !t.startsWith('src/core/') && !t.startsWith('shaders/')).map((t) => `${f} → ${t}`))).toEqual([]);
  });

  it('production code never imports the CPU oracles or the evaluation code (they import the shared rules, not the reverse)', () => {
    expect(sources.filter(production).length).toBeGreaterThan(60);
    expect(sources.filter(production).flatMap((f) => graph.get(f)!.files.filter(testSide).map((t) => `${f} → ${t}`))).toEqual([]);
  });

  it('the tracker (src/track/) knows nothing of the parts after it: counting lines and zones (src/count/) read it, never the reverse', () => {
    expect(sources.filter((f) => f.startsWith('src/count/')).length).toBeGreaterThan(4);
    const tracker = sources.filter((f) => f.startsWith('src/track/') || f === 'nodes/track/track.ts');
    expect(tracker.flatMap((f) => graph.get(f)!.files.filter((t) => t.startsWith('src/count/')).map((t) => `${f} → ${t}`))).toEqual([]);
  });

  it('operators (nodes/) import the runtime, the shaders and each other, never the entry points or the CLI', () => {
    expect(breaches('nodes', (t) => ['src', 'shaders', 'nodes'].includes(room(t)))).toEqual([]);
  });

  it('the CLI uses the public entry points only, as a user program would', () => {
    expect(breaches('cli', (t) => room(t) === 'entry' || room(t) === 'cli')).toEqual([]);
  });

  it('the benchmarks use the public entry points (flowmark/reference for oracles and scenes) and test support only', () => {
    expect(sources.filter((f) => room(f) === 'bench').length).toBeGreaterThan(15);
    // cli/args.ts: the flag readers, so that --open 5x9 means the same to a benchmark as to `flowmark track`.
    expect(breaches('bench', (t) => room(t) === 'entry' || room(t) === 'bench' || t.startsWith('tests/support/') || t === 'cli/args.ts')).toEqual([]);
  });

  it('every benchmark file lies in a group (timing, chains, evaluation), the baselines or support', () => {
    const groups = ['timing', 'chains', 'evaluation', 'baselines', 'support'];
    const all = walkAll('bench');
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((f) => !groups.includes(f.split('/')[1]) || f.split('/').length !== 3)).toEqual([]);
  });

  it('the examples import the package by its public names only', () => {
    const examples = [...walk('examples/node'), ...walk('examples/browser')];
    expect(examples.length).toBeGreaterThan(1);
    for (const f of examples) {
      const { files, packages } = importsOf(f);
      expect(files.filter((t) => !t.startsWith('examples/')), f).toEqual([]);
      expect(packages.filter((p) => p.startsWith('flowmark') && !['flowmark', 'flowmark/node', 'flowmark/three', 'flowmark/extend', 'flowmark/reference'].includes(p)), f).toEqual([]);
    }
  });

  it('the main entry reaches no Node built-in (browsers bundle it); flowmark/node holds what needs Node', () => {
    const reached = new Set<string>();
    const visit = (f: string) => {
      if (reached.has(f)) return;
      reached.add(f);
      graph.get(f)?.files.forEach(visit);
    };
    visit('index.ts');
    const builtins = [...reached].flatMap((f) => (graph.get(f)?.packages ?? []).filter((p) => p.startsWith('node:')).map((p) => `${f} → ${p}`));
    expect(builtins).toEqual([]);
    expect(graph.get('node.ts')!.files.every((t) => t.startsWith('nodes/sources/') || t.startsWith('nodes/fleet/'))).toBe(true);
    // Nor a Redis client: the fleet is Node's alone (flowmark/node).
    expect([...reached].filter((f) => graph.get(f)?.packages.includes('redis'))).toEqual([]);
    // Only flowmark/reference reaches the oracles and scenes: the main entry ships none of them.
    expect([...reached].filter(testSide)).toEqual([]);
  });

  it('three.js (an optional peer) is reached only through flowmark/three: src/three/ and three.ts', () => {
    const users = sources.filter((f) => room(f) !== 'bench' && graph.get(f)!.packages.some((p) => p === 'three' || p.startsWith('three/')));
    expect(users.length).toBeGreaterThan(3);
    expect(users.filter((f) => !f.startsWith('src/three/'))).toEqual([]);
    // Nothing outside src/three/ imports it, so the main entry never loads three.
    expect(sources.filter((f) => !f.startsWith('src/three/') && f !== 'three.ts').flatMap((f) => graph.get(f)!.files.filter((t) => t.startsWith('src/three/')).map((t) => `${f} → ${t}`))).toEqual([]);
  });

  it('buffers are mapped only through mapBuffer (src/core/mapBuffer.ts), so that none is destroyed while its mapping is pending', () => {
    // The benchmarks' host-floor programs time a bare mapAsync on purpose, so they are left out.
    const direct = [...sources.filter((f) => room(f) !== 'bench'), ...walk('examples')].filter((f) => f !== 'src/core/mapBuffer.ts' && /\.mapAsync\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(direct).toEqual([]);
    expect(readFileSync(join(root, 'src/core/mapBuffer.ts'), 'utf8')).toMatch(/\.mapAsync\(/);
  });

  it('nothing imports in a circle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].join(' → '));
        return;
      }
      state.set(f, 'open');
      for (const t of graph.get(f)?.files ?? []) visit(t, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of sources) visit(f, []);
    expect(cycles).toEqual([]);
  });
});

describe('the record rule (shaders/common/record.wgsl)', () => {
  it('says once how every field merges: each field in exactly one list, 64-bit sums with their high words', () => {
    const wgsl = readFileSync(join(root, 'shaders/common/record.wgsl'), 'utf8');
    const consts = Object.fromEntries([...wgsl.matchAll(/const (\w+): u32 = (\d+)u;/g)].map((m) => [m[1], Number(m[2])]));
    const list = (name: string) => /const \w+: array<u32, \d+> = array<u32, \d+>\(([^)]*)\)/.exec(wgsl.slice(wgsl.indexOf(`const ${name}:`)))![1].split(',').map((s) => consts[s.trim()]);
    const covered = [...list('SUMS64').flatMap((f) => [f, f + 1]), ...list('SUMS'), ...list('MINS'), ...list('MAXS')].sort((a, b) => a - b);
    expect(covered).toEqual(Array.from({ length: consts.REC }, (_, i) => i));
  });
});
