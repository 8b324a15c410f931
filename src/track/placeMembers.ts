import { bins, type Track } from './Track.js';

/**
 * A bin is a member's when its pixels in the member's own blobs outnumber the other members' in theirs by this much
 * (its share of the bin's expected pixels).
 */
const ownBin = 0.8;
/**
 * A member is placed only where its own bins hold this share of its histogram (`ownShare`: grays the others do not
 * share) and the group's blob shows this share of the pixels it showed alone in them (`seenShare`): the mean of a
 * member hidden in part behind another lies off its centre, toward the part that shows. bench/trackEval.js, flat
 * scenes, seeds 1–2 (MOTA / IDF1 / ID switches, from 0.420 / 0.581 / 127 without): seen 0.5 0.425 / 0.575 / 129,
 * 0.85 0.435 / 0.590 / 125; own bins at 0.95 rather than 0.8, or bins holding more than 1.3 or 1.5 times the member's
 * pixels left out, within ±0.01 either way.
 */
const seenShare = 0.85;
const ownShare = 0.5;

/**
 * Places the members of a group by their grays. With spatial histograms (`features({ histogram: 'spatial' })`) a
 * group's blob j tells where the pixels of each gray lie (`px`, `py`, `bins` means a blob; `hists` its counts). A
 * member whose grays the others do not share (a dark object walking past a light one) is where its bins' pixels
 * are: each of its bins' mean less where that bin lay in its own blobs (Track.placeX, placeY, as shares of its size)
 * gives its centre, weighted by the bin's pixels. Such a member is measured there at its size (Track.measure, as if
 * its blob had been its own: `placed`), rather than coasting on its velocity from before the group formed.
 * `members[0 .. count)` are the group's tracks, its blob's bounds bb[4j .. 4j + 4); `box` 4 numbers of scratch.
 */
export function placeMembers(members: readonly Track[], count: number, j: number, hists: ArrayLike<number>, px: ArrayLike<number>, py: ArrayLike<number>, box: Float64Array): void {
  // Every member's look must be known: a member with none could own any bin.
  for (let i = 0; i < count; i++) if (!members[i].appearance || !members[i].placeX || members[i].appearanceSum <= 0) return;
  for (let i = 0; i < count; i++) {
    const t = members[i];
    if (t.state === 'tentative') continue;
    const a = t.appearance!;
    const ax = t.placeX!;
    const ay = t.placeY!;
    const w = t.kf.p(2);
    const h = t.kf.p(3);
    let seen = 0;
    let own = 0;
    let sx = 0;
    let sy = 0;
    for (let b = 0; b < bins; b++) {
      const c = hists[j * bins + b];
      const e = a[b];
      if (c <= 0 || e <= 0 || Number.isNaN(ax[b])) continue;
      let others = 0;
      for (let k = 0; k < count; k++) if (k !== i) others += members[k].appearance![b];
      if (e < ownBin * (e + others)) continue;
      own += e;
      seen += c;
      sx += c * (px[j * bins + b] - ax[b] * w);
      sy += c * (py[j * bins + b] - ay[b] * h);
    }
    if (own < ownShare * t.appearanceSum || seen < seenShare * t.appearanceSum) continue;
    const cx = sx / seen;
    const cy = sy / seen;
    box[0] = cx - w / 2 + 0.5;
    box[1] = cy - h / 2 + 0.5;
    box[2] = cx + w / 2 - 0.5;
    box[3] = cy + h / 2 - 0.5;
    t.measure(box, 0, 0);
    t.ownsEdges = 3;
    t.placed = true;
  }
}
