/**
 * The tracker's host time per frame (CPU only, one core): N objects moving across a 1920×1080 frame, bouncing off
 * its edges, their boxes as the blobs of each frame (overlapping boxes left apart: the worst case for matching), with
 * lines and a zone; the median and p99 of `Tracker.update` per frame, without the blobs' gray histograms and with
 * them (each object its own 16 bins, as `features({ histogram: true })` gives them and `flowmark track` runs), and
 * with `--histograms spatial` with each bin's place too (`histogram: 'spatial'`) and `placeByGray` on.
 *
 *   node dist/bench/timing/tracker.js [--blobs 10,50,200] [--frames 3000] [--warmup 200] [--trail 60]
 *                              [--histograms both|yes|no|spatial] [--windows N] [--join-pieces yes|no] [--size-floor F]
 *                              [--noise N] [--digest yes|no] [--rounds N]
 *
 * The p99 again over the frames that overlapped no garbage collection of the process (perf_hooks 'gc' entries), and
 * how many frames took over twice the median, with how many of those overlapped one: whether the slow frames are the
 * tracker's or the heap's.
 * The first `--warmup` frames of each row (V8 compiling the tracker, the tracks being born) are not counted.
 * `--trail` is trails()' length (60, its default; 0 runs no trails(), as `flowmark track` does).
 * `--histograms` picks the rows (without histograms, with them, or both per blob count). `--windows N` adds a table
 * of each row's medians over every N frames from the first, warm-up included: the first row of a fresh process shows
 * how soon V8 has the tracker optimised. `--join-pieces no` runs the tracker without joining pieces (its joinPieces,
 * on by default): what looking for an object's pieces either side of an occluder costs; `--size-floor 0` without
 * its size floor (sizeFloor, 0.2 by default): what leaving out the pieces too small for the objects costs.
 * `--noise N` adds N blobs of noise to every frame (3–12 px boxes anywhere in it, new places each frame, each with its
 * own histogram): a flood such as rain, snow or a camera's gain turned up gives, up to features' `maxResults` (4096).
 * `--digest yes` adds a column with a digest of everything the tracker returned (tracks, events, counts, zones) over
 * the row's frames: two builds given the same options tell whether a change left the tracker's output as it was.
 * `--rounds N` runs every row N times, the rows interleaved (all once, then all again): each figure is the median of
 * the row's N, so that no row pays alone for what the process does first (V8 optimising the tracker) or a noisy
 * moment of the machine. Every round of a row must give the same digest.
 */
import { createHash } from 'node:crypto';
import { defaultTrackSettings, trackSettings, type Box } from '../../index.js';
import { CountingLines, Tracker, Trails, Zones } from '../../extend.js';
import { rng } from '../../reference.js';
import { benchArgs } from '../support/args.js';
import { quantile, watchGcs } from '../support/timing.js';

const { values, refuse } = benchArgs(import.meta.url, { blobs: { type: 'string', default: '10,50,200' }, frames: { type: 'string', default: '3000' }, warmup: { type: 'string', default: '200' }, trail: { type: 'string', default: '60' }, histograms: { type: 'string', default: 'both' }, windows: { type: 'string', default: '0' }, 'join-pieces': { type: 'string', default: 'yes' }, 'size-floor': { type: 'string', default: `${defaultTrackSettings.sizeFloor}` }, noise: { type: 'string', default: '0' }, digest: { type: 'string', default: 'no' }, rounds: { type: 'string', default: '1' } }, ['blobs', 'frames', 'warmup', 'trail', 'windows', 'noise', 'rounds']);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) refuse(`--rounds takes a positive integer, got "${values.rounds}"`);
if (!['yes', 'no'].includes(values.digest as string)) refuse(`--digest takes yes or no, got "${values.digest}"`);
const digest = values.digest === 'yes';
/** Blobs of noise added to every frame (`--noise`). */
const noise = Number(values.noise);
if (!Number.isInteger(noise) || noise < 0) refuse(`--noise takes a non-negative integer, got "${values.noise}"`);
if (!['both', 'yes', 'no', 'spatial'].includes(values.histograms as string)) refuse(`--histograms takes both, yes, no or spatial, got "${values.histograms}"`);
if (!['yes', 'no'].includes(values['join-pieces'] as string)) refuse(`--join-pieces takes yes or no, got "${values['join-pieces']}"`);
/** The tracker's joinPieces (its default on): `--join-pieces no` gives what joining costs. */
const joinPieces = values['join-pieces'] === 'yes';
/** The tracker's sizeFloor (its default unless given): `--size-floor 0` gives what the floor costs. */
const sizeFloor = Number(values['size-floor']);
if (!(sizeFloor >= 0 && sizeFloor < 1)) refuse(`--size-floor takes a share in [0, 1), got "${values['size-floor']}"`);
const windows = Number(values.windows);
const frames = Number(values.frames);
const warmup = Number(values.warmup);
if (!Number.isInteger(warmup) || !Number.isInteger(frames) || warmup < 0 || frames <= warmup) {
  refuse(`--frames must be an integer above --warmup (a non-negative integer), got ${values.frames} and ${values.warmup}`);
}
const [W, H] = [1920, 1080];

/**
 * The scene's frames, made `batch` at a time between the tracker's: made all ahead, a long run (`--frames 12000`)
 * held every frame, and the collections over that heap were much of the p99; made one at a time just before each
 * update, the making was in the caches' way (medians about 5 % higher on the development machine).
 */
function* scene(n: number, batch = 250): Generator<{ boxes: Box[]; hists: Float64Array; px: Float64Array; py: Float64Array }[]> {
  const r = rng(n);
  // The noise draws from a stream of its own, so that the objects move as they do without it.
  const rn = rng(1_000_003 + n);
  const movers = Array.from({ length: n }, () => ({ x: r() * (W - 80), y: r() * (H - 160), vx: (r() - 0.5) * 16, vy: (r() - 0.5) * 8, w: 20 + r() * 60, h: 40 + r() * 120 }));
  // Each object's share of pixels per bin.
  const looks = movers.map(() => {
    const h = Float64Array.from({ length: 16 }, () => r() ** 4);
    const sum = h.reduce((a, b) => a + b, 0);
    return h.map((v) => v / sum);
  });
  // Where each object's bins lie in its box, as shares of its size from its centre (features.histogramX, Y).
  const offsets = movers.map(() => Float64Array.from({ length: 32 }, () => (r() - 0.5) * 0.6));
  let made: { boxes: Box[]; hists: Float64Array; px: Float64Array; py: Float64Array }[] = [];
  for (let t = 0; t < frames; t++) {
    const boxes: Box[] = movers.map((m) => {
      m.x += m.vx;
      m.y += m.vy;
      if (m.x < 0 || m.x + m.w >= W) m.vx = -m.vx;
      if (m.y < 0 || m.y + m.h >= H) m.vy = -m.vy;
      const x = Math.max(0, Math.min(W - m.w, m.x));
      const y = Math.max(0, Math.min(H - m.h, m.y));
      return [Math.round(x), Math.round(y), Math.round(x + m.w - 1), Math.round(y + m.h - 1)];
    });
    const hists = new Float64Array(16 * (n + noise));
    movers.forEach((m, i) => looks[i].forEach((v, b) => (hists[16 * i + b] = Math.round(v * m.w * m.h))));
    for (let i = 0; i < noise; i++) {
      const [w, h] = [3 + Math.floor(rn() * 10), 3 + Math.floor(rn() * 10)];
      const [x, y] = [Math.floor(rn() * (W - w)), Math.floor(rn() * (H - h))];
      boxes.push([x, y, x + w - 1, y + h - 1]);
      // Its pixels in one or two bins.
      const b = Math.floor(rn() * 15);
      const a = Math.round(rn() * w * h);
      hists[16 * (n + i) + b] = a;
      hists[16 * (n + i) + b + 1] = w * h - a;
    }
    const px = new Float64Array(16 * (n + noise));
    const py = new Float64Array(16 * (n + noise));
    boxes.forEach(([x0, y0, x1, y1], i) => {
      for (let b = 0; b < 16; b++) {
        const empty = hists[16 * i + b] === 0;
        // A noise blob's bins lie at its centre.
        const [ox, oy] = i < n ? [offsets[i][2 * b], offsets[i][2 * b + 1]] : [0, 0];
        px[16 * i + b] = empty ? NaN : (x0 + x1) / 2 + ox * (x1 - x0 + 1);
        py[16 * i + b] = empty ? NaN : (y0 + y1) / 2 + oy * (y1 - y0 + 1);
      }
    });
    made.push({ boxes, hists, px, py });
    if (made.length === batch || t === frames - 1) {
      yield made;
      made = [];
    }
  }
}

console.log(`tracker host time — ${new Date().toISOString()}, node ${process.version}, ${frames} frames per row, the first ${warmup} not counted, trailLength ${values.trail}, joinPieces ${joinPieces}, sizeFloor ${sizeFloor}, ${noise} blobs of noise a frame, ${rounds} round(s), each figure the median over them`);
console.log(`\n| blobs | histograms | median µs/frame | p99 µs/frame | p99, frames in no collection | frames over 2× the median (in a collection) | tracks alive (mean) | ids made |${digest ? ' digest |' : ''}`);
console.log(`|---|---|---|---|---|---|---|---|${digest ? '---|' : ''}`);
// The process's garbage collections, to tell the tracker's slow frames from the pauses of the heap (the tracker and
// this program both allocate: each frame's results, the scene's boxes).
const { duringGc } = watchGcs();
const kinds = { both: [false, true], yes: [true], no: [false], spatial: ['spatial'] as const }[values.histograms as 'both' | 'yes' | 'no' | 'spatial'];
const windowRows: string[] = [];
const rows = (values.blobs as string).split(',').flatMap((v) => kinds.map((h) => [Number(v), h] as const));
/** Each row's figures per round: median, p99, p99 outside collections, slow frames, those in a collection. */
const figures = rows.map(() => [] as number[][]);
const outputs = rows.map(() => ({ alive: 0, maxId: 0, digest: '' }));
for (let round = 0; round < rounds; round++) {
  for (const [row, [n, withHists]] of rows.entries()) {
    const placeByGray = withHists === 'spatial';
    // The tracker and its parts in the order blobTracking() runs them: counting lines, zones, trails.
    const tracker = new Tracker(trackSettings({ placeByGray, joinPieces, sizeFloor }));
    const lines = new CountingLines([{ id: 'a', a: [960, 0], b: [960, 1080] }, { id: 'b', a: [0, 540], b: [1920, 540] }]);
    const zones = new Zones([{ id: 'z', polygon: [[200, 200], [900, 200], [900, 800], [200, 800]] }]);
    const trails = Number(values.trail) > 0 ? new Trails(Number(values.trail)) : null;
    const times: number[] = [];
    const spans: [number, number][] = [];
    let alive = 0;
    let maxId = 0;
    let t = 0;
    const hash = createHash('sha256');
    for (const batch of scene(n)) {
      for (const { boxes, hists, px, py } of batch) {
        const t0 = performance.now();
        const counted = zones.apply(lines.apply(tracker.update(boxes, t++ * 33_333, withHists ? hists : null, { width: W, height: H }, placeByGray ? px : null, placeByGray ? py : null)));
        const r = trails ? trails.apply(counted) : counted;
        const t1 = performance.now();
        times.push((t1 - t0) * 1000);
        spans.push([t0, t1]);
        alive += r.tracks.length;
        for (const k of r.tracks) maxId = Math.max(maxId, k.id);
        // Outside the timed span; JSON writes every number in full.
        if (digest) hash.update(JSON.stringify(r));
      }
    }
    // The collections are reported on the event loop, after the frames they paused.
    await new Promise((done) => setTimeout(done, 100));
    const counted = times.slice(warmup);
    const inGc = spans.slice(warmup).map(([a, b]) => duringGc(a, b));
    const median = quantile(counted, 0.5);
    const slow = counted.filter((us) => us > 2 * median);
    const slowInGc = counted.filter((us, k) => us > 2 * median && inGc[k]).length;
    figures[row].push([median, quantile(counted, 0.99), quantile(counted.filter((_, k) => !inGc[k]), 0.99), slow.length, slowInGc]);
    const out = { alive, maxId, digest: digest ? hash.digest('hex').slice(0, 16) : '' };
    if (round > 0 && JSON.stringify(out) !== JSON.stringify(outputs[row])) throw new Error(`row ${n} blobs gave other output in round ${round + 1}: ${JSON.stringify(out)} against ${JSON.stringify(outputs[row])}`);
    outputs[row] = out;
    if (windows > 0 && round === 0) {
      const medians: string[] = [];
      for (let k = 0; k < frames; k += windows) medians.push(quantile(times.slice(k, k + windows), 0.5).toFixed(0));
      windowRows.push(`| ${n} | ${withHists === 'spatial' ? 'spatial' : withHists ? 'yes' : 'no'} | ${medians.join(' ')} |`);
    }
  }
}
for (const [row, [n, withHists]] of rows.entries()) {
  const [median, p99, p99NoGc, slow, slowInGc] = [0, 1, 2, 3, 4].map((f) => quantile(figures[row].map((r) => r[f]), 0.5));
  const { alive, maxId, digest: d } = outputs[row];
  console.log(`| ${n} | ${withHists === 'spatial' ? 'spatial' : withHists ? 'yes' : 'no'} | ${median.toFixed(1)} | ${p99.toFixed(1)} | ${p99NoGc.toFixed(1)} | ${slow.toFixed(0)} (${slowInGc.toFixed(0)}) | ${(alive / frames).toFixed(1)} | ${maxId} |${digest ? ` ${d} |` : ''}`);
}
if (windows > 0) {
  console.log(`\nMedian µs/frame over every ${windows} frames, from the first (warm-up included; the rows in the order run, one process):\n`);
  console.log('| blobs | histograms | medians |');
  console.log('|---|---|---|');
  windowRows.forEach((r) => console.log(r));
}
