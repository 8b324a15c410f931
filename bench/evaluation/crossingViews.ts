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
 *
 * Each crossing not counted is classed too, by the tracks on its object before it (within 30 frames) and after it
 * (within 45): a track on the object is one not lost whose box lies 30 % inside the object's box (the most, where
 * several do), nearest in time to the crossing but for its frame and the 2 either side:
 * - together: one track on both sides, which counted a crossing that way within `window` frames, given to another
 *   object (or to none): the objects walked over the line as one under one track, which counted one of them;
 * - switched: a different track on each side (an identity switch across the line);
 * - untracked: no track on one side or both;
 * - uncounted: one track on both sides, which counted nothing that way (the counting rules missed it).
 */
import { lineCrossingEvents, type MotBox, boxShare } from '../../reference.js';
import type { FrameResult } from '../../index.js';

export type CrossingView = 'alone' | 'shared' | 'hidden';

/** Why a crossing was not counted (crossingViews). */
export type MissKind = 'together' | 'switched' | 'untracked' | 'uncounted';

export interface CrossingViews {
  /** Per view: truth crossings, and those counted. */
  views: Record<CrossingView, { crossings: number; counted: number }>;
  /** The crossings not counted, by what tracked their object either side of the line. */
  missed: Record<MissKind, number>;
  /** The tracker's counts given to no truth crossing. */
  unattributed: number;
}

const near = 5;
const window = 45;
const held = 0.3;
/** Frames before and after a missed crossing looked at for the tracks on its object, and those skipped next to it. */
const before = 30;
const after = 45;
const skip = 2;

/** The part of box a's area (inclusive bounds, [x0, y0, x1, y1]) inside box b. */
const share = (a: readonly number[], b: readonly number[]) => boxShare(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]);

/** No crossings yet: the sum crossingViews' results are added into (addCrossingViews). */
export function noCrossingViews(): CrossingViews {
  return { views: { alone: { crossings: 0, counted: 0 }, shared: { crossings: 0, counted: 0 }, hidden: { crossings: 0, counted: 0 } }, missed: { together: 0, switched: 0, untracked: 0, uncounted: 0 }, unattributed: 0 };
}

/** Adds `v` (one clip's) into `into` (all clips so far). */
export function addCrossingViews(into: CrossingViews, v: CrossingViews): void {
  for (const k of ['alone', 'shared', 'hidden'] as const) {
    into.views[k].crossings += v.views[k].crossings;
    into.views[k].counted += v.views[k].counted;
  }
  for (const k of ['together', 'switched', 'untracked', 'uncounted'] as const) into.missed[k] += v.missed?.[k] ?? 0;
  into.unattributed += v.unattributed;
}

/**
 * `results`: the tracker's, frame by frame (their features the blobs, their tracks' `crossed` events on `line`);
 * `truth`: boxes on the same frame numbers (the results' indices).
 */
export function crossingViews(truth: readonly MotBox[], results: readonly FrameResult[], line: string, cx: number, axis: 'x' | 'y' = 'x'): CrossingViews {
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
  const crossings = lineCrossingEvents(truth, cx, axis);
  const counts: { frame: number; id: number; box: number[]; direction: string }[] = [];
  results.forEach((r, k) => {
    for (const e of r.tracks?.events ?? []) {
      if (e.type !== 'crossed' || e.line !== line) continue;
      const t = r.tracks!.tracks.find((q) => q.id === e.id);
      counts.push({ frame: k, id: e.id, box: t ? [...t.box] : [], direction: e.direction! });
    }
  });
  // The track on object `id` at a frame (not lost, the most of its box inside the object's), or -1.
  const trackOn = (frame: number, id: number) => {
    const me = find(frame, id);
    let best = -1;
    let most = held;
    for (const t of results[frame]?.tracks?.tracks ?? []) {
      if (t.state === 'lost' || !me) continue;
      const s = share([...t.box], boxOf(me));
      if (s >= most) [best, most] = [t.id, s];
    }
    return best;
  };
  const nearest = (from: number, to: number, step: number, id: number) => {
    for (let k = from; step > 0 ? k <= to : k >= to; k += step) {
      const t = trackOn(k, id);
      if (t >= 0) return t;
    }
    return -1;
  };
  const missKind = (c: { frame: number; id: number; direction: string }): MissKind => {
    const [a, b] = [nearest(c.frame - 1 - skip, c.frame - before, -1, c.id), nearest(c.frame + 1 + skip, c.frame + after, 1, c.id)];
    if (a < 0 || b < 0) return 'untracked';
    if (a !== b) return 'switched';
    return counts.some((n) => n.id === a && n.direction === c.direction && Math.abs(n.frame - c.frame) <= window) ? 'together' : 'uncounted';
  };
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
    else result.missed[missKind(c)]++;
  });
  result.unattributed = counts.length - usedCount.size;
  return result;
}

/**
 * The views as one sentence, as bench/evaluation/trackEval.js and bench/evaluation/trackEvalSeeds.js print them: per view its crossings
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
  const m = v.missed ?? noCrossingViews().missed;
  const missed = `crossings not counted: ${all - counted} (their object inside a track that counted another: ${m.together}; a different track on each side: ${m.switched}; no track on a side: ${m.untracked}; one track on both sides that counted none: ${m.uncounted})`;
  return `${part('alone', 'alone in its blob')}; ${part('shared', 'in a blob with another object')}; ${part('hidden', 'hidden or in no blob')}; ${missed}; counts given to no crossing: ${v.unattributed}; crossings not counted and counts given to none, summed: ${all - counted + v.unattributed}`;
}

