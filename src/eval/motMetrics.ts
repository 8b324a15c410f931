/**
 * Multi-object tracking scores as py-motmetrics computes them (IoU distance, a pair matches at IoU >= 0.5):
 * CLEAR-MOT (MOTA from misses, false positives and identity switches, with last frame's correspondences kept while
 * they still match, the rest by minimum-cost assignment) and the identity scores IDF1 / IDP / IDR (one global
 * one-to-one assignment of truth ids to hypothesis ids maximising the frames they share). Truth boxes marked
 * `ignore` (barely visible objects) count neither way: they are removed, with the hypotheses that match them.
 */
import { assign } from '../track/assign.js';
import { boxIou } from '../track/boxIou.js';

export interface MotBox {
  /** Frame number (any integer, consistent between truth and hypotheses). */
  frame: number;
  id: number;
  /** Inclusive pixel bounds. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Truth only: leave out of the scores. */
  ignore?: boolean;
}

/**
 * MOTChallenge rows `frame,id,x,y,w,h,…` (frame and top-left pixel 1-based, as `flowmark track` and the evaluation's
 * baseline write them) as inclusive boxes on 0-based frames.
 */
export function motBoxesFromRows(text: string): MotBox[] {
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [f, id, x, y, w, h] = line.split(',').map(Number);
      return { frame: f - 1, id, x0: x - 1, y0: y - 1, x1: x - 1 + w - 1, y1: y - 1 + h - 1 };
    });
}

export interface MotScores {
  /** Truth boxes counted, hypotheses counted. */
  truth: number;
  hypotheses: number;
  misses: number;
  falsePositives: number;
  idSwitches: number;
  mota: number;
  idf1: number;
  idp: number;
  idr: number;
}

const iou = (a: MotBox, b: MotBox): number => boxIou(a.x0, a.y0, a.x1, a.y1, b.x0, b.y0, b.x1, b.y1);

/** The median of a list (sorted in place), 0 for none. */
const median = (v: number[]): number => {
  v.sort((a, b) => a - b);
  const n = v.length;
  return n ? (n % 2 ? v[n >> 1] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
};

const byFrame = (boxes: readonly MotBox[]) => {
  const m = new Map<number, MotBox[]>();
  for (const b of boxes) {
    const list = m.get(b.frame);
    if (list) list.push(b);
    else m.set(b.frame, [b]);
  }
  return m;
};

/** Minimum-cost matching of two lists at IoU >= threshold; pairs [i, j]. */
function matchIou(a: readonly MotBox[], b: readonly MotBox[], threshold: number): [number, number][] {
  if (a.length === 0 || b.length === 0) return [];
  const cost = new Float64Array(a.length * b.length);
  a.forEach((p, i) =>
    b.forEach((q, j) => {
      const o = iou(p, q);
      cost[i * b.length + j] = o >= threshold ? 1 - o : 1e6;
    }),
  );
  const pairs: [number, number][] = [];
  assign(cost, a.length, b.length).forEach((j, i) => j >= 0 && cost[i * b.length + j] < 1e6 && pairs.push([i, j]));
  return pairs;
}

/** Truth without its ignored boxes, and hypotheses without those that match them (IoU >= threshold). */
function withoutIgnored(truthIn: readonly MotBox[], hypIn: readonly MotBox[], threshold: number): { truth: MotBox[]; hyps: MotBox[] } {
  const truthAll = byFrame(truthIn);
  const hypAll = byFrame(hypIn);
  const truth: MotBox[] = [];
  const hyps: MotBox[] = [];
  for (const frame of new Set([...truthAll.keys(), ...hypAll.keys()])) {
    const t = truthAll.get(frame) ?? [];
    const h = hypAll.get(frame) ?? [];
    const ignored = t.filter((b) => b.ignore);
    const dropped = new Set(matchIou(h, ignored, threshold).map(([i]) => i));
    truth.push(...t.filter((b) => !b.ignore));
    hyps.push(...h.filter((_, i) => !dropped.has(i)));
  }
  return { truth, hyps };
}

export function motScores(truthIn: readonly MotBox[], hypIn: readonly MotBox[], threshold = 0.5): MotScores {
  // Ignored truth, and the hypotheses that match it, leave the scores.
  const { truth, hyps } = withoutIgnored(truthIn, hypIn, threshold);
  const T = byFrame(truth);
  const Hy = byFrame(hyps);
  const frames = [...new Set([...T.keys(), ...Hy.keys()])].sort((a, b) => a - b);

  // CLEAR-MOT.
  let misses = 0;
  let falsePositives = 0;
  let idSwitches = 0;
  const last = new Map<number, number>(); // truth id -> hypothesis id of its last match
  for (const f of frames) {
    const t = T.get(f) ?? [];
    const h = Hy.get(f) ?? [];
    const usedT = new Set<number>();
    const usedH = new Set<number>();
    // Keep last correspondences that still match.
    t.forEach((g, i) => {
      const k = last.get(g.id);
      if (k === undefined) return;
      const j = h.findIndex((q, jj) => q.id === k && !usedH.has(jj));
      if (j >= 0 && iou(g, h[j]) >= threshold) {
        usedT.add(i);
        usedH.add(j);
      }
    });
    const restT = t.map((_, i) => i).filter((i) => !usedT.has(i));
    const restH = h.map((_, j) => j).filter((j) => !usedH.has(j));
    for (const [a, b] of matchIou(restT.map((i) => t[i]), restH.map((j) => h[j]), threshold)) {
      const g = t[restT[a]];
      const q = h[restH[b]];
      const k = last.get(g.id);
      if (k !== undefined && k !== q.id) idSwitches++;
      last.set(g.id, q.id);
      usedT.add(restT[a]);
      usedH.add(restH[b]);
    }
    misses += t.length - usedT.size;
    falsePositives += h.length - usedH.size;
  }

  // Identity scores: truth ids against hypothesis ids, by the frames each pair matches.
  const tIds = [...new Set(truth.map((b) => b.id))];
  const hIds = [...new Set(hyps.map((b) => b.id))];
  const ti = new Map(tIds.map((id, i) => [id, i]));
  const hi = new Map(hIds.map((id, i) => [id, i]));
  const shared = new Float64Array(tIds.length * hIds.length);
  for (const f of frames) {
    for (const g of T.get(f) ?? []) {
      for (const q of Hy.get(f) ?? []) if (iou(g, q) >= threshold) shared[ti.get(g.id)! * hIds.length + hi.get(q.id)!]++;
    }
  }
  let idtp = 0;
  if (tIds.length && hIds.length) {
    const cost = Float64Array.from(shared, (v) => -v);
    assign(cost, tIds.length, hIds.length).forEach((j, i) => j >= 0 && (idtp += shared[i * hIds.length + j]));
  }
  const n = truth.length;
  const m = hyps.length;
  return {
    truth: n,
    hypotheses: m,
    misses,
    falsePositives,
    idSwitches,
    mota: n ? 1 - (misses + falsePositives + idSwitches) / n : 0,
    idf1: n + m ? (2 * idtp) / (n + m) : 0,
    idp: m ? idtp / m : 0,
    idr: n ? idtp / n : 0,
  };
}

export interface HotaScores {
  /** HOTA = √(DetA · AssA), each averaged over the 19 IoU thresholds 0.05 … 0.95 as TrackEval reports them. */
  hota: number;
  detA: number;
  assA: number;
  detRe: number;
  detPr: number;
  assRe: number;
  assPr: number;
  /** Mean IoU of the matched pairs. */
  locA: number;
}

/**
 * HOTA (Luiten et al., IJCV 2021) as TrackEval computes it for boxes: per frame, truth and hypotheses are matched
 * once (Hungarian) on IoU weighted by how well their ids align over the whole sequence; at each threshold α the
 * matched pairs of IoU >= α are true positives; association is scored per matched pair by the share of frames its
 * two ids spend matched to each other. Ignored truth is removed as for `motScores` (with its hypotheses at IoU 0.5).
 */
export function hotaScores(truthIn: readonly MotBox[], hypIn: readonly MotBox[]): HotaScores {
  const { truth, hyps } = withoutIgnored(truthIn, hypIn, 0.5);
  const T = byFrame(truth);
  const Hy = byFrame(hyps);
  const frames = [...new Set([...T.keys(), ...Hy.keys()])].sort((a, b) => a - b);
  const tIds = [...new Set(truth.map((b) => b.id))];
  const hIds = [...new Set(hyps.map((b) => b.id))];
  const ti = new Map(tIds.map((id, i) => [id, i]));
  const hi = new Map(hIds.map((id, i) => [id, i]));
  const [nt, nh] = [tIds.length, hIds.length];
  const alphas = Array.from({ length: 19 }, (_, k) => 0.05 + 0.05 * k);
  const eps = 1e-10;
  // Each frame's IoUs, and the ids' alignment over the sequence from them.
  const sims = new Map<number, Float64Array>();
  const potential = new Float64Array(nt * nh);
  const tCount = new Float64Array(nt);
  const hCount = new Float64Array(nh);
  for (const f of frames) {
    const t = T.get(f) ?? [];
    const h = Hy.get(f) ?? [];
    const S = new Float64Array(t.length * h.length);
    t.forEach((g, i) => h.forEach((q, j) => (S[i * h.length + j] = iou(g, q))));
    sims.set(f, S);
    const rowSum = t.map((_, i) => h.reduce((a, _q, j) => a + S[i * h.length + j], 0));
    const colSum = h.map((_, j) => t.reduce((a, _g, i) => a + S[i * h.length + j], 0));
    t.forEach((g, i) =>
      h.forEach((q, j) => {
        const denom = rowSum[i] + colSum[j] - S[i * h.length + j];
        if (denom > eps) potential[ti.get(g.id)! * nh + hi.get(q.id)!] += S[i * h.length + j] / denom;
      }),
    );
    for (const g of t) tCount[ti.get(g.id)!]++;
    for (const q of h) hCount[hi.get(q.id)!]++;
  }
  const align = potential.map((p, k) => p / (tCount[Math.floor(k / nh)] + hCount[k % nh] - p));
  // Matches per threshold.
  const tp = new Float64Array(alphas.length);
  const locSum = new Float64Array(alphas.length);
  const matches = alphas.map(() => new Float64Array(nt * nh));
  for (const f of frames) {
    const t = T.get(f) ?? [];
    const h = Hy.get(f) ?? [];
    if (!t.length || !h.length) continue;
    const S = sims.get(f)!;
    const cost = new Float64Array(t.length * h.length);
    t.forEach((g, i) => h.forEach((q, j) => (cost[i * h.length + j] = -align[ti.get(g.id)! * nh + hi.get(q.id)!] * S[i * h.length + j])));
    assign(cost, t.length, h.length).forEach((j, i) => {
      if (j < 0) return;
      const s = S[i * h.length + j];
      alphas.forEach((a, k) => {
        if (s < a - eps) return;
        tp[k]++;
        locSum[k] += s;
        matches[k][ti.get(t[i].id)! * nh + hi.get(h[j].id)!]++;
      });
    });
  }
  const [n, m] = [truth.length, hyps.length];
  const per = alphas.map((_, k) => {
    let [assA, assRe, assPr] = [0, 0, 0];
    matches[k].forEach((c, idx) => {
      if (!c) return;
      const [tc, hc] = [tCount[Math.floor(idx / nh)], hCount[idx % nh]];
      assA += (c * c) / (tc + hc - c);
      assRe += (c * c) / tc;
      assPr += (c * c) / hc;
    });
    const d = Math.max(1, tp[k]);
    const detA = tp[k] / Math.max(1, n + m - tp[k]);
    return { detA, assA: assA / d, assRe: assRe / d, assPr: assPr / d, detRe: tp[k] / Math.max(1, n), detPr: tp[k] / Math.max(1, m), locA: Math.max(eps, locSum[k]) / Math.max(eps, tp[k]) };
  });
  const mean = (key: keyof (typeof per)[number]) => per.reduce((a, p) => a + p[key], 0) / per.length;
  return { hota: per.reduce((a, p) => a + Math.sqrt(p.detA * p.assA), 0) / per.length, detA: mean('detA'), assA: mean('assA'), detRe: mean('detRe'), detPr: mean('detPr'), assRe: mean('assRe'), assPr: mean('assPr'), locA: mean('locA') };
}

export interface BoxCover {
  /** Reported boxes scored (those over ignored truth left out). */
  boxes: number;
  /** Median IoU of a reported box with the truth object it overlaps most (0 when it overlaps none). */
  median: number;
  /** Share of reported boxes under IoU 0.5 with every object. */
  under50: number;
}

/**
 * How well reported boxes cover their objects, whatever their ids: each box's IoU with the truth box of its frame it
 * overlaps most. A box whose best is an ignored object (barely visible) is left out.
 */
export function boxCover(truth: readonly MotBox[], hyps: readonly MotBox[]): BoxCover {
  const T = byFrame(truth);
  const ious: number[] = [];
  for (const h of hyps) {
    let best = 0;
    let ignored = false;
    for (const t of T.get(h.frame) ?? []) {
      const o = iou(t, h);
      if (o > best) [best, ignored] = [o, !!t.ignore];
    }
    if (!ignored) ious.push(best);
  }
  const n = ious.length;
  return { boxes: n, median: median(ious), under50: n ? ious.filter((o) => o < 0.5).length / n : 0 };
}

/** One crossing of a line by an id's box centre: the frame it is first on the new side, and which way. */
export interface LineCrossing {
  frame: number;
  id: number;
  direction: 'forward' | 'backward';
}

/**
 * Crossings of the vertical line x = at (forward: left to right) or, with axis 'y', the horizontal line y = at
 * (forward: top to bottom), by each id's box centre, frame to frame.
 */
export function lineCrossingEvents(boxes: readonly MotBox[], at: number, axis: 'x' | 'y' = 'x'): LineCrossing[] {
  const byId = new Map<number, MotBox[]>();
  for (const b of boxes) {
    const list = byId.get(b.id);
    if (list) list.push(b);
    else byId.set(b.id, [b]);
  }
  const centre = axis === 'x' ? (b: MotBox) => (b.x0 + b.x1) / 2 : (b: MotBox) => (b.y0 + b.y1) / 2;
  const events: LineCrossing[] = [];
  for (const [id, list] of byId) {
    list.sort((a, b) => a.frame - b.frame);
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [centre(list[i - 1]), centre(list[i])];
      if (a < at && b >= at) events.push({ frame: list[i].frame, id, direction: 'forward' });
      if (a >= at && b < at) events.push({ frame: list[i].frame, id, direction: 'backward' });
    }
  }
  return events;
}

/** Crossings of the line lineCrossingEvents takes, counted each way. */
export function lineCrossings(boxes: readonly MotBox[], at: number, axis: 'x' | 'y' = 'x'): { forward: number; backward: number } {
  const n = { forward: 0, backward: 0 };
  for (const e of lineCrossingEvents(boxes, at, axis)) n[e.direction]++;
  return n;
}

/** Detection scores of boxes against truth made without identities (`detectionScores`). */
export interface DetectionScores {
  /** Truth boxes and reported boxes counted (ignored truth, and reported boxes over it, left out). */
  truth: number;
  reported: number;
  /** Reported boxes matched one to one to a truth box at IoU ≥ the threshold. */
  matched: number;
  precision: number;
  recall: number;
  /** Median IoU of the matched pairs (0 with none). */
  medianIou: number;
}

/**
 * Precision and recall of reported boxes against truth boxes in the frames the truth covers (hypotheses of other
 * frames are not scored): per frame a one-to-one minimum-cost matching at IoU ≥ `threshold`, as CLEAR-MOT's
 * without identities. Ignored truth counts neither way, with the reported boxes that match it.
 */
export function detectionScores(truthIn: readonly MotBox[], hypIn: readonly MotBox[], threshold = 0.5): DetectionScores {
  const frames = new Set(truthIn.map((b) => b.frame));
  const { truth, hyps } = withoutIgnored(truthIn, hypIn.filter((b) => frames.has(b.frame)), threshold);
  const T = byFrame(truth);
  const H = byFrame(hyps);
  const ious: number[] = [];
  for (const f of frames) {
    const [t, h] = [T.get(f) ?? [], H.get(f) ?? []];
    for (const [i, j] of matchIou(t, h, threshold)) ious.push(iou(t[i], h[j]));
  }
  const n = ious.length;
  return {
    truth: truth.length,
    reported: hyps.length,
    matched: n,
    precision: hyps.length ? n / hyps.length : 0,
    recall: truth.length ? n / truth.length : 0,
    medianIou: median(ious),
  };
}
