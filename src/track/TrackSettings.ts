/** The tracker's settings (Tracker.ts) and the boxes it takes. */

/** A detection: inclusive pixel bounds, as `features()` reports x0, y0, x1, y1. */
export type Box = readonly [number, number, number, number];

export interface TrackSettings {
  /** Frames in a row a new track must be matched before it is confirmed (and `entered` is emitted). */
  minHits: number;
  /** Seconds a confirmed track may go unseen (coasting) before it is dropped (`left`); sooner where its estimate has
   * left the frame (when the frame size is known). */
  maxUnseen: number;
  /** Weight of 1 − IoU in the cost; the rest is the centres' distance in units of the gate. */
  iouWeight: number;
  /**
   * Weight of appearance in a confirmed track's pair cost (0 ignores it): 1 − the share of the track's average
   * histogram the blob's holds, when the blobs carry histograms (`features({ histogram: true })`).
   */
  appearanceWeight: number;
  /**
   * With spatial histograms (`features({ histogram: 'spatial' })`): a group member whose grays the other members do
   * not share, 85–120 % of whose pixels show in them, is measured where they lie in the group's blob (placeMembers.ts).
   * Off by default: fewer ID switches, MOTA about the same, more GPU time (docs/decisions/tracking.md#place-by-gray).
   */
  placeByGray: boolean;
  /**
   * Two blobs that are one object's pieces on either side of something fixed in front of it (a post, a pillar, a
   * railing: their facing edges stand still while the object moves) are tracked as one blob, their boxes' union
   * (PieceJoiner.ts); the results' `blob` and `group` name the larger piece, `piece` and `groupPiece` the other. On by default
   * (docs/decisions/tracking.md#join-pieces).
   */
  joinPieces: boolean;
  /**
   * A blob holding a good part of the predictions of several tracks seen lately (objects crossing or walking together)
   * is theirs together: they coast in it, marked `merged`, measured on the edges they own, and take their own blobs
   * again when it splits (Tracker.ts). Off, each blob goes to one track, as in SORT. On by default
   * (docs/decisions/tracking.md#groups).
   */
  groups: boolean;
  /**
   * A blob whose box is under this share of the median box of the blobs confirmed tracks took alone lately, near a
   * tracked object at least twice its size (within that object's size of its predicted box), is a piece of it (a
   * sliver a pillar, a shadow's edge or the light leaves), and one under half the share anywhere is too small to be
   * an object: both are left out, as `features({ minArea })` leaves out blobs on the GPU (SizeFloor.ts); 0 leaves
   * every blob in. A floor in pixels fits only objects of one size; this one follows the objects tracked, so that
   * `minArea` can stay low enough for small ones (docs/decisions/tracking.md#size-floor). Objects of interest far
   * smaller than most of what is tracked (people far off beyond near cars) want 0.
   */
  sizeFloor: number;
  /** Largest distance between a prediction's centre and a blob's, in box diagonals, for a pair to be allowed. */
  gate: number;
  /** Measurement noise of a box edge, pixels (standard deviation). */
  measurementNoise: number;
  /**
   * Acceleration the motion model allows, pixels per second² (standard deviation density), at 30 frames a second: a
   * slower stream's is scaled down with its frame rate to the power 1.5 (141 at 15, 77 at 10), so that the filter's
   * process noise, counted in frames, is the same at any rate (Tracker.ts, `modelRate`).
   */
  acceleration: number;
  /** Seconds between frames when the results carry no increasing timestamps. */
  frameInterval: number;
}

export const defaultTrackSettings: Readonly<TrackSettings> = {
  minHits: 3,
  maxUnseen: 2,
  iouWeight: 0.5,
  appearanceWeight: 0.5,
  placeByGray: false,
  joinPieces: true,
  groups: true,
  sizeFloor: 0.2,
  gate: 1.5,
  measurementNoise: 2,
  acceleration: 400,
  frameInterval: 1 / 30,
};
