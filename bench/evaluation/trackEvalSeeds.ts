/**
 * The tracking evaluation over a set of seeds: bench/evaluation/trackEval.js once per seed, `--jobs` at a time, and its totals
 * summed (bench/evaluation/evalTotals.ts): one row per seed and the set's figures under them, as BENCHMARKS.md gives them for
 * the flat scenes' seeds 1–16 (17–19 held out) and the street scenes' 1–8 (9–12 held out). What follows `--` goes to
 * each trackEval run as it is (`--seed` is this program's).
 *
 *   node dist/bench/evaluation/trackEvalSeeds.js --seeds 1-16 [--jobs 2] [-- --cache DIR --geometry street ...]
 *
 * With trackEval's `--cache DIR`, seeds already cached replay the tracker alone (seconds each); the others run the
 * whole chain and the baseline first (minutes each on a CPU-emulated GPU).
 */
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../support/args.js';
import { readTotals, sumTotals, type EvalTotals } from './evalTotals.js';
import { describeViews } from './crossingViews.js';
import { runMain } from '../support/timing.js';

const { values, positionals, refuse } = benchArgs(import.meta.url, { seeds: { type: 'string', default: '1' }, jobs: { type: 'string' } }, ['jobs'], true);
const range = /^(\d+)(?:-(\d+))?$/.exec(values.seeds as string) ?? refuse(`--seeds is a seed or a range a-b, got "${values.seeds}"`);
const [first, last] = [Number(range[1]), Number(range[2] ?? range[1])];
if (last < first) refuse(`--seeds: the range ends before it starts, got "${values.seeds}"`);
const jobs = values.jobs === undefined ? Math.min(2, availableParallelism()) : Number(values.jobs);
if (!Number.isInteger(jobs) || jobs < 1) refuse(`--jobs must be a positive integer, got "${values.jobs}"`);
if (positionals.includes('--seed')) refuse('--seed after --: the seeds are --seeds');

const evaluation = fileURLToPath(new URL('./trackEval.js', import.meta.url));

/** One seed's run of trackEval: its totals, or its error with what it wrote to stderr. */
function runSeed(seed: number): Promise<EvalTotals> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [evaluation, '--seed', `${seed}`, ...positionals], { maxBuffer: 1 << 28 }, (e, stdout, stderr) => {
      if (e) reject(new Error(`trackEval --seed ${seed}: ${stderr.trim() || e.message}`));
      else resolve(readTotals(stdout));
    }),
  );
}

const f3 = (x: number) => x.toFixed(3);
const pc = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)} %` : '-');
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** A row of the table: a seed's totals, or the set's. */
function row(label: string, t: EvalTotals): string {
  const ours = t.clips.map((c) => c.ours);
  const base = t.clips.map((c) => c.base);
  const switches = (xs: typeof ours) => xs.reduce((s, x) => s + x.idSwitches, 0);
  const line = (l: number[]) => `${l[0]} | ${l[1]} (${pc(l[1], l[0])}) | ${l[2]} (${pc(l[2], l[0])})`;
  return `| ${label} | ${t.clips.length} | ${f3(mean(ours.map((x) => x.mota)))} | ${f3(mean(ours.map((x) => x.idf1)))} | ${switches(ours)} | ${f3(mean(base.map((x) => x.mota)))} | ${f3(mean(base.map((x) => x.idf1)))} | ${switches(base)} | ${line(t.middle)} | ${line(t.second)} |`;
}

async function main(): Promise<void> {
  const seeds = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  console.log(`flowmark tracking evaluation over seeds ${first}–${last} — ${new Date().toISOString()}; each run: trackEval.js --seed S ${positionals.join(' ')}`.trimEnd());
  // In the seeds' order, whichever run ends first.
  const ordered: EvalTotals[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, seeds.length) }, async () => {
      while (next < seeds.length) {
        const i = next++;
        ordered[i] = await runSeed(seeds[i]);
      }
    }),
  );
  const all = sumTotals(ordered);
  console.log('\n| seed | clips | flowmark MOTA | IDF1 | ID switches | baseline MOTA | IDF1 | ID switches | middle line: crossings | flowmark errors | baseline errors | second line: crossings | flowmark errors | baseline errors |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const t of ordered) console.log(row(`${t.seed}`, t));
  console.log(row(`**${first}–${last}**`, all));
  console.log(`\nLine errors (each way, summed over the clips): middle ${all.middle[1]} of ${all.middle[0]} (${pc(all.middle[1], all.middle[0])}), second ${all.second[1]} of ${all.second[0]} (${pc(all.second[1], all.second[0])}); the baseline ${all.middle[2]} and ${all.second[2]}. MOTA and IDF1 are means over the ${all.clips.length} clips.`);
  const bound = (b: number[]) => `each object in a blob of its own ${pc(b[1], b[0])}, any blob holding it wholly on a side ${pc(b[2], b[0])}`;
  console.log(`Line error with every object's identity known (bench/evaluation/countBounds.ts): middle line ${bound(all.bounds)}; second line ${bound(all.secondBounds)}.`);
  console.log(`Middle line, each crossing counted where a count of its way by a track on its object came within 45 frames (bench/evaluation/crossingViews.ts): ${describeViews(all.views)}.`);
  console.log(`Second line, the same: ${describeViews(all.secondViews)}.`);
  // Per situation over the seeds: the issue-81 table (HOTA as TrackEval's, box IoU with the object covered most).
  console.log('\nPer situation, means over the seeds (false positives and misses summed):\n');
  console.log('| situation | MOTA flowmark / baseline | IDF1 | HOTA | ID switches | false positives | misses | box IoU median | boxes under IoU 0.5 |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const situation of [...new Set(all.clips.map((c) => c.situation))]) {
    const cs = all.clips.filter((c) => c.situation === situation);
    const both = (f: (c: (typeof cs)[number], ours: boolean) => number, digits = 3, sum = false) =>
      [true, false].map((ours) => (sum ? cs.reduce((s, c) => s + f(c, ours), 0).toFixed(0) : mean(cs.map((c) => f(c, ours))).toFixed(digits))).join(' / ');
    console.log(
      `| ${situation} | ${both((c, o) => (o ? c.ours : c.base).mota)} | ${both((c, o) => (o ? c.ours : c.base).idf1)} | ${both((c, o) => (o ? c.oursBoxes : c.baseBoxes).hota)} | ${both((c, o) => (o ? c.ours : c.base).idSwitches, 0, true)} | ${both((c, o) => (o ? c.ours : c.base).falsePositives, 0, true)} | ${both((c, o) => (o ? c.ours : c.base).misses, 0, true)} | ${both((c, o) => (o ? c.oursBoxes : c.baseBoxes).median)} | ${both((c, o) => 100 * (o ? c.oursBoxes : c.baseBoxes).under50, 1)} % |`,
    );
  }
}

runMain(main);
