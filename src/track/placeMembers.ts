import { bins, type Track } from './Track.js';

/**
 * A bin is a member's where the member's average histogram (pixels a bin in its own blobs) holds this share of the
 * group's members' averages summed in that bin.
 */
const ownBin = 0.8;
/**
 * A member is placed only where its own bins hold `ownShare` of its histogram (grays the others do not share) and the
 * group's blob shows between `seenShare` and `seenMost` of the pixels it showed alone in them: the mean of a member
 * hidden in part behind another lies off its centre, toward the part that shows, and more pixels than its own in its
 * bins are another object's (one no track follows, or a shadow's). Placements checked against the truth
 * (bench/trackEval.js, flat scenes, seeds 1–4; off the object's centre, in its widths, median / 90th percentile):
 * seen 0.5–0.7 of its pixels 0.12 / 0.32, 0.7–0.85 0.08 / 0.24, 0.85–1 0.04 / 0.19, 1–1.2 0.02 / 0.17, over 1.2
 * 0.07 / 0.55; coasting members were off by 0.06 / 0.27.
 */
const seenShare = 0.85;
const seenMost = 1.2;
const ownShare = 0.5;

/**
 * Places the members of a group by their grays. With spatial histograms (`features({ histogram: 'spatial' })`) a
 * group's blob j tells where the pixels of each gray lie (`px`, `py`, `bins` means a blob; `hists` its counts). A
 * member whose grays the others do not share (a dark object walking past a light one) is where its bins' pixels
 * are: each of its bins' mean less where that bin lay in its own blobs (Track.placeX, placeY, as shares of its size)
 * gives its centre, weighted by the bin's pixels. Such a member is measured there at its size (Track.measure, as if
 * its blob had been its own: `placed`), rather than coasting on its velocity from before the group formed.
 * `members[0 .. count)` are the group's tracks, `j` its blob; `box` 4 numbers of scratch.
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
    if (own < ownShare * t.appearanceSum || seen < seenShare * t.appearanceSum || seen > seenMost * t.appearanceSum) continue;
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
