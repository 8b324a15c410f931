// The `flowmark label` command as a user runs it: real PNG files in, .u32 label files out, errors per file.
import { describe, expect, it, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { labelCpu } from '../../src/reference/labelCpu.js';
import { featuresCpu } from '../../src/reference/featuresCpu.js';
import { randomBlocks } from '../../src/eval/images.js';
import { otsuLevel, thresholdAdaptive, thresholdFixed } from '../../src/reference/thresholdCpu.js';
import { grayFromRgba } from '../../src/image/grayFromRgba.js';

const cli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
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
  writePng(join(dir, 'color.png'), 50, 30, rgbaImg, 6);
  writeFileSync(join(dir, 'empty.png'), '');
  writeFileSync(join(dir, 'text.png'), 'this is not a png');
  writeFileSync(join(dir, 'truncated.png'), readFileSync(join(dir, 'gray.png')).subarray(0, 60));
  const whole = readFileSync(join(dir, 'gray.png'));
  writeFileSync(join(dir, 'half.png'), whole.subarray(0, whole.length >> 1));
});

/** A PNG whose header claims width×height, with one small IDAT: too large to decode, or corrupt if decoded. */
function claimPng(path: string, width: number, height: number): void {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data, Buffer.alloc(4)]); // CRC not checked before the size is
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth; color type 0 (gray)
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  writeFileSync(path, Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(1000))), chunk('IEND', Buffer.alloc(0))]));
}

const u32 = (path: string) => {
  const b = readFileSync(path);
  return new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
};

describe('flowmark label', () => {
  it('writes canonical labels for good files and reports bad ones, still labelling the rest', () => {
    const out = join(dir, 'out');
    const files = ['gray.png', 'missing.png', 'empty.png', 'text.png', 'truncated.png', 'half.png', 'color.png'].map((f) => join(dir, f));
    const r = run(['label', ...files, '--out-dir', out]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/gray\.png: 67x41, \d+ components, converged yes/);
    expect(r.stdout).toMatch(/color\.png: 50x30, \d+ components, converged yes/);
    expect(r.stderr).toMatch(/missing\.png: error: cannot read \(no such file\)/);
    expect(r.stderr).toMatch(/empty\.png: error: empty file/);
    expect(r.stderr).toMatch(/text\.png: error: not an image flowmark reads \(PNG, JPEG or WebP\)/);
    expect(r.stderr).toMatch(/truncated\.png: error: corrupt PNG/);
    expect(r.stderr).toMatch(/half\.png: error: corrupt PNG \(cut short: it ends at byte \d+, before its IEND chunk\)/);
    const refGray = labelCpu(grayImg, 67, 41, 8);
    expect(Array.from(u32(join(out, 'gray.u32')))).toEqual(Array.from(refGray.labels));
    expect(r.stdout).toContain(`${refGray.count} components`);
    expect(Array.from(u32(join(out, 'color.u32')))).toEqual(Array.from(labelCpu(rgbaImg, 50, 30, 8).labels));
  });

  it('says when an image under the default rule (any nonzero gray value) is one component: a photo, not a mask', () => {
    const photo = fileURLToPath(new URL('../../examples/data/photo.jpg', import.meta.url));
    const said = run(['label', photo, '--out-dir', join(dir, 'out-photo')]);
    expect(said.status, said.stderr).toBe(0);
    expect(said.stdout).toMatch(/photo\.jpg: 320x240, 1 components, .*a photo rather than a mask\? try --method otsu/);
    const otsu = run(['label', photo, '--out-dir', join(dir, 'out-photo'), '--method', 'otsu']);
    expect(otsu.stdout).toMatch(/photo\.jpg: 320x240, \d{2,} components/);
    expect(otsu.stdout).not.toContain('a photo rather than a mask');
    // A mask is not a photo, whatever it holds.
    expect(run(['label', join(dir, 'gray.png'), '--out-dir', join(dir, 'out-photo')]).stdout).not.toContain('photo rather');
  });

  it('honours --threshold and --connectivity 4, and exits 0 when every file works', () => {
    const out = join(dir, 'out4');
    const r = run(['label', join(dir, 'color.png'), '--out-dir', out, '--connectivity', '4', '--threshold', '150', '--passes', '64']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const mask = Uint8Array.from(rgbaImg, (v) => (v > 150 ? 255 : 0));
    expect(Array.from(u32(join(out, 'color.u32')))).toEqual(Array.from(labelCpu(mask, 50, 30, 4).labels));
  });

  it("keeps Dawn's limit warnings off stderr, and nothing else: the same run in one process differs by them alone", () => {
    const args = ['label', join(dir, 'gray.png'), join(dir, 'missing.png'), '--out-dir', join(dir, 'out-quiet')];
    const filtered = run(args);
    const direct = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, FLOWMARK_CLI_STDERR: 'direct' } });
    const dawn = /^Warning: \w+ artificially reduced from \d+ to \d+ to fit dynamic offset allocation limit\.\n/gm;
    expect(filtered.stderr).not.toMatch(dawn);
    expect(filtered.stderr).toContain('missing.png: error: cannot read (no such file)');
    expect(filtered.stderr).toBe(direct.stderr.replace(dawn, ''));
    expect([filtered.status, direct.status]).toEqual([1, 1]);
    expect(filtered.stdout.replace(/GPU [\d.]+ ms/, '')).toBe(direct.stdout.replace(/GPU [\d.]+ ms/, ''));
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
    const r = run(['label', join(dir, 'color.png'), '--out-dir', out, '--stats', '--algorithm', 'auto']);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(out, 'color.json'), 'utf8'));
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

  it('refuses an image too large for the device from its header, before decoding it', () => {
    claimPng(join(dir, 'big.png'), 30000, 30000);
    claimPng(join(dir, 'huge.png'), 100000, 100000);
    const r = run(['label', join(dir, 'big.png'), join(dir, 'huge.png'), join(dir, 'gray.png'), '--out-dir', join(dir, 'out-big')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/big\.png: error: image too large: 30000×30000 is 900000000 pixels, over the limit of \d+ pixels per frame/);
    expect(r.stderr).toMatch(/huge\.png: error: image too large: 100000×100000/);
    expect(r.stderr).not.toMatch(/corrupt/);
    expect(r.stdout).toMatch(/gray\.png: 67x41/);
  });

  it('refuses two inputs that would write one output, before any work', () => {
    mkdirSync(join(dir, 'a'), { recursive: true });
    mkdirSync(join(dir, 'b'), { recursive: true });
    writePng(join(dir, 'a', 'x.png'), 67, 41, grayImg, 0);
    writePng(join(dir, 'b', 'x.png'), 67, 41, grayImg, 0);
    const out = join(dir, 'out-clash');
    const r = run(['label', join(dir, 'a', 'x.png'), join(dir, 'b', 'x.png'), '--out-dir', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'a', 'x.png')} and ${join(dir, 'b', 'x.png')} would both write ${join(out, 'x.u32')}`);
    expect(existsSync(out)).toBe(false);
    // A video's per-frame label files against an image's name; the same input twice.
    expect(run(['label', join(dir, 'clip.mp4'), join(dir, 'clip-00001.png'), '--out-dir', out, '--labels']).stderr).toMatch(/would both write .*clip-00001\.u32/);
    expect(run(['label', join(dir, 'gray.png'), join(dir, 'gray.png'), '--out-dir', out]).status).toBe(2);
  });

  it('says why an output folder cannot be made, at once', () => {
    const r = run(['label', join(dir, 'gray.png'), '--out-dir', '/proc/flowmark-no/such']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--out-dir \/proc\/flowmark-no\/such: cannot create \/proc\/flowmark-no/);
    writeFileSync(join(dir, 'plain-file'), '');
    expect(run(['label', join(dir, 'gray.png'), '--out-dir', join(dir, 'plain-file', 'o')]).stderr).toMatch(/plain-file exists and is not a folder/);
  });

  it('thresholds as the library does: --method fixed|otsu|adaptive, --window, --offset, --invert', () => {
    const gray = grayFromRgba(Array.from(rgbaImg).flatMap((v) => [v, v, v, 255]), 50 * 30);
    const cases: [string[], Uint8Array][] = [
      [['--method', 'otsu'], thresholdFixed(gray, otsuLevel(gray))],
      [['--method', 'adaptive', '--window', '31', '--offset', '12', '--invert'], thresholdAdaptive(gray, 50, 30, 31, 12, true)],
      [['--method', 'adaptive'], thresholdAdaptive(gray, 50, 30, 15, 5)],
      [['--threshold', '100', '--invert'], thresholdFixed(gray, 100, true)],
    ];
    cases.forEach(([args, mask], i) => {
      const out = join(dir, `out-method-${i}`);
      const r = run(['label', join(dir, 'color.png'), '--out-dir', out, '--algorithm', 'c2fl', ...args]);
      expect(r.status, r.stderr).toBe(0);
      expect(Array.from(u32(join(out, 'color.u32'))), args.join(' ')).toEqual(Array.from(labelCpu(mask, 50, 30, 8).labels));
    });
  });

  it('refuses threshold options that do not fit, and an empty --threshold', () => {
    const bad = (args: string[]) => run(['label', join(dir, 'gray.png'), '--out-dir', join(dir, 'o-bad'), ...args]);
    for (const [args, message] of [
      [['--threshold', ''], /--threshold must be an integer 0\.\.255, got ""/],
      [['--threshold', '1e2'], /--threshold must be an integer/],
      [['--method', 'otsu', '--threshold', '5'], /--threshold goes with --method fixed, not otsu/],
      [['--window', '9'], /--window goes with --method adaptive, not fixed/],
      [['--method', 'adaptive', '--window', '8'], /window must be an odd integer/],
      [['--method', 'median'], /--method must be fixed, otsu or adaptive/],
    ] as const) {
      const r = bad([...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(run(['label', '--help']).stdout).toMatch(/--method fixed\|otsu\|adaptive/);
  });
});
