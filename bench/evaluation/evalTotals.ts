/**
 * What bench/evaluation/trackEval.js prints last, a run's totals as one line of JSON, and their sum over runs (seeds), for
 * bench/evaluation/trackEvalSeeds.js: the figures BENCHMARKS.md gives for a set of seeds.
 */
import type { MotScores } from '../../reference.js';
import { addCrossingViews, noCrossingViews, type CrossingViews } from './crossingViews.js';

/** The start of trackEval's last line, followed by EvalTotals as JSON. */
export const totalsPrefix = 'Totals (JSON): ';

/** A tracker's HOTA and how well its boxes cover their objects, on one clip (src/eval/motMetrics.ts). */
export interface BoxFigures {
  hota: number;
  detA: number;
  assA: number;
  /** Median IoU of a reported box with the object it covers most, and the share under 0.5. */
  median: number;
  under50: number;
}

/** One run's totals: per clip both trackers' scores; per line [truth's crossings, flowmark's error, the baseline's]. */
export interface EvalTotals {
  seed: number;
  clips: { situation: string; ours: MotScores; base: MotScores; oursBoxes: BoxFigures; baseBoxes: BoxFigures }[];
  middle: number[];
  second: number[];
  /** [truth's crossings, the own-blob bound's error, the wholly-on-a-side bound's error] (bench/evaluation/countBounds.ts). */
  bounds: number[];
  secondBounds: number[];
  views: CrossingViews;
  /** The same at the second line. */
  secondViews: CrossingViews;
}

/** The totals in a run's output (its line starting with totalsPrefix); throws where there is none. */
export function readTotals(output: string): EvalTotals {
  const line = output.split('\n').find((l) => l.startsWith(totalsPrefix));
  if (!line) throw new Error(`no "${totalsPrefix}" line in the output`);
  return JSON.parse(line.slice(totalsPrefix.length)) as EvalTotals;
}

/** Runs' totals summed: clips listed together, line figures and crossing views added; `seed` is the first run's. */
export function sumTotals(runs: readonly EvalTotals[]): EvalTotals {
  const add = (a: number[], b: number[]) => a.map((v, i) => v + b[i]);
  const views = noCrossingViews();
  const secondViews = noCrossingViews();
  for (const r of runs) {
    addCrossingViews(views, r.views);
    addCrossingViews(secondViews, r.secondViews);
  }
  return {
    seed: runs[0]?.seed ?? 0,
    clips: runs.flatMap((r) => r.clips),
    middle: runs.reduce((s, r) => add(s, r.middle), [0, 0, 0]),
    second: runs.reduce((s, r) => add(s, r.second), [0, 0, 0]),
    bounds: runs.reduce((s, r) => add(s, r.bounds), [0, 0, 0]),
    secondBounds: runs.reduce((s, r) => add(s, r.secondBounds), [0, 0, 0]),
    views,
    secondViews,
  };
}
