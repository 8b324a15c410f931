import { bins, type Track } from './Track.js';
import { ownBin, ownShare, seenMost, seenShare } from './tuning.js';

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
