// The package as a user gets it: `npm pack`, installed into a fresh project (the packed package.json's dependencies and
// optional peer, three, linked from this checkout's node_modules, as npm would install them; no network), type-checked with strict
// settings and no skipLibCheck under `node16` and `bundler` resolution, then run on the GPU; and every snippet of
// README.md and docs/, as a user would paste them: ```ts snippets run in Node and print what their last comment
// says; ```ts browser snippets are type-checked for a page (no Node types), their pages run by the Chromium tests.
import { describe, expect, it, beforeAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { labelCpu } from '../../src/reference/labelCpu.js';
import { randomBlocks } from '../../src/eval/images.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const project = mkdtempSync(join(tmpdir(), 'flowmark-consumer-'));
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');

const program = `import { GpuContext, fromPixels, threshold, features, readResults, type FrameResult, type GpuFrame } from 'flowmark';
import { readPng, fromVideoFile, type FromVideoFileOptions } from 'flowmark/node';
import { lastValueFrom, toArray } from 'rxjs';

const ctx: GpuContext = await GpuContext.create();
const device: GPUDevice = ctx.device; // the WebGPU types come with the package
const img = await readPng(process.argv[2], { maxPixels: ctx.maxFramePixels });
const results: FrameResult[] = await lastValueFrom(
  fromPixels(ctx, [img]).pipe(threshold({ level: 0 }), features({ minArea: 1 }), readResults(), toArray()),
);
const options: FromVideoFileOptions = { format: 'gray' };
void fromVideoFile;
void options;
void (null as GpuFrame | null);
console.log(JSON.stringify({ count: results[0].features!.count, limits: device.limits.maxBufferSize > 0 }));
ctx.destroy();
`;

// A browser app: no Node types at all, only the main entry.
const browserProgram = `import { GpuContext, fromCamera, threshold, features, readResults } from 'flowmark';
export async function start(canvas: HTMLCanvasElement): Promise<void> {
  const ctx = await GpuContext.create();
  fromCamera(ctx).pipe(threshold({ method: 'otsu' }), features(), readResults()).subscribe((r) => {
    canvas.title = String(r.features!.count);
  });
}
`;

/** Markdown files whose snippets are run: README.md and docs/ (the frozen history aside). */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'history' ? [] : markdownFiles(p);
    return p.endsWith('.md') ? [p] : [];
  });
}
interface Snippet {
  where: string;
  file: string;
  code: string;
  browser: boolean;
}
const snippets: Snippet[] = [join(repo, 'README.md'), ...markdownFiles(join(repo, 'docs'))].flatMap((md) => {
  const where = relative(repo, md);
  return [...readFileSync(md, 'utf8').matchAll(/```ts( browser)?\n([\s\S]*?)```/g)].map((m, i) => ({
    where: `${where} snippet ${i}`,
    file: `${where.replace(/[^A-Za-z0-9]/g, '_')}_${i}.ts`,
    code: m[2],
    browser: m[1] !== undefined,
  }));
});

const tsconfig = (resolution: 'node16' | 'bundler') => ({
  compilerOptions: {
    target: 'ES2022',
    module: resolution === 'node16' ? 'node16' : 'ES2022',
    moduleResolution: resolution,
    lib: ['ES2022', 'DOM'],
    types: ['node'],
    strict: true,
    skipLibCheck: false,
    outDir: `out-${resolution}`,
  },
  files: ['main.ts'],
});

beforeAll(() => {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', project], { cwd: repo, encoding: 'utf8' }))[0];
  const modules = join(project, 'node_modules');
  mkdirSync(modules);
  execFileSync('tar', ['xzf', join(project, packed.filename), '-C', project]);
  renameSync(join(project, 'package'), join(modules, 'flowmark'));
  // What npm would install: the packed package's dependencies (and the consumer's own @types/node, rxjs).
  const manifest = JSON.parse(readFileSync(join(modules, 'flowmark', 'package.json'), 'utf8'));
  // flowmark/three's optional peer, as a user of it installs it.
  for (const name of new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}), '@types/node', '@types/three'])) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(repo, 'node_modules', name), join(modules, name), 'dir');
  }
  // The snippets read the shipped samples by their paths in the repository.
  symlinkSync(join(repo, 'examples'), join(project, 'examples'), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(project, 'main.ts'), program);
  writeFileSync(join(project, 'browser.ts'), browserProgram);
  const png = new PNG({ width: 61, height: 37, colorType: 0, inputColorType: 0 } as ConstructorParameters<typeof PNG>[0]);
  const mask = randomBlocks(61, 37, 0.5, 2, 9);
  mask.forEach((v, p) => png.data.set([v, v, v, 255], 4 * p));
  writeFileSync(join(project, 'in.png'), PNG.sync.write(png, { colorType: 0 }));
}, 120_000);

/** Writes every snippet into the project and compiles the Node ones into out-docs/ (once); tsc's complaints. */
let compiled: string | undefined;
function compileDocs(): string {
  if (compiled === undefined) {
    for (const s of snippets) writeFileSync(join(project, s.file), s.code);
    const node = { compilerOptions: { ...tsconfig('node16').compilerOptions, outDir: 'out-docs' }, files: snippets.filter((s) => !s.browser).map((s) => s.file) };
    writeFileSync(join(project, 'tsconfig.docs.json'), JSON.stringify(node));
    const check = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.docs.json'], { cwd: project, encoding: 'utf8' });
    compiled = check.stdout + check.stderr;
  }
  return compiled;
}

describe('the packed package in a new project', () => {
  it('type-checks a browser program without Node types (bundler resolution)', () => {
    const config = { compilerOptions: { ...tsconfig('bundler').compilerOptions, types: [], noEmit: true }, files: ['browser.ts'] };
    writeFileSync(join(project, 'tsconfig.browser.json'), JSON.stringify(config));
    const check = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.browser.json'], { cwd: project, encoding: 'utf8' });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('type-checks every snippet of README.md and docs/: Node ones with Node types, browser ones without', () => {
    expect(snippets.filter((s) => !s.browser).length).toBeGreaterThanOrEqual(20);
    expect(snippets.filter((s) => s.browser).length).toBeGreaterThanOrEqual(2);
    expect(compileDocs()).toBe('');
    const browser = { compilerOptions: { ...tsconfig('bundler').compilerOptions, types: [], noEmit: true }, files: snippets.filter((s) => s.browser).map((s) => s.file) };
    writeFileSync(join(project, 'tsconfig.docs-browser.json'), JSON.stringify(browser));
    const checkBrowser = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.docs-browser.json'], { cwd: project, encoding: 'utf8' });
    expect(checkBrowser.stdout + checkBrowser.stderr).toBe('');
  });

  // Each Node snippet runs on its own and prints what its last comment says.
  for (const s of snippets.filter((s) => !s.browser)) {
    it(`runs ${s.where}, printing what its last comment says`, () => {
      expect(compileDocs()).toBe('');
      const said = /\/\/ prints: (.*)\n*$/.exec(s.code)?.[1];
      expect(said, `${s.where} ends with "// prints: …"`).toBeDefined();
      const run = spawnSync(process.execPath, [join('out-docs', s.file.replace(/\.ts$/, '.js'))], { cwd: project, encoding: 'utf8', timeout: 100_000 });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr.replace(/^Warning: .*\n/gm, ''), s.where).toBe('');
      expect(run.stdout.trim(), s.where).toBe(said);
    }, 110_000);
  }

  for (const resolution of ['node16', 'bundler'] as const) {
    it(`type-checks with moduleResolution ${resolution}, strict, no skipLibCheck, and runs`, () => {
      writeFileSync(join(project, `tsconfig.${resolution}.json`), JSON.stringify(tsconfig(resolution)));
      const check = spawnSync(process.execPath, [tsc, '-p', `tsconfig.${resolution}.json`], { cwd: project, encoding: 'utf8' });
      expect(check.stdout + check.stderr).toBe('');
      expect(check.status).toBe(0);
      const run = spawnSync(process.execPath, [join(`out-${resolution}`, 'main.js'), 'in.png'], { cwd: project, encoding: 'utf8', timeout: 120_000 });
      expect(run.status, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
      expect(out).toEqual({ count: labelCpu(randomBlocks(61, 37, 0.5, 2, 9), 61, 37, 8).count, limits: true });
    });
  }
});
