// The `flowmark label` command as a user runs it: real PNG files in, .u32 label files out, errors per file.
import { describe, expect, it, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { labelCpu } from '../src/reference/labelCpu.js';
import { featuresCpu } from '../src/reference/featuresCpu.js';
import { randomBlocks } from '../src/reference/images.js';

const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'flowmark-cli-'));

function writePng(path: string, width: number, height: number, gray: Uint8Array, colorType: 0 | 6): void {
  const png = new PNG({ width, height, colorType, inputColorType: 6 });
  for (let p = 0; p < width * height; p++) png.data.set([gray[p], gray[p], gray[p], 255], 4 * p);
  writeFileSync(path, PNG.sync.write(png, { colorType, inputColorType: 6 }));
}

function run(args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 120_000 });
}

const grayImg = randomBlocks(67, 41, 0.55, 2, 3);
// Gray levels 0..255 so --threshold matters.
const rgbaImg = Uint8Array.from(randomBlocks(50, 30, 0.6, 1, 4), (v, i) => (v ? 60 + ((i * 37) % 196) : 0));

beforeAll(() => {
  expect(existsSync(cli), 'build first: npm run build').toBe(true);
  writePng(join(dir, 'gray.png'), 67, 41, grayImg, 0);
  writePng(join(dir, 'colour.png'), 50, 30, rgbaImg, 6);
  writeFileSync(join(dir, 'empty.png'), '');
  writeFileSync(join(dir, 'text.png'), 'this is not a png');
  writeFileSync(join(dir, 'truncated.png'), readFileSync(join(dir, 'gray.png')).subarray(0, 60));
});

const u32 = (path: string) => {
  const b = readFileSync(path);
  return new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
};

describe('flowmark label', () => {
  it('writes canonical labels for good files and reports bad ones, still labelling the rest', () => {
    const out = join(dir, 'out');
    const files = ['gray.png', 'missing.png', 'empty.png', 'text.png', 'truncated.png', 'colour.png'].map((f) => join(dir, f));
    const r = run(['label', ...files, '--out-dir', out]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/gray\.png: 67x41, \d+ components, converged yes/);
    expect(r.stdout).toMatch(/colour\.png: 50x30, \d+ components, converged yes/);
    expect(r.stderr).toMatch(/missing\.png: error: cannot read \(no such file\)/);
    expect(r.stderr).toMatch(/empty\.png: error: empty file/);
    expect(r.stderr).toMatch(/text\.png: error: not a PNG file/);
    expect(r.stderr).toMatch(/truncated\.png: error: corrupt PNG/);
    const refGray = labelCpu(grayImg, 67, 41, 8);
    expect(Array.from(u32(join(out, 'gray.u32')))).toEqual(Array.from(refGray.labels));
    expect(r.stdout).toContain(`${refGray.count} components`);
    expect(Array.from(u32(join(out, 'colour.u32')))).toEqual(Array.from(labelCpu(rgbaImg, 50, 30, 8).labels));
  });

  it('honours --threshold and --connectivity 4, and exits 0 when every file works', () => {
    const out = join(dir, 'out4');
    const r = run(['label', join(dir, 'colour.png'), '--out-dir', out, '--connectivity', '4', '--threshold', '150', '--passes', '64']);
    expect(r.stderr.replace(/^Warning:.*\n/gm, '')).toBe('');
    expect(r.status).toBe(0);
    const mask = Uint8Array.from(rgbaImg, (v) => (v > 150 ? 255 : 0));
    expect(Array.from(u32(join(out, 'colour.u32')))).toEqual(Array.from(labelCpu(mask, 50, 30, 4).labels));
  });

  it('labels with every algorithm, auto included, to the same files', () => {
    for (const algorithm of ['union-find', 'buf', 'ha4', 'c2fl', 'tiles', 'auto']) {
      const out = join(dir, `out-${algorithm}`);
      const r = run(['label', join(dir, 'gray.png'), '--out-dir', out, '--algorithm', algorithm]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/converged yes \(0 passes\)/);
      expect(Array.from(u32(join(out, 'gray.u32')))).toEqual(Array.from(labelCpu(grayImg, 67, 41, 8).labels));
    }
  });

  it('--stats writes the features of every component as JSON', () => {
    const out = join(dir, 'out-stats');
    const r = run(['label', join(dir, 'colour.png'), '--out-dir', out, '--stats', '--algorithm', 'auto']);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(out, 'colour.json'), 'utf8'));
    const labels = labelCpu(rgbaImg, 50, 30, 8).labels;
    const want = featuresCpu(labels, rgbaImg, 50, 30);
    expect(json.width).toBe(50);
    expect(json.height).toBe(30);
    expect(json.count).toBe(want.count);
    expect(json.components.map((c: { label: number }) => c.label)).toEqual(Array.from(want.label));
    json.components.forEach((c: Record<string, number>, i: number) => {
      expect([c.area, c.x0, c.y0, c.x1, c.y1, c.perimeter]).toEqual([want.area[i], want.x0[i], want.y0[i], want.x1[i], want.y1[i], want.perimeter[i]]);
      for (const k of ['cx', 'cy', 'orientation', 'eccentricity', 'meanGray'] as const) expect(c[k]).toBeCloseTo(want[k][i], 9);
    });
  });

  it('explains usage errors with exit code 2', () => {
    expect(run(['label', join(dir, 'gray.png')]).stderr).toMatch(/--out-dir DIR is required/);
    expect(run(['label', join(dir, 'gray.png'), '--out-dir', dir, '--connectivity', '6']).status).toBe(2);
    expect(run(['label', join(dir, 'gray.png'), '--out-dir', dir, '--passes', 'many']).stderr).toMatch(/passes/);
    expect(run(['frobnicate']).status).toBe(2);
    expect(run(['label', join(dir, 'gray.png'), '--out-dir', dir, '--algorithm', 'ha9']).stderr).toMatch(/algorithm must be one of/);
    expect(run(['--help']).stdout).toMatch(/flowmark <command>/);
  });
});
