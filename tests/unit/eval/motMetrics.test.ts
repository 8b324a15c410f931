// The tracking scores on hand-made cases whose CLEAR-MOT and IDF1 values follow from their definitions (as
// py-motmetrics computes them): perfect tracks, a miss, a false positive, an identity switch, a swap kept by
// continuity, ignored truth; and HOTA (as TrackEval computes it) on cases whose value follows from its definition.
import { describe, expect, it } from 'vitest';
import { boxCover, detectionScores, hotaScores, lineCrossingEvents, lineCrossings, motScores, type MotBox } from '../../../src/eval/motMetrics.js';

const box = (frame: number, id: number, x: number, extra: Partial<MotBox> = {}): MotBox => ({ frame, id, x0: x, y0: 0, x1: x + 9, y1: 9, ...extra });

describe('motScores', () => {
  const truth = [0, 1, 2, 3].flatMap((f) => [box(f, 1, 0), box(f, 2, 50)]);

  it('scores perfect tracks 1 whatever the hypothesis ids', () => {
    const s = motScores(truth, truth.map((b) => ({ ...b, id: b.id + 100 })));
    expect(s).toMatchObject({ misses: 0, falsePositives: 0, idSwitches: 0, mota: 1, idf1: 1 });
  });

  it('counts a miss, a false positive and a box off by too much', () => {
    const hyp = truth.filter((b) => !(b.frame === 2 && b.id === 2)).concat([box(3, 9, 120)]);
    // Frame 1, object 1: shifted 6 px of 10 (IoU 4/16 < 0.5): a miss and a false positive.
    hyp[2] = { ...hyp[2], x0: hyp[2].x0 + 6, x1: hyp[2].x1 + 6 };
    const s = motScores(truth, hyp);
    expect(s.misses).toBe(2);
    expect(s.falsePositives).toBe(2);
    expect(s.mota).toBeCloseTo(1 - 4 / 8);
    // IDF1: ids 1 and 2 keep their hypotheses: 6 shared frames of 8 truth and 8 hypotheses.
    expect(s.idf1).toBeCloseTo((2 * 6) / 16);
  });

  it('counts an identity switch when a truth object changes hypothesis, and IDF1 keeps the longer part', () => {
    const hyp = truth.map((b) => ({ ...b, id: b.id === 1 ? (b.frame < 3 ? 11 : 12) : 22 }));
    const s = motScores(truth, hyp);
    expect(s.idSwitches).toBe(1);
    expect(s.mota).toBeCloseTo(1 - 1 / 8);
    expect(s.idf1).toBeCloseTo((2 * 7) / 16);
  });

  it('keeps a correspondence while it still matches, even when another pair would cost less', () => {
    // Frames 0-1: hypothesis 5 on object 1; frame 2: hypothesis 6 fits object 1 better, but 5 still matches.
    const t = [0, 1, 2].map((f) => box(f, 1, 0));
    const h = [box(0, 5, 0), box(1, 5, 0), box(2, 5, 3), box(2, 6, 0)];
    const s = motScores(t, h);
    expect(s.idSwitches).toBe(0);
    expect(s.falsePositives).toBe(1);
  });

  it('leaves ignored truth out, with the hypotheses on it', () => {
    const t = [...truth, box(0, 3, 200, { ignore: true }), box(1, 3, 200, { ignore: true })];
    const s = motScores(t, [...truth, box(0, 7, 200), box(1, 7, 200)]);
    expect(s).toMatchObject({ truth: 8, hypotheses: 8, mota: 1, idf1: 1 });
  });

  it('counts crossings of a vertical line by each id\'s centre, each way, in frame order whatever the input order', () => {
    // Id 1's centre (x + 4.5): 4.5, 24.5, 44.5 then back to 14.5; id 2 stays left; id 3 starts on the line.
    const boxes = [box(3, 1, 10), box(0, 1, 0), box(2, 1, 40), box(1, 1, 20), box(0, 2, 0), box(1, 2, 5), box(0, 3, 25), box(1, 3, 40)];
    expect(lineCrossings(boxes, 29.5)).toEqual({ forward: 1, backward: 1 });
    expect(lineCrossings(boxes, 24.5)).toEqual({ forward: 1, backward: 1 });
    expect(lineCrossings(boxes, 50)).toEqual({ forward: 0, backward: 0 });
    // Each crossing with the frame its centre is first on the new side.
    expect(lineCrossingEvents(boxes, 29.5)).toEqual([
      { frame: 2, id: 1, direction: 'forward' },
      { frame: 3, id: 1, direction: 'backward' },
    ]);
  });

  it('counts crossings of a horizontal line by each id\'s centre, forward downward', () => {
    // The same walks turned a quarter: id 1's centre y 4.5, 24.5, 44.5, 14.5.
    const turned = (b: MotBox): MotBox => ({ ...b, x0: b.y0, x1: b.y1, y0: b.x0, y1: b.x1 });
    const boxes = [box(3, 1, 10), box(0, 1, 0), box(2, 1, 40), box(1, 1, 20), box(0, 2, 0), box(1, 2, 5)].map(turned);
    expect(lineCrossings(boxes, 29.5, 'y')).toEqual({ forward: 1, backward: 1 });
    expect(lineCrossings(boxes, 29.5, 'x')).toEqual({ forward: 0, backward: 0 });
    expect(lineCrossingEvents(boxes, 40, 'y')).toEqual([{ frame: 2, id: 1, direction: 'forward' }, { frame: 3, id: 1, direction: 'backward' }]);
  });
});

describe('hotaScores', () => {
  // One object for ten frames, and a second for the last five.
  const truth = Array.from({ length: 10 }, (_, f) => box(f, 1, 0)).concat(Array.from({ length: 5 }, (_, f) => box(f + 5, 2, 50)));

  it('scores perfect tracks 1 whatever the hypothesis ids, and nothing found 0', () => {
    const s = hotaScores(truth, truth.map((b) => ({ ...b, id: b.id + 7 })));
    for (const v of Object.values(s)) expect(v).toBeCloseTo(1, 12);
    expect(hotaScores(truth, [])).toMatchObject({ hota: 0, detA: 0, assA: 0 });
  });

  it('halves association when an object changes id half way: HOTA √½ with detection exact', () => {
    const hyp = truth.map((b) => (b.id === 1 ? { ...b, id: b.frame < 5 ? 10 : 11 } : { ...b, id: 20 }));
    const s = hotaScores(truth, hyp);
    // Object 1: 5 frames with each id; each pair's alignment 5 / (10 + 5 − 5) = ½. Object 2: 1. AssA = (10·½ + 5·1) / 15.
    expect(s.detA).toBeCloseTo(1, 12);
    expect(s.assA).toBeCloseTo(10 / 15, 12);
    expect(s.hota).toBeCloseTo(Math.sqrt(10 / 15), 12);
    expect(s.assPr).toBeCloseTo(1, 12);
    expect(s.assRe).toBeCloseTo(10 / 15, 12);
  });

  it('counts a pair as found only at thresholds up to its IoU, and false positives against detection', () => {
    // Every box 10 × 6 of the true 10 × 10: IoU 0.6, found at the 12 thresholds 0.05 … 0.6 of 19.
    const short = truth.map((b) => ({ ...b, y1: b.y0 + 5 }));
    const s = hotaScores(truth, short);
    expect(s.hota).toBeCloseTo(12 / 19, 12);
    // TrackEval counts a threshold with no match as LocA 1.
    expect(s.locA).toBeCloseTo((12 * 0.6 + 7) / 19, 12);
    // Five boxes where nothing is: DetA = 15 / (15 + 5) at every threshold, association untouched.
    const extra = hotaScores(truth, [...truth, ...[0, 1, 2, 3, 4].map((f) => box(f, 99, 200))]);
    expect(extra.detA).toBeCloseTo(15 / 20, 12);
    expect(extra.detPr).toBeCloseTo(15 / 20, 12);
    expect(extra.assA).toBeCloseTo(1, 12);
    expect(extra.hota).toBeCloseTo(Math.sqrt(15 / 20), 12);
  });

  it('leaves ignored truth out, with the hypotheses on it', () => {
    const ignored = [...truth, box(3, 5, 100, { ignore: true })];
    expect(hotaScores(ignored, [...truth, box(3, 42, 100)]).hota).toBeCloseTo(1, 12);
  });
});

describe('boxCover', () => {
  it("scores each reported box by its best object's IoU, whatever the ids; boxes on ignored objects left out", () => {
    const truth = [box(0, 1, 0), box(0, 2, 50), box(1, 1, 0), box(1, 3, 100, { ignore: true })];
    // Exact; half the object (IoU 0.5); a third (IoU 10·3/100 → 0.3); on nothing (0); on the ignored object.
    const hyps = [box(0, 7, 0), { ...box(0, 8, 50), y1: 4 }, { ...box(1, 7, 0), x1: 2 }, box(1, 9, 300), box(1, 5, 100)];
    const c = boxCover(truth, hyps);
    expect(c.boxes).toBe(4);
    expect(c.median).toBeCloseTo((0.3 + 0.5) / 2, 12);
    expect(c.under50).toBe(0.5);
    expect(boxCover(truth, [])).toEqual({ boxes: 0, median: 0, under50: 0 });
  });
});

describe('detectionScores', () => {
  it('matches boxes one to one per truth frame, leaving other frames and ignored truth (with its boxes) out', () => {
    const truth = [box(0, 1, 0), box(0, 2, 50), box(10, 3, 0), box(10, 4, 100, { ignore: true })];
    const reported = [
      box(0, 7, 0), // exact
      box(0, 8, 2), // a second box on the same object: a false positive
      box(0, 9, 53), // IoU 7/13 ≈ 0.54
      box(5, 7, 0), // a frame the truth does not cover: not scored
      box(10, 7, 6), // IoU 4/16 = 0.25: a false positive, and truth 3 missed
      box(10, 8, 100), // on ignored truth: left out
    ];
    const s = detectionScores(truth, reported);
    expect(s).toMatchObject({ truth: 3, reported: 4, matched: 2, precision: 0.5, recall: 2 / 3 });
    expect(s.medianIou).toBeCloseTo((1 + 7 / 13) / 2, 10);
    expect(detectionScores(truth, [])).toMatchObject({ matched: 0, precision: 0, recall: 0, medianIou: 0 });
  });
});
