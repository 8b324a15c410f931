/**
 * The smallest blob the tracker takes, learnt from the objects it tracks: a blob whose box is under half of `share`
 * of the median box of the blobs confirmed tracks took alone lately, or under `share` of it and near a tracked object
 * at least twice its size (within that object's size of its predicted box), is left out of the frame before the
 * tracker looks at it, as `features({ minArea })` would leave it out on the GPU.
 *
 * `features()`'s `minArea` is in pixels, and which number is right depends on how large the objects appear, which a
 * camera's user seldom knows. A floor learnt from the tracked objects' size
 * follows them (docs/decisions/tracking.md#size-floor).
 *
 * Two levels: the slivers of an object lie by it, and are left out up to `share` (0.2 by default) of the objects'
 * size; elsewhere only what is under half that, so that a small object far from others (a person far off in a street
 * of cars) stays. With `share` near tracks only, OpenCV's pedestrian sample (vtest.avi) gave 23 tracks shorter than a
 * second where 100 px had given none: the flapping of a barrier tape, 3–5 px tall, far from the people. Left out far
 * from them under a twentieth / a tenth / 0.15 / 0.2 of the median: 6 / 3 / 3 / 3 such tracks; under a twentieth /
 * a tenth, seeds 1–2 of the flat and street scenes at `minArea` 20 scored MOTA 0.429 / 0.435 (0.428 without) and
 * 0.653 / 0.657 (0.644).
 */
import { median } from './median.js';
import { bins, type Track } from './Track.js';
import type { Box } from './TrackSettings.js';
import { floorPieceShare, needed, reach, remembered } from './tuning.js';

export interface FlooredBlobs {
  boxes: Box[];
  hists: Float64Array | null;
  placesX: Float64Array | null;
  placesY: Float64Array | null;
  /** For each blob kept, its index in the caller's. */
  source: Int32Array;
}

const boxArea = (b: Box) => (b[2] - b[0] + 1) * (b[3] - b[1] + 1);

export class SizeFloor {
  readonly #share: number;
  readonly #areas = new Float64Array(remembered);
  readonly #scratch = new Float64Array(remembered);
  #next = 0;
  #count = 0;
  /** Box area under which a blob near a larger track is left out (under half of it: any blob); 0 until `needed`. */
  #floor = 0;

  constructor(share: number) {
    this.#share = share;
  }

  /** The box area under which blobs near a larger track are left out now, half of it anywhere (0: none is). */
  get floor(): number {
    return this.#floor;
  }

  /** A confirmed track's own blob this frame, box bounds inclusive. */
  learn(x0: number, y0: number, x1: number, y1: number): void {
    this.#areas[this.#next] = (x1 - x0 + 1) * (y1 - y0 + 1);
    this.#next = (this.#next + 1) % remembered;
    if (this.#count < remembered) this.#count++;
  }

  /** After a frame's learning: the floor for the next frame. */
  settle(): void {
    if (this.#count < needed) return;
    this.#scratch.set(this.#areas.subarray(0, this.#count));
    this.#floor = this.#share * median(this.#scratch, this.#count);
  }

  /**
   * Whether blob b is under half the floor, or under the floor and near a track that is not tentative (its
   * prediction made this frame) and at least twice its size: a piece of that track's object, not the track's own
   * small object.
   */
  #drops(b: Box, tracks: readonly Track[]): boolean {
    const a = boxArea(b);
    if (a >= this.#floor) return false;
    if (a < this.#floor / 2) return true;
    for (const t of tracks) {
      if (t.state === 'tentative') continue;
      const p = t.predicted;
      const w = p[2] - p[0] + 1;
      const h = p[3] - p[1] + 1;
      if (a >= floorPieceShare * w * h) continue;
      const gx = reach * w;
      const gy = reach * h;
      if (b[0] <= p[2] + gx && b[2] >= p[0] - gx && b[1] <= p[3] + gy && b[3] >= p[1] - gy) return true;
    }
    return false;
  }

  /**
   * The blobs kept this frame, or null where every blob is (nothing copied). `tracks`: the tracker's, predicted to
   * this frame. Histograms and places are 16 values a blob.
   */
  filter(tracks: readonly Track[], boxes: readonly Box[], hists: ArrayLike<number> | null, placesX: ArrayLike<number> | null, placesY: ArrayLike<number> | null): FlooredBlobs | null {
    if (this.#floor === 0) return null;
    let keep: number[] | null = null;
    for (let j = 0; j < boxes.length; j++) {
      const drop = this.#drops(boxes[j], tracks);
      if (drop && !keep) keep = Array.from({ length: j }, (_, i) => i);
      else if (!drop && keep) keep.push(j);
    }
    if (!keep) return null;
    const kept = keep;
    const n = kept.length;
    const pick = (from: ArrayLike<number> | null) => {
      if (!from) return null;
      const out = new Float64Array(n * bins);
      for (let k = 0; k < n; k++) for (let i = 0; i < bins; i++) out[k * bins + i] = from[kept[k] * bins + i];
      return out;
    };
    return { boxes: kept.map((j) => boxes[j]), hists: pick(hists), placesX: pick(placesX), placesY: pick(placesY), source: Int32Array.from(kept) };
  }
}
