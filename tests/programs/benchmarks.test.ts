// The benchmark programs BENCHMARKS.md quotes run from a fresh build, at small sizes, and print whole tables: each
// row has every column, the figures are numbers, the references run beside flowmark, and what two runs of one
// image must agree on agrees. Times are not judged here (this machine emulates the GPU); the programs are, so that
// a user can rerun the commands in BENCHMARKS.md. The long ones (video throughput, the evaluations, pass costs)
// are left to their own tests or to the device.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTotals } from '../../bench/evaluation/evalTotals.js';

/** Runs dist/bench/<name>.js with `args`: its exit status, stdout and stderr. */
function runBench(name: string, args: string[]) {
  const program = fileURLToPath(new URL(`../../dist/bench/${name}.js`, import.meta.url));
  return spawnSync(process.execPath, [program, ...args], { encoding: 'utf8', timeout: 240_000 });
}

/** A benchmark's output, once it has exited 0. */
function bench(name: string, args: string[]): string {
  const r = runBench(name, args);
  expect(r.status, `${name}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

interface Table {
  header: string[];
  rows: string[][];
}

/** The markdown tables of a program's output, in order; a row with a cell count other than its header's fails. */
function tables(out: string): Table[] {
  const found: Table[] = [];
  const lines = out.split('\n');
  const cells = (line: string) => line.trim().slice(1, -1).split('|').map((c) => c.trim());
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i].startsWith('|') || !/^\|(---\|)+$/.test(lines[i + 1].trim())) continue;
    const header = cells(lines[i]);
    const rows: string[][] = [];
    for (i += 2; i < lines.length && lines[i].startsWith('|'); i++) {
      const row = cells(lines[i]);
      expect(row, lines[i]).toHaveLength(header.length);
      rows.push(row);
    }
    found.push({ header, rows });
  }
  return found;
}

/** The column of a table by its header (the header's first cell that starts with `name`). */
function column(t: Table, name: string): string[] {
  const at = t.header.findIndex((h) => h.replace(/\*/g, '').startsWith(name));
  expect(at, `${name} in ${t.header.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return t.rows.map((r) => r[at]);
}

/** A cell's leading number (bold and a trailing note in parentheses allowed). */
function num(cell: string): number {
  const m = /^\**(-?[\d.]+)/.exec(cell);
  expect(m, `a number: "${cell}"`).not.toBeNull();
  return Number(m![1]);
}

const positive = (cells: string[]) => cells.forEach((c) => expect(num(c), c).toBeGreaterThan(0));
/** Times that may print as 0.0 at these sizes (the CPU reference of a 64×64 image). */
const measured = (cells: string[]) => cells.forEach((c) => expect(num(c), c).toBeGreaterThanOrEqual(0));

describe('benchmark programs, small sizes', { timeout: 300_000 }, () => {
  it('compile: a row per chain asked for, its first frame on a fresh device and its second; bad chains and sizes refused', () => {
    // markers-256 compiles the marker fit, which scripts/warm-shaders.mjs has put in Mesa's cache before the tests.
    const [t] = tables(bench('timing/compile', ['--chains', 'markers-256,track,label', '--size', '64x48']));
    const algorithms = ['shibata', 'union-find', 'buf', 'ha4', 'c2fl', 'tiles'];
    expect(column(t, 'chain')).toEqual(['markers, fit at 256', 'background → morphology → features', ...algorithms.map((a) => `threshold → label (${a}) → features`)]);
    positive(column(t, 'first frame'));
    positive(column(t, 'second frame'));
    const bad = runBench('timing/compile', ['--chains', 'label,fast']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe('compile.js: --chains takes a comma list of markers-256, markers-512, track, label, got "fast" (--help for the usage)');
    const small = runBench('timing/compile', ['--size', '8x8']);
    expect(small.status).toBe(2);
    expect(small.stderr.trim()).toBe('compile.js: --size takes WxH, each at least 16, got "8x8" (--help for the usage)');
  });

  it('latency: every run × density cell, the two labelings of an image counting the same components', () => {
    const [cells, means] = tables(bench('timing/latency', ['--sizes', '96x64', '--frames', '10', '--warmup', '2']));
    const runs = ['shibata', 'c2fl', 'threshold → c2fl → features', 'threshold → features (one labeling)'];
    expect(cells.rows).toHaveLength(runs.length * 11);
    positive(column(cells, 'wall p50 ms'));
    positive(column(cells, 'GPU ms'));
    const components = (run: string) => cells.rows.filter((r) => r[0] === run).map((r) => r[2]);
    expect(components('shibata')).toEqual(components('c2fl'));
    expect(components('c2fl')).toEqual(components('threshold → c2fl → features'));
    expect(column(means, 'run')).toEqual(runs);
    positive(column(means, 'wall p50 ms'));
  });

  it('hostFloor: every run in every cell, and a summary row per run', () => {
    const [cells, means] = tables(bench('timing/hostFloor', ['--size', '96x64', '--cells', '2', '--frames', '10', '--warmup', '2', '--host-ms', '0.05']));
    const runs = ['host work', 'empty round trip', 'upload + round trip', 'host work + round trip'];
    expect(cells.rows.map((r) => r[0])).toEqual([...runs, ...runs]);
    positive(column(cells, 'wall p50 ms'));
    column(cells, 'p99/p50').forEach((c) => expect(num(c)).toBeGreaterThanOrEqual(1));
    expect(column(means, 'run')).toEqual(runs);
    expect(column(means, 'cells with')).toEqual(runs.map(() => expect.stringMatching(/^\d+ of 2$/)));
  });

  it('labeling: six algorithms per density beside the CPU reference', () => {
    const [perDensity, wall] = tables(bench('timing/labeling', ['--size', '64', '--reps', '2', '--granularities', '4', '--hd', 'no']));
    expect(perDensity.rows.filter((r) => /^\d/.test(r[0]))).toHaveLength(11);
    for (const algorithm of ['shibata', 'union-find', 'buf', 'ha4', 'c2fl', 'tiles']) positive(column(perDensity, algorithm).slice(0, 12));
    measured(column(perDensity, 'CPU ref').slice(0, 12));
    positive(wall.rows[0].slice(1));
  });

  it('features: one labeling beside labels + features and the naive kernel, at three granularities', () => {
    const found = tables(bench('timing/features', ['--size', '64', '--reps', '2', '--repeat', '1']));
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const t of found.slice(0, 3)) {
      expect(t.rows).toHaveLength(12);
      positive(column(t, 'labels + features, one labeling'));
      positive(column(t, 'naive per-pixel'));
    }
  });

  it('decode and tracker: host-only tables', () => {
    const [decode] = tables(bench('timing/decode', ['--counts', '64,1024', '--reps', '20']));
    expect(column(decode, 'components')).toEqual(['64', '1024']);
    positive(column(decode, 'decode µs'));
    // With each component's histogram after the records.
    const [withHistograms] = tables(bench('timing/decode', ['--counts', '64', '--reps', '20', '--histogram']));
    expect(column(withHistograms, 'components')).toEqual(['64']);
    positive(column(withHistograms, 'decode µs'));
    const [tracker] = tables(bench('timing/tracker', ['--blobs', '10,50', '--frames', '60', '--warmup', '20']));
    // Each count without the blobs' histograms and with them.
    expect(column(tracker, 'blobs')).toEqual(['10', '10', '50', '50']);
    expect(column(tracker, 'histograms')).toEqual(['no', 'yes', 'no', 'yes']);
    positive(column(tracker, 'median µs/frame'));
    // The p99 again without the frames a garbage collection overlapped (never above the p99 of all), and the frames
    // over twice the median with how many of those a collection overlapped.
    column(tracker, 'p99, frames in no collection').forEach((c, i) => expect(num(c)).toBeLessThanOrEqual(num(column(tracker, 'p99 µs/frame')[i])));
    column(tracker, 'frames over 2× the median').forEach((c) => {
      const [, slow, inGc] = /^(\d+) \((\d+)\)$/.exec(c) ?? [];
      expect(Number(inGc), c).toBeLessThanOrEqual(Number(slow));
      expect(Number(slow), c).toBeLessThanOrEqual(40);
    });
    // Objects bounce inside the frame: about one track each, every object given an id.
    column(tracker, 'tracks alive').forEach((c, i) => expect(num(c) / [10, 10, 50, 50][i]).toBeGreaterThan(0.8));
    column(tracker, 'ids made').forEach((c, i) => expect(num(c)).toBeGreaterThanOrEqual([10, 10, 50, 50][i]));
    // One kind of row, and each row's medians over every 25 frames (60 frames: three windows, the last of 10).
    const [withHists, windows] = tables(bench('timing/tracker', ['--blobs', '10', '--frames', '60', '--warmup', '20', '--histograms', 'yes', '--windows', '25']));
    expect(column(withHists, 'histograms')).toEqual(['yes']);
    expect(column(windows, 'blobs')).toEqual(['10']);
    const medians = column(windows, 'medians')[0].split(' ').map(Number);
    expect(medians).toHaveLength(3);
    medians.forEach((m) => expect(m).toBeGreaterThanOrEqual(0));
    // With spatial histograms and placeByGray: its own row.
    const [spatial] = tables(bench('timing/tracker', ['--blobs', '10', '--frames', '60', '--warmup', '20', '--histograms', 'spatial']));
    expect(column(spatial, 'histograms')).toEqual(['spatial']);
    expect(num(column(spatial, 'median µs/frame')[0])).toBeGreaterThan(0);
    // A flood of noise blobs over the objects, with a digest of the tracker's output: the same from one run to the
    // next (what tells two builds apart is the output, not the run), another without the noise.
    const flood = ['--blobs', '10', '--frames', '40', '--warmup', '10', '--histograms', 'yes', '--digest', 'yes'];
    const [noisy] = tables(bench('timing/tracker', [...flood, '--noise', '300']));
    const [again] = tables(bench('timing/tracker', [...flood, '--noise', '300']));
    const [quiet] = tables(bench('timing/tracker', flood));
    expect(column(noisy, 'digest')[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(column(again, 'digest')).toEqual(column(noisy, 'digest'));
    expect(column(quiet, 'digest')[0]).not.toBe(column(noisy, 'digest')[0]);
    // Noise at new places every frame: many tracks made (tentative ones seen once are dropped), far more than objects.
    expect(num(column(noisy, 'ids made')[0])).toBeGreaterThan(300);
    expect(num(column(quiet, 'ids made')[0])).toBeLessThan(300);
  });

  it('probe: a video opened by its index beside the whole read, a row per file with its frames', () => {
    const street = fileURLToPath(new URL('../../examples/data/street.mp4', import.meta.url));
    const [probe] = tables(bench('timing/probe', ['--rounds', '2', street]));
    expect(column(probe, 'file')).toEqual(['street.mp4']);
    expect(column(probe, 'container')).toEqual(['mp4']);
    expect(column(probe, 'frames')).toEqual(['300']);
    for (const cell of [...column(probe, 'probeVideoFile ms'), ...column(probe, 'whole read + mp4box ms (before)')]) expect(cell).toMatch(/^\d+\.\d–\d+\.\d$/);
  });

  it('browserGpu: Dawn in Node beside Chromium on SwiftShader, a row for each feature or limit that differs and none other', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowmark-browsergpu-'));
    try {
      const json = join(dir, 'probe.json');
      const [diff] = tables(bench('chains/browserGpu', ['--chromium-gpu', 'swiftshader', '--json', json]));
      type Report = { info: Record<string, unknown>; features: string[]; limits: Record<string, number> };
      const { node, chromium } = JSON.parse(readFileSync(json, 'utf8')) as { node: Report; chromium: Report };
      // Chromium's SwiftShader is a fallback adapter with subgroups of 4 (the tests' browser).
      expect(chromium.info).toMatchObject({ vendor: 'google', isFallbackAdapter: true, subgroupMinSize: 4 });
      expect(node.limits.maxComputeInvocationsPerWorkgroup).toBeGreaterThanOrEqual(256);
      const differing = [
        ...[...new Set([...node.features, ...chromium.features])].filter((f) => node.features.includes(f) !== chromium.features.includes(f)),
        ...Object.keys(node.limits).filter((k) => node.limits[k] !== chromium.limits[k]),
      ].sort();
      expect(differing.length).toBeGreaterThan(0);
      expect(column(diff, 'feature or limit').sort()).toEqual(differing);
      for (const row of diff.rows.filter((r) => r[0] in node.limits)) expect(row.slice(1)).toEqual([String(node.limits[row[0]]), String(chromium.limits[row[0]])]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('dots, markers and AR: the chains with their accuracy, markers beside OpenCV', () => {
    const [dots] = tables(bench('timing/dots', ['--size', '160x120', '--dots', '10', '--frames', '5', '--warmup', '2']));
    const [found, of] = column(dots, 'round blobs found')[0].split('/').map(Number);
    expect(found).toBe(of);
    expect(num(column(dots, 'centre RMSE px')[0])).toBeLessThan(0.2);

    const out = bench('timing/markers', ['--size', '320x240', '--markers', '2', '--frames', '5', '--warmup', '2']);
    expect(out).toMatch(/same IDs in 5 of 5 scenes/);
    const [gpu, wall] = tables(out);
    positive(column(gpu, 'whole chain'));
    expect(column(wall, 'detector').filter((d) => d.startsWith('OpenCV'))).toHaveLength(2);
    expect(column(wall, 'markers found')).toEqual(['10/10', '10/10', '10/10']);

    const ar = bench('chains/ar', ['--size', '160x120', '--markers', '2', '--frames', '5', '--warmup', '2']);
    const rows = ar.split('\n').filter((l) => /^markers \+ pose/.test(l));
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(Number(r.trim().split(/\s+/).at(-1))).toBeGreaterThan(0);
  });

  it('surveillance: seven chains, many streams and OpenCV MOG2 in the same run', () => {
    const out = bench('chains/surveillance', ['--size', '160x120', '--frames', '5', '--warmup', '2', '--streams', '2', '--stream-size', '160x120', '--heat-ms', '100', '--opencv-repeat', '1']);
    const [chains] = tables(out);
    expect(chains.rows).toHaveLength(7);
    positive(column(chains, 'GPU total ms'));
    positive(column(chains, 'one at a time wall p50 ms'));
    expect(out).toMatch(/2 streams of 160×120 on one context .*: [\d.]+ frames\/s in all/);
    expect(out).toMatch(/OpenCV [\d.]+ on the CPU .* MOG2 [\d.]+, .* total [\d.]+/);
  });

  it('markersRuns: a row per level of noise and clutter, no frame differing between runs', () => {
    const [t] = tables(bench('evaluation/markersRuns', ['--frames', '2', '--runs', '2', '--size', '640x480']));
    expect(t.rows.map((r) => r.slice(0, 2))).toEqual([['4', '10'], ['8', '30'], ['12', '60']]);
    expect(column(t, 'frames differing between runs')).toEqual(['0 of 2', '0 of 2', '0 of 2']);
    for (const found of column(t, 'markers found (first run)')) expect(Number(found.split(' of ')[0])).toBeGreaterThan(8);
  });

  it('memory: RSS and the pool every few frame sizes, the pool never past its bound', () => {
    const out = bench('chains/memory', ['--sizes', '6', '--every', '3', '--pool-free-bytes', String(1 << 20)]);
    const [t] = tables(out);
    expect(t.rows.map((r) => r[0])).toEqual(['3', '6']);
    positive(column(t, 'RSS MiB'));
    for (const free of column(t, 'pool free MiB')) expect(Number(free)).toBeLessThanOrEqual(1);
    expect(out).toMatch(/pool bound 1 MiB/);
    expect(out).toMatch(/peak RSS \d+ MiB over 6 frame sizes/);
  });

  it('soak: RSS over context cycles (flowmark beside raw WebGPU), frames of the markers and tracking chains, and the label CLI', () => {
    const contexts = bench('chains/soak', ['--run', 'contexts', '--count', '4', '--every', '2']);
    const [ours, raw] = tables(contexts);
    for (const t of [ours, raw]) {
      expect(t.rows.map((r) => r[0])).toEqual(['2', '4']);
      positive(column(t, 'RSS MiB'));
    }
    expect(contexts).toMatch(/raw WebGPU devices/);
    for (const [run, count, every, what] of [['markers', 6, 3, 'frames'], ['tracking', 6, 3, 'frames'], ['label', 4, 2, 'images labelled']] as const) {
      const out = bench('chains/soak', ['--run', run, '--count', String(count), '--every', String(every)]);
      const [t] = tables(out);
      expect(t.rows.map((r) => r[0]), run).toEqual([String(every), String(count)]);
      positive(column(t, 'RSS MiB'));
      expect(out).toMatch(new RegExp(`peak RSS \\d+ MiB; from \\d+ to ${count} ${what}`));
    }
  });
});

describe('benchmark command lines', () => {
  // Every program in bench/'s groups that a user runs (bench/support/ and the evaluation's helpers are not programs),
  // found in the build, as group/name.
  const dist = fileURLToPath(new URL('../../dist/bench/', import.meta.url));
  const helpers = ['chains/videoPage', 'evaluation/boxCauses', 'evaluation/crossingViews', 'evaluation/countBounds', 'evaluation/evalTotals'];
  const programs = ['timing', 'chains', 'evaluation']
    .flatMap((group) => readdirSync(join(dist, group)).filter((f) => f.endsWith('.js')).map((f) => `${group}/${f.replace(/\.js$/, '')}`))
    .filter((name) => !helpers.includes(name));

  it('finds the programs', () => expect(programs.length).toBeGreaterThanOrEqual(16));

  it.each(programs)('%s: --help prints its usage, a bad option or number is one line and exit 2', (name) => {
    const help = runBench(name, ['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain(`node dist/bench/${name}.js`);
    expect(help.stdout).not.toMatch(/^\s*\*/m); // the comment's marks are gone
    const bad = runBench(name, ['--no-such-option']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe(`${name.split('/')[1]}.js: Unknown option '--no-such-option' (--help for the usage)`);
  });

  it('refuses a value that is not a number where a number is wanted, naming the option', () => {
    for (const [args, why] of [
      [['--frames', 'many'], '--frames takes a number, got "many"'],
      [['--blobs', '10,,50'], '--blobs takes a number list, got "10,,50"'],
      [['--frames'], "Option '--frames <value>' argument missing"],
      // The program's own check, refused the same way.
      [['--frames', '100'], '--frames must be an integer above --warmup (a non-negative integer), got 100 and 200'],
    ] as const) {
      const r = runBench('timing/tracker', [...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim()).toBe(`tracker.js: ${why} (--help for the usage)`);
    }
    // A word the program takes from a list, refused before any clip is made.
    const r = runBench('evaluation/trackEval', ['--geometry', 'tilted']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('trackEval.js: --geometry must be flat or street, got "tilted" (--help for the usage)');
    const closing = runBench('evaluation/trackEval', ['--close', '5x8']);
    expect(closing.status).toBe(2);
    expect(closing.stderr.trim()).toBe('trackEval.js: --close must be N or WxH, odd integers 1..31, got "5x8" (--help for the usage)');
    for (const bad of ['1.5', '0.3']) {
      const step = runBench('evaluation/trackEval', ['--frame-step', bad]);
      expect(step.status).toBe(2);
      expect(step.stderr.trim()).toBe(`trackEval.js: --frame-step must be a positive integer or the inverse of one (0.5: 60 frames a second), got "${bad}" (--help for the usage)`);
    }
    for (const bad of ['0', '5']) {
      const d = runBench('evaluation/trackEval', ['--density', bad]);
      expect(d.status).toBe(2);
      expect(d.stderr.trim()).toBe(`trackEval.js: --density must be a number above 0 and at most 4, got "${bad}" (--help for the usage)`);
    }
    for (const bad of ['1', '1.5']) {
      const d = runBench('evaluation/trackEval', ['--drop', bad]);
      expect(d.status).toBe(2);
      expect(d.stderr.trim()).toBe(`trackEval.js: --drop must be at least 0 and under 1, got "${bad}" (--help for the usage)`);
    }
    for (const bad of ['0', '2.5']) {
      const g = runBench('evaluation/trackEval', ['--gop', bad]);
      expect(g.status).toBe(2);
      expect(g.stderr.trim()).toBe(`trackEval.js: --gop must be a positive integer, got "${bad}" (--help for the usage)`);
    }
    for (const bad of ['0', '1.5']) {
      const m = runBench('evaluation/trackEval', ['--min-area', bad]);
      expect(m.status).toBe(2);
      expect(m.stderr.trim()).toBe(`trackEval.js: --min-area must be an integer 1..1073741824, got "${bad}" (--help for the usage)`);
    }
    const walkers = runBench('evaluation/trackEval', ['--walkers', 'dancers']);
    expect(walkers.status).toBe(2);
    expect(walkers.stderr.trim()).toBe('trackEval.js: --walkers must be boxes, people or vehicles, got "dancers" (--help for the usage)');
    for (const bad of ['-1', '2.5']) {
      const noise = runBench('timing/tracker', [`--noise=${bad}`]);
      expect(noise.status).toBe(2);
      expect(noise.stderr.trim()).toBe(`tracker.js: --noise takes a non-negative integer, got "${bad}" (--help for the usage)`);
    }
    const digest = runBench('timing/tracker', ['--digest', 'sometimes']);
    expect(digest.status).toBe(2);
    expect(digest.stderr.trim()).toBe('tracker.js: --digest takes yes or no, got "sometimes" (--help for the usage)');
    const join = runBench('timing/tracker', ['--join-pieces', 'maybe']);
    expect(join.status).toBe(2);
    expect(join.stderr.trim()).toBe('tracker.js: --join-pieces takes yes or no, got "maybe" (--help for the usage)');
    const surveillance = runBench('chains/surveillance', ['--close', '4']);
    expect(surveillance.status).toBe(2);
    expect(surveillance.stderr.trim()).toBe('surveillance.js: --close must be N or WxH, odd integers 1..31, got "4" (--help for the usage)');
    for (const [args, why] of [
      [['--seeds', '3-1'], '--seeds: the range ends before it starts, got "3-1"'],
      [['--seeds', 'one'], '--seeds is a seed or a range a-b, got "one"'],
      [['--seeds', '1', '--', '--seed', '2'], '--seed after --: the seeds are --seeds'],
    ] as const) {
      const s = runBench('evaluation/trackEvalSeeds', [...args]);
      expect(s.status, args.join(' ')).toBe(2);
      expect(s.stderr.trim()).toBe(`trackEvalSeeds.js: ${why} (--help for the usage)`);
    }
  });

  it('footage: the chain primed and at each warmup beside the baseline on a video, every line counted; a missing video said so', () => {
    const street = fileURLToPath(new URL('../../examples/data/street.mp4', import.meta.url));
    const out = bench('evaluation/footage', ['--video', street, '--x', '160', '--y', '', '--prime', '30', '--warmup', '0,60']);
    expect(out).toContain('320×240 avc1');
    const [table] = tables(out);
    expect(table.header.slice(0, 5)).toEqual(['chain', 'tracks', 'boxes', 'tracks under 1 s', 'x = 160 forward / backward']);
    expect(table.rows.map((r) => r[0])).toEqual(['flowmark, primed from the first 30 s', 'flowmark, no prime, warmup 0', 'flowmark, no prime, warmup 60', 'baseline (MOG2 + SORT)']);
    for (const r of table.rows) {
      expect(Number(r[1]), r[0]).toBeGreaterThan(0);
      expect(Number(r[2]), r[0]).toBeGreaterThan(Number(r[1]));
      expect(r[4], r[0]).toMatch(/^\d+ \/ \d+$/);
    }
    // The clip's objects cross the middle 8 times (its truth, examples/data/street.json): each chain counts some.
    for (const r of table.rows) expect(r[4].split(' / ').map(Number).reduce((a, b) => a + b), r[0]).toBeGreaterThan(2);
    const missing = runBench('evaluation/footage', ['--video', join(tmpdir(), 'no-such-clip.avi')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no-such-clip\.avi: no such file/);
    const tracker = runBench('evaluation/footage', ['--video', street, '--tracker', '{sizeFloor']);
    expect(tracker.status).toBe(2);
    expect(tracker.stderr.trim()).toBe('footage.js: --tracker takes JSON, got "{sizeFloor" (--help for the usage)');
  });

  it('trackEval --frame-step 0.5: the same scene at 60 frames a second, twice the frames and truth boxes', () => {
    // One short situation: rendered at 30 frames a second over 40 frames, and at 60 over the same 40 of the scene's.
    const args = ['--frames', '40', '--only', 'crossings'];
    const at30 = bench('evaluation/trackEval', args);
    const at60 = bench('evaluation/trackEval', [...args, '--frame-step', '0.5']);
    expect(at30).toContain('40 frames per clip at 30 frames/s');
    expect(at60).toContain('80 frames per clip at 60 frames/s');
    const [t30, t60] = [readTotals(at30).clips[0], readTotals(at60).clips[0]];
    // The objects in view at every frame of the scene at 30, and between every two of them at 60.
    expect(t30.ours.truth).toBeGreaterThan(0);
    expect(t60.ours.truth / t30.ours.truth).toBeGreaterThan(1.9);
    expect(t60.ours.truth / t30.ours.truth).toBeLessThan(2.1);
    expect(t60.ours.hypotheses).toBeGreaterThan(0);
  });

  it('trackEval --density 0.5: the same scene with the first half of its objects', () => {
    // 40 frames: every object sets out at the first frame, so the truth's boxes follow the objects' number.
    const args = ['--frames', '40', '--only', 'crossings'];
    const full = bench('evaluation/trackEval', args);
    const half = bench('evaluation/trackEval', [...args, '--density', '0.5']);
    expect(half).toContain('0.5 times the objects');
    expect(full).not.toContain('times the objects');
    const [tf, th] = [readTotals(full).clips[0], readTotals(half).clips[0]];
    expect(th.ours.truth).toBeGreaterThan(0);
    expect(th.ours.truth / tf.ours.truth).toBeGreaterThan(0.25);
    expect(th.ours.truth / tf.ours.truth).toBeLessThan(0.75);
  });

  it('trackEval --situations extra: swaying foliage, camera shake and objects in view at the start alone, tracked and scored; --only names one situation of either set', () => {
    const extra = bench('evaluation/trackEval', ['--frames', '40', '--situations', 'extra']);
    const clips = readTotals(extra).clips;
    expect(clips.map((c) => c.situation)).toEqual(['swaying foliage', 'camera shake', 'in view at the start']);
    for (const c of clips) {
      expect(c.ours.truth).toBeGreaterThan(0);
      expect(c.base.truth).toBe(c.ours.truth);
    }
    expect(readTotals(bench('evaluation/trackEval', ['--frames', '40', '--only', 'camera shake'])).clips).toEqual([clips[1]]);
    const s = runBench('evaluation/trackEval', ['--only', 'trees']);
    expect(s.status).toBe(2);
    expect(s.stderr).toContain('--only must name a situation');
  });

  it('trackEval --walkers people: the same situations with walkers shaped and moving as people, tracked and scored', () => {
    const args = ['--frames', '40', '--only', 'crossings'];
    const people = bench('evaluation/trackEval', [...args, '--walkers', 'people']);
    expect(people).toContain('walkers shaped as people, pace and way varying');
    const t = readTotals(people).clips[0];
    expect(t.ours.truth).toBeGreaterThan(0);
    expect(t.ours.hypotheses).toBeGreaterThan(0);
    expect(t.base.truth).toBe(t.ours.truth);
  });

  it('trackEvalSeeds: a row per seed, its figures those of trackEval for that seed, and their sums under them', () => {
    const cache = mkdtempSync(join(tmpdir(), 'flowmark-seeds-'));
    try {
      // Short clips of one situation: the whole chain and the baseline run once per seed, into the cache.
      const evalArgs = ['--frames', '100', '--only', 'crossings', '--cache', cache];
      const out = bench('evaluation/trackEvalSeeds', ['--seeds', '3-4', '--jobs', '2', '--', ...evalArgs]);
      const [t] = tables(out);
      // Both lines' crossings by view, and the missed ones by what tracked their object, summed over the seeds.
      expect(out).toMatch(/Middle line, [^\n]*crossings not counted: \d+ \(their object inside a track that counted another: \d+;/);
      expect(out).toMatch(/Second line, the same: alone in its blob \d+ [^\n]*crossings not counted: \d+ \(/);
      expect(column(t, 'seed')).toEqual(['3', '4', '**3–4**']);
      expect(column(t, 'clips')).toEqual(['1', '1', '2']);
      // The seed's own run (from the cache now): the same figures as its row.
      const own = readTotals(bench('evaluation/trackEval', ['--seed', '4', ...evalArgs]));
      const cells = t.rows[1].map(num);
      expect(cells[2]).toBeCloseTo(own.clips[0].ours.mota, 2);
      expect(cells[4]).toBe(own.clips[0].ours.idSwitches);
      expect(cells[7]).toBe(own.clips[0].base.idSwitches);
      expect(cells.slice(8)).toEqual([...own.middle, ...own.second]);
      // The set's row: sums of the seeds' (means for MOTA and IDF1, over one clip each).
      const [a, b, all] = t.rows.map((r) => r.map(num));
      for (const k of [4, 7, 8, 9, 10, 11, 12, 13]) expect(all[k], t.header[k]).toBe(a[k] + b[k]);
      for (const k of [2, 3, 5, 6]) expect(all[k], t.header[k]).toBeCloseTo((a[k] + b[k]) / 2, 2);
      // Per situation: HOTA the mean of the seeds' own, false positives their sum (flowmark / baseline).
      const situations = tables(out)[1];
      expect(column(situations, 'situation')).toEqual(['crossings']);
      const three = readTotals(bench('evaluation/trackEval', ['--seed', '3', ...evalArgs]));
      const pair = (k: number) => situations.rows[0][k].split(' / ').map(Number);
      expect(pair(3)[0]).toBeCloseTo((three.clips[0].oursBoxes.hota + own.clips[0].oursBoxes.hota) / 2, 2);
      expect(pair(3)[1]).toBeCloseTo((three.clips[0].baseBoxes.hota + own.clips[0].baseBoxes.hota) / 2, 2);
      expect(pair(5)).toEqual([three.clips[0].ours.falsePositives + own.clips[0].ours.falsePositives, three.clips[0].base.falsePositives + own.clips[0].base.falsePositives]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
