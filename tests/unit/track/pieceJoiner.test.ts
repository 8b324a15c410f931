// An object's pieces either side of something fixed in front of it joined into one blob (src/track/PieceJoiner.ts):
// pieces whose facing edges stand still while the object moves; not two objects walking side by side, not two that
// stand still, not pieces of different heights.
import { describe, expect, it } from 'vitest';
import { PieceJoiner } from '../../../src/track/PieceJoiner.js';
import type { Box } from '../../../index.js';
import { rng } from '../../../src/eval/images.js';

const bins = 16;
/** A blob's histogram: all its box's pixels in one bin. */
const histOf = (bin: number, b: Box) => Array.from({ length: bins }, (_, k) => (k === bin ? (b[2] - b[0] + 1) * (b[3] - b[1] + 1) : 0));
const area = (b: Box) => (b[2] - b[0] + 1) * (b[3] - b[1] + 1);

/** What shows of box b behind a post covering x in [p0, p1]: its parts left and right of it, 1 px wide or more. */
function aroundPost(b: Box, p0: number, p1: number): Box[] {
  return ([
    [b[0], b[1], Math.min(b[2], p0 - 1), b[3]],
    [Math.max(b[0], p1 + 1), b[1], b[2], b[3]],
  ] as Box[]).filter((q) => q[2] >= q[0]);
}

describe('PieceJoiner', () => {
  it('joins a vehicle\'s two pieces either side of a post, from the second frame both show, into its whole box', () => {
    // A 60×30 vehicle driving right 3 px a frame behind a 12 px post at x 150–161.
    const joiner = new PieceJoiner();
    const at = (t: number): Box => [3 * t, 80, 3 * t + 59, 109];
    let joinedFrames = 0;
    let bothBefore = false;
    for (let t = 0; t < 90; t++) {
      const other: Box = [10, 200, 30, 230];
      const pieces = aroundPost(at(t), 150, 161);
      const boxes = [other, ...pieces];
      const hists = boxes.flatMap((b, i) => histOf(i, b));
      const j = joiner.join(boxes, hists, bins);
      const both = pieces.length === 2;
      if (both && bothBefore) {
        joinedFrames++;
        expect(j, `frame ${t}`).not.toBeNull();
        expect(j!.boxes).toHaveLength(2);
        expect(j!.boxes[0]).toEqual(other);
        expect(j!.boxes[1]).toEqual(at(t));
        // The joined blob's histogram holds both pieces' pixels; it stands for the larger piece.
        const h = Array.from(j!.hists!).slice(bins, 2 * bins);
        expect(h[1]).toBe(area(pieces[0]));
        expect(h[2]).toBe(area(pieces[1]));
        expect(j!.source[1]).toBe(area(pieces[1]) > area(pieces[0]) ? 2 : 1);
        expect(j!.source[0]).toBe(0);
      } else {
        expect(j, `frame ${t}`).toBeNull();
      }
      bothBefore = both;
    }
    // Both pieces show while the vehicle spans the post: x0 < 150 and x1 > 161, frames 35–49.
    expect(joinedFrames).toBe(14);
  });

  it('keeps a vehicle that stopped behind the post joined, and joins upper and lower pieces either side of a railing', () => {
    const joiner = new PieceJoiner();
    // Driving up to x 130 at 3 px a frame, then standing there.
    const at = (t: number): Box => {
      const x = Math.min(3 * t, 130);
      return [x, 80, x + 59, 109];
    };
    for (let t = 0; t < 80; t++) {
      const j = joiner.join(aroundPost(at(t), 150, 161), null, bins);
      if (t >= 45) expect(j?.boxes, `frame ${t}`).toEqual([at(t)]);
    }
    // A person 20×60 walking down 2 px a frame behind a railing at y 120–127: pieces above and below it.
    const railing = new PieceJoiner();
    const person = (t: number): Box => [100, 2 * t, 119, 2 * t + 59];
    let joined = 0;
    for (let t = 0; t < 80; t++) {
      const b = person(t);
      const pieces = ([
        [b[0], b[1], b[2], Math.min(b[3], 119)],
        [b[0], Math.max(b[1], 128), b[2], b[3]],
      ] as Box[]).filter((q) => q[3] >= q[1]);
      const j = railing.join(pieces, null, bins);
      if (j) {
        expect(j.boxes).toEqual([b]);
        joined++;
      }
    }
    expect(joined).toBeGreaterThan(20);
  });

  it('does not join two objects walking side by side, two standing still, or pieces of different heights', () => {
    const joiner = new PieceJoiner();
    for (let t = 0; t < 40; t++) {
      // Two of one size and rows walking together 8 px apart: their facing edges move.
      const a: Box = [2 * t, 50, 2 * t + 19, 109];
      const b: Box = [2 * t + 28, 50, 2 * t + 47, 109];
      // Two standing still 8 px apart on the same rows.
      const c: Box = [200, 150, 219, 209];
      const d: Box = [228, 150, 247, 209];
      // Either side of a post at 150–161: one 30 px tall walking out of it, one 60 px tall walking into it (their
      // tops 30 px apart: more than 0.4 of the smaller's height).
      const e: Box = [162, 40, 162 + t, 69];
      const f: Box = [100 + t, 10, 149, 69];
      expect(joiner.join([a, b, c, d, e, f], null, bins), `frame ${t}`).toBeNull();
    }
  });

  it('joins pieces anywhere in a large frame, and leaves boxes off whole pixels or past 16384 px unjoined, unharmed', () => {
    // The same vehicle in a 8000 px wide frame (the edge tables grow), then offset by half a pixel and past 16384 px.
    for (const [dx, joins] of [[7000, true], [7000.5, false], [20000, false]] as const) {
      const joiner = new PieceJoiner();
      let joined = 0;
      for (let t = 0; t < 90; t++) {
        const b: Box = [dx + 3 * t, 80, dx + 3 * t + 59, 109];
        const pieces = aroundPost(b, dx + 150, dx + 161);
        const j = joiner.join(pieces, null, bins);
        if (j) {
          expect(j.boxes).toEqual([b]);
          joined++;
        }
      }
      expect(joined > 0, `offset ${dx}`).toBe(joins);
    }
  });

  it('joins across every gap the rule allows (1 px up to the pieces\' shared extent) and none wider, moving either way on both axes, among 3000 blobs of noise', () => {
    // The pairs are looked for among the blobs sorted by their facing edges (a flood of noise made every near piece
    // against every far one a fifth of the tracker's frame): the search's bounds are the rule's, gap by gap.
    const r = rng(12);
    // An object 60 px along the axis and 30 across it (its pieces' shared extent) in a 1920×1080 frame, behind a post
    // (or a railing) as wide as the gap.
    const extent = 30;
    // Moving towards + (the near piece's outer edge moves), towards -, and out from the frame's border at 0 (the near
    // piece's outer edge stands still there: only the far one's moves).
    const ways = [
      { name: 'towards +', post: 400, length: 60, along: (t: number) => 300 + 4 * t },
      { name: 'towards -', post: 400, length: 60, along: (t: number) => 500 - 4 * t },
      { name: 'out of the border', post: 100, length: 200, along: (t: number) => -150 + 4 * t },
    ];
    for (const axis of [0, 1]) {
      for (const way of ways) {
        for (const gap of [1, 2, extent - 1, extent, extent + 1]) {
          const joiner = new PieceJoiner();
          const post = way.post;
          let joined = 0;
          let both = 0;
          for (let t = 0; t < 50; t++) {
            const along = way.along(t);
            const ends = [Math.max(0, along), along + way.length - 1];
            const whole: Box = axis === 0 ? [ends[0], 100, ends[1], 100 + extent - 1] : [100, ends[0], 100 + extent - 1, ends[1]];
            const lo = whole[axis];
            const hi = whole[axis + 2];
            const pieces: Box[] = [];
            if (lo < post) pieces.push(axis === 0 ? [lo, whole[1], Math.min(hi, post - 1), whole[3]] : [whole[0], lo, whole[2], Math.min(hi, post - 1)]);
            if (hi >= post + gap) pieces.push(axis === 0 ? [Math.max(lo, post + gap), whole[1], hi, whole[3]] : [whole[0], Math.max(lo, post + gap), whole[2], hi]);
            const noise: Box[] = Array.from({ length: 3000 }, () => {
              const [w, h] = [3 + Math.floor(r() * 10), 3 + Math.floor(r() * 10)];
              // Past the object along the axis: its edges there are no object's edges of last frame (with noise over
              // the whole frame most edges stand where one stood: a moving object's too, by chance).
              const [x, y] = axis === 0 ? [700 + Math.floor(r() * 1200), Math.floor(r() * 1060)] : [Math.floor(r() * 1900), 700 + Math.floor(r() * 360)];
              return [x, y, x + w - 1, y + h - 1];
            });
            const out = joiner.join([...noise, ...pieces], null, bins);
            if (pieces.length < 2) continue;
            both++;
            if (out?.boxes.some((b) => b.every((v, i) => v === whole[i]))) joined++;
          }
          const name = `axis ${axis}, ${way.name}, gap ${gap}`;
          expect(both, name).toBeGreaterThan(5);
          // From the second frame both pieces show, while they do.
          expect(joined, name).toBe(gap <= extent ? both - 1 : 0);
        }
      }
    }
  });
});
