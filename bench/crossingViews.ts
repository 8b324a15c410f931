/**
 * Which truth crossings of a counting line the tracker counted, by what the blobs showed of the crossing object: the
 * line error (counts each way against the truth's) says how far off the totals are, not where the misses lie.
 *
 * Each crossing of the vertical line x = cx by a truth box's centre is classed by the frames within `near` (5) of it:
 * - hidden: the object was barely visible (`ignore`) in one of them, or lay in no blob (30 % of its box in one);
 * - shared: a blob holding 30 % of its box held 30 % of another visible object's;
 * - alone: neither.
 * A crossing is counted when the tracker counted one the same way within `window` (45) frames by a track whose box
 * at that count lies on the object's then (half of it inside: a track's box is often the part of an object a pillar
 * leaves, far under IoU 0.3 with the whole); each count goes to one crossing, the nearest in time first. Counts given
 * to no crossing are reported apart.
 */
import { lineCrossingEvents, type MotBox } from '../src/reference/motMetrics.js';
import type { FrameResult } from '../src/results.js';
import { boxShare } from '../src/track/boxShare.js';

export type CrossingView = 'alone' | 'shared' | 'hidden';

export interface CrossingViews {
  /** Per view: truth crossings, and those counted. */
  views: Record<CrossingView, { crossings: number; counted: number }>;
  /** The tracker's counts given to no truth crossing. */
  unattributed: number;
}

const near = 5;
const window = 45;
const held = 0.3;

/** The part of box a's area (inclusive bounds, [x0, y0, x1, y1]) inside box b. */
const share = (a: readonly number[], b: readonly number[]) => boxShare(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]);

/** No crossings yet: the sum crossingViews' results are added into (addCrossingViews). */
export function noCrossingViews(): CrossingViews {
  return { views: { alone: { crossings: 0, counted: 0 }, shared: { crossings: 0, counted: 0 }, hidden: { crossings: 0, counted: 0 } }, unattributed: 0 };
}

/** Adds `v` (one clip's) into `into` (all clips so far). */
export function addCrossingViews(into: CrossingViews, v: CrossingViews): void {
  for (const k of ['alone', 'shared', 'hidden'] as const) {
    into.views[k].crossings += v.views[k].crossings;
    into.views[k].counted += v.views[k].counted;
  }
  into.unattributed += v.unattributed;
}

/**
 * `results`: the tracker's, frame by frame (their features the blobs, their tracks' `crossed` events on `line`);
 * `truth`: boxes on the same frame numbers (the results' indices).
 */
export function crossingViews(truth: readonly MotBox[], results: readonly FrameResult[], line: string, cx: number): CrossingViews {
  const byFrame = new Map<number, MotBox[]>();
  for (const t of truth) {
    const list = byFrame.get(t.frame);
    if (list) list.push(t);
    else byFrame.set(t.frame, [t]);
  }
  const boxOf = (t: MotBox) => [t.x0, t.y0, t.x1, t.y1];
  const find = (frame: number, id: number) => byFrame.get(frame)?.find((t) => t.id === id);
  const view = (frame: number, id: number): CrossingView => {
    let shared = false;
    for (let k = frame - near; k <= frame + near; k++) {
      const me = find(k, id);
      const f = results[k]?.features;
      if (!me || !f) continue;
      if (me.ignore) return 'hidden';
      const mine = boxOf(me);
      let inBlob = false;
      for (let j = 0; j < f.label.length; j++) {
        const blob = [f.x0[j], f.y0[j], f.x1[j], f.y1[j]];
        if (share(mine, blob) < held) continue;
        inBlob = true;
        for (const o of byFrame.get(k)!) if (o.id !== id && !o.ignore && share(boxOf(o), blob) >= held) shared = true;
      }
      if (!inBlob) return 'hidden';
    }
    return shared ? 'shared' : 'alone';
  };
  const crossings = lineCrossingEvents(truth, cx);
  const counts: { frame: number; box: number[]; direction: string }[] = [];
  results.forEach((r, k) => {
    for (const e of r.tracks?.events ?? []) {
      if (e.type !== 'crossed' || e.line !== line) continue;
      const t = r.tracks!.tracks.find((q) => q.id === e.id);
      counts.push({ frame: k, box: t ? [...t.box] : [], direction: e.direction! });
    }
  });
  // Candidate (crossing, count) pairs, taken nearest in time first.
  const pairs: [number, number, number][] = [];
  crossings.forEach((c, i) =>
    counts.forEach((n, j) => {
      if (n.direction !== c.direction || Math.abs(n.frame - c.frame) > window || n.box.length === 0) return;
      const o = find(n.frame, c.id);
      if (o && share(n.box, boxOf(o)) >= 0.5) pairs.push([Math.abs(n.frame - c.frame), i, j]);
    }),
  );
  pairs.sort((a, b) => a[0] - b[0]);
  const countedCrossing = new Set<number>();
  const usedCount = new Set<number>();
  for (const [, i, j] of pairs) {
    if (countedCrossing.has(i) || usedCount.has(j)) continue;
    countedCrossing.add(i);
    usedCount.add(j);
  }
  const result = noCrossingViews();
  crossings.forEach((c, i) => {
    const v = result.views[view(c.frame, c.id)];
    v.crossings++;
    if (countedCrossing.has(i)) v.counted++;
  });
  result.unattributed = counts.length - usedCount.size;
  return result;
}

/**
 * The views as one sentence, as bench/trackEval.js and bench/trackEvalSeeds.js print them: per view its crossings
 * and the share counted, the counts given to no crossing, and both kinds of miss summed. That sum is not fooled as
 * the line error is, where a wrong count in a clip makes up for a missed one of the same way.
 */
export function describeViews(v: CrossingViews): string {
  const all = Object.values(v.views).reduce((n, x) => n + x.crossings, 0);
  const counted = Object.values(v.views).reduce((n, x) => n + x.counted, 0);
  const part = (k: CrossingView, what: string) => {
    const x = v.views[k];
    return `${what} ${x.crossings} (${((100 * x.crossings) / all).toFixed(0)} %), ${x.crossings ? ((100 * x.counted) / x.crossings).toFixed(1) : '-'} % counted`;
  };
  return `${part('alone', 'alone in its blob')}; ${part('shared', 'in a blob with another object')}; ${part('hidden', 'hidden or in no blob')}; counts given to no crossing: ${v.unattributed}; crossings not counted and counts given to none, summed: ${all - counted + v.unattributed}`;
}

