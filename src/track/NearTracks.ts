/**
 * The tracks a leftover blob could be a piece of (partOfTracked) or have come apart from (inheritSides), found without
 * looking at every track: both ask whether part of the blob lies inside a box of the track's (its estimate, its
 * prediction widened by its pulls, one of its last own observations), and no part of a blob lies inside a box it does
 * not overlap. Looked at one by one, the tracks of a frame times its leftover blobs grow with the square of
 * the blobs (a flood of noise blobs); the tracks are bucketed by their boxes, each in every cell its box covers (BoxGrid). The tracks
 * found are the same as looking at every track gives, in the same order, so are the tracker's results.
 */
import { BoxGrid } from './BoxGrid.js';
import { type Track } from './Track.js';
import { observed, splitRecent } from './tuning.js';
import { coastedOver } from './partOfTracked.js';
import { atLeast } from './scratch.js';

/**
 * Below this many tracks, or this many blobs left over in a frame, every track is looked at: indexing costs more than
 * it saves. bench/timing/tracker.js's 200 objects (a few blobs left a frame) ran 12 % slower indexed every frame (development
 * machine, 520 against 466 µs; the H200 machine's host 1194–1434 against 814–1016).
 */
export const nearTracksFrom = 32;
export const nearBlobsFrom = 16;

export class NearTracks {
  readonly #grid = new BoxGrid(128);
  /** Each track's box holding every box of its that partOfTracked and inheritSides look at, 4 a track. */
  #union = new Float64Array(256);
  #found = new Int32Array(64);
  #out: Track[] = [];
  #tracks: readonly Track[] = [];
  readonly #box = new Float64Array(4);

  /**
   * Indexes `tracks` by the box that holds every box of theirs partOfTracked and inheritSides look at: their estimate,
   * their prediction widened back over their pulls (coastedOver) and their last `splitRecent` own observations.
   */
  index(tracks: readonly Track[]): void {
    const n = tracks.length;
    this.#tracks = tracks;
    const union = (this.#union = atLeast(this.#union, 4 * n));
    this.#found = atLeast(this.#found, n);
    const b = this.#box;
    for (let i = 0; i < n; i++) {
      const t = tracks[i];
      t.box(b);
      let [x0, y0, x1, y1] = [b[0], b[1], b[2], b[3]];
      // The prediction, widened back over what groups' blobs drew it by.
      coastedOver(t, b);
      [x0, y0, x1, y1] = [Math.min(x0, b[0]), Math.min(y0, b[1]), Math.max(x1, b[2]), Math.max(y1, b[3])];
      const s = t.seenBox;
      for (let k = 1, m = Math.min(t.seenCount, splitRecent); k <= m; k++) {
        const e = 4 * ((t.seenNext + observed - k) % observed);
        x0 = Math.min(x0, s[e]);
        y0 = Math.min(y0, s[e + 1]);
        x1 = Math.max(x1, s[e + 2]);
        y1 = Math.max(y1, s[e + 3]);
      }
      union[4 * i] = x0;
      union[4 * i + 1] = y0;
      union[4 * i + 2] = x1;
      union[4 * i + 3] = y1;
    }
    this.#grid.index(union, n);
  }

  /**
   * The indexed tracks whose boxes could overlap blob j (bounds at bb[4j .. 4j + 4)), in their order in the list
   * indexed (the first of them that came apart with the blob is the one inheritSides takes). The array is reused.
   */
  near(bb: Float64Array, j: number): readonly Track[] {
    // A box sharing part of a pixel with the blob lies inside a track's union box only where the union does too.
    const found = this.#found;
    const count = this.#grid.overlapping(bb[4 * j], bb[4 * j + 1], bb[4 * j + 2], bb[4 * j + 3], found);
    const out = this.#out;
    out.length = 0;
    for (let k = 0; k < count; k++) out.push(this.#tracks[found[k]]);
    return out;
  }
}
