/**
 * Why a reported box falls under IoU 0.5 with every object (issue 81): each box `seenTracks` reports, classed by
 * what the tracker reported it from and how it lies on the truth:
 * - member: a group member's estimate (its track shares a blob with others: a crossing or a group);
 * - pieces: two pieces of a blob joined across something in front (`track({ joinPieces })`);
 * - own blob, by the truth box it overlaps most: `piece` when the box is under half that object's area (the
 *   foreground showed part of it), `several` when it holds 30 % of two visible objects' boxes (a blob over two objects
 *   taken as one), `off` otherwise (no object, or one it is beside).
 */
import { boxIou, boxShare, type MotBox } from '../../reference.js';
import { seenTracks, type FrameResult } from '../../index.js';

export type BoxCause = 'member' | 'pieces' | 'piece' | 'several' | 'off';
export const boxCauseNames: readonly BoxCause[] = ['piece', 'several', 'off', 'pieces', 'member'];

export function boxCauses(truth: readonly MotBox[], results: readonly FrameResult[]): { boxes: number; under: Record<BoxCause, number> } {
  const under: Record<BoxCause, number> = { member: 0, pieces: 0, piece: 0, several: 0, off: 0 };
  const byFrame = new Map<number, MotBox[]>();
  for (const t of truth) byFrame.set(t.frame, [...(byFrame.get(t.frame) ?? []), t]);
  let boxes = 0;
  for (const r of results) {
    const objects = byFrame.get(r.seq) ?? [];
    const tracks = new Map(r.tracks!.tracks.map((t) => [t.id, t]));
    for (const { id, box } of seenTracks(r)) {
      let [best, at] = [0, -1];
      objects.forEach((o, k) => {
        const v = boxIou(o.x0, o.y0, o.x1, o.y1, box[0], box[1], box[2], box[3]);
        if (v > best) [best, at] = [v, k];
      });
      if (at >= 0 && objects[at].ignore) continue;
      boxes++;
      if (best >= 0.5) continue;
      const t = tracks.get(id)!;
      if (t.blob < 0) under.member++;
      else if ((t.piece ?? -1) >= 0) under.pieces++;
      else {
        const area = (b: readonly number[]) => (b[2] - b[0] + 1) * (b[3] - b[1] + 1);
        const o = at >= 0 ? objects[at] : null;
        const held = objects.filter((x) => !x.ignore && boxShare(x.x0, x.y0, x.x1, x.y1, box[0], box[1], box[2], box[3]) >= 0.3);
        if (held.length >= 2) under.several++;
        else if (o && area(box) < 0.5 * area([o.x0, o.y0, o.x1, o.y1])) under.piece++;
        else under.off++;
      }
    }
  }
  return { boxes, under };
}
