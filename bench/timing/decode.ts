/**
 * Host cost of reading features back: decoding a compacted results buffer of N components into struct-of-arrays
 * features (nodes/components/features/results.ts), on the CPU only, beside the old comparator sort it replaced (the
 * reference measured in the same run). One frame at a time pays this per frame after its readback.
 *
 *   node dist/bench/timing/decode.js [--counts 64,1024,4096] [--reps 2000] [--histogram]
 *
 * `--histogram` decodes results carrying each component's gray histogram too (`features({ histogram: true })`).
 */
import { decodeFeatures, featureRecord as record } from '../../extend.js';
import { rng } from '../../reference.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(import.meta.url, { counts: { type: 'string', default: '64,1024,4096' }, reps: { type: 'string', default: '2000' }, histogram: { type: 'boolean', default: false } }, ['counts', 'reps']);
const histogram = values.histogram as boolean;
const reps = Number(values.reps);

/** A results buffer as compactParts writes it: n components in no particular order, plausible sums. */
function results(n: number): Uint32Array {
  const stride = record.REC + 1;
  // With histograms, HIST_BINS counts per component after the n records (decodeFeatures with maxResults n).
  const v = new Uint32Array(record.HEAD + n * stride + (histogram ? n * record.HIST_BINS : 0));
  const r = rng(n);
  v[0] = n;
  v[1] = n;
  const labels = Array.from({ length: n }, (_, i) => i + 1).sort(() => r() - 0.5);
  labels.forEach((l, i) => {
    const at = record.HEAD + i * stride + 1;
    const area = 20 + Math.floor(r() * 500);
    const x = Math.floor(r() * 1200);
    const y = Math.floor(r() * 700);
    v[at - 1] = l;
    v[at + record.AREA] = area;
    v[at + record.SX] = area * x;
    v[at + record.SY] = area * y;
    v[at + record.SXX] = area * x * x + area * 30;
    v[at + record.SYY] = area * y * y + area * 20;
    v[at + record.SXY] = area * x * y + area * 5;
    [v[at + record.X0], v[at + record.Y0], v[at + record.X1], v[at + record.Y1]] = [x - 10, y - 10, x + 10, y + 10];
    v[at + record.PERIM] = 40;
    v[at + record.SG] = area * 100;
    v[at + record.GMIN] = 90;
    v[at + record.GMAX] = 110;
  });
  // Histograms: the area spread over a few bins.
  for (let i = histogram ? 0 : n; i < n; i++) for (let b = 0; b < record.HIST_BINS; b++) v[record.HEAD + n * stride + i * record.HIST_BINS + b] = (i * 7 + b) % 5 === 0 ? 30 + b : 0;
  return v;
}

function time(f: () => void): number {
  for (let i = 0; i < Math.min(200, reps); i++) f();
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) f();
  return ((performance.now() - t0) / reps) * 1000;
}

console.log(`features decode, host only — ${new Date().toISOString()}, node ${process.version}, ${reps} repetitions${histogram ? ', with histograms' : ''}`);
console.log('\n| components | decode µs | comparator sort alone µs (the previous order step) |');
console.log('|---|---|---|');
for (const n of (values.counts as string).split(',').map(Number)) {
  const v = results(n);
  const at = (slot: number) => record.HEAD + slot * (record.REC + 1);
  // Copies made before the timing, decoded in turn: a readback is fresh memory, not the last one decoded, and the
  // copy is not part of the decode (it was timed with it before: 19 of 199 µs at 1024 components). Enough copies to
  // outgrow the caches (32 MB), at least 8.
  const copies = Array.from({ length: Math.max(8, Math.ceil((32 << 20) / v.byteLength)) }, () => v.slice().buffer);
  let next = 0;
  const decode = time(() => {
    decodeFeatures(copies[next], 1280, 720, n, histogram);
    next = (next + 1) % copies.length;
  });
  const comparator = time(() => Array.from({ length: n }, (_, i) => i).sort((a, b) => v[at(a)] - v[at(b)]));
  console.log(`| ${n} | ${decode.toFixed(1)} | ${comparator.toFixed(1)} |`);
}
