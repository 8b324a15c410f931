/**
 * What a counting line could reach from the blobs a clip gave if every object's identity were known (taken from the
 * truth): two bounds that say whether the line error left lies in the counting rules or in the identities.
 *
 * An object is seen on a side of the line x = at (axis 'y': y = at) at a frame where a blob shows it lying wholly
 * there, and counted, that way, where it is seen on the other side from where it was last seen:
 * - own: by a blob of its own (IoU 0.5 with its box, no other visible object's centre inside the blob), on the side
 *   that blob's box lies wholly on: a tracker that knew every object in blobs that are its alone;
 * - wholly: by any blob holding 30 % of its box, on the side that blob's box lies wholly on: one that also knew
 *   which objects every merged blob holds (a group's members), whatever their places inside it.
 * Crossings of objects never seen wholly on a side (walking along the line, hidden through the clip's end) are not
 * counted by either. The truth's counts are those of lineCrossings (its boxes' centres, frame to frame).
 */
import { type MotBox, boxIou, boxShare } from '../../reference.js';
import type { FrameResult } from '../../index.js';

export type Counts = { forward: number; backward: number };

export interface CountBounds {
  own: Counts;
  wholly: Counts;
}

/** IoU with its object's box from which a blob is that object's own. */
const ownIou = 0.5;
/** Share of an object's box a blob holds from which it shows that object. */
const held = 0.3;

/**
 * `results`: the blobs (features' boxes), frame by frame; `truth`: boxes on the same frame numbers (the results'
 * indices).
 */
export function countBounds(truth: readonly MotBox[], results: readonly FrameResult[], at: number, axis: 'x' | 'y' = 'x'): CountBounds {
  const byFrame = new Map<number, MotBox[]>();
  for (const t of truth) {
    const list = byFrame.get(t.frame);
    if (list) list.push(t);
    else byFrame.set(t.frame, [t]);
  }
  const [lo, hi] = axis === 'x' ? [0, 2] : [1, 3];
  // -1 wholly before the line, 1 wholly past it, 0 across.
  const sideOf = (b: readonly number[]) => (b[lo] > at ? 1 : b[hi] < at ? -1 : 0);
  const last = { own: new Map<number, number>(), wholly: new Map<number, number>() };
  const bounds: CountBounds = { own: { forward: 0, backward: 0 }, wholly: { forward: 0, backward: 0 } };
  const see = (k: keyof CountBounds, id: number, side: number) => {
    if (side === 0) return;
    const was = last[k].get(id);
    if (was !== undefined && was !== side) bounds[k][side > 0 ? 'forward' : 'backward']++;
    last[k].set(id, side);
  };
  results.forEach((r, frame) => {
    const f = r.features;
    const objects = byFrame.get(frame);
    if (!f || !objects) return;
    for (const o of objects) {
      let own = 0;
      let wholly = 0;
      for (let j = 0; j < f.label.length; j++) {
        const [x0, y0, x1, y1] = [f.x0[j], f.y0[j], f.x1[j], f.y1[j]];
        if (boxShare(o.x0, o.y0, o.x1, o.y1, x0, y0, x1, y1) < held) continue;
        const side = sideOf([x0, y0, x1, y1]);
        if (side !== 0) wholly = side;
        if (boxIou(o.x0, o.y0, o.x1, o.y1, x0, y0, x1, y1) < ownIou) continue;
        const others = objects.some((p) => {
          const [cx, cy] = [(p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2];
          return p !== o && !p.ignore && cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1;
        });
        if (!others) own = side;
      }
      see('own', o.id, own);
      see('wholly', o.id, wholly);
    }
  });
  return bounds;
}
