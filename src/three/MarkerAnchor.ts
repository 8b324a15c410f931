/**
 * An `Object3D` that follows one marker, or one board (`new MarkerAnchor({ board: name })`, a board given to
 * `pose({ boards })`; its axes are the board's): each frame, `follow(result.poses)` places it at the marker's filtered pose
 * (from `pose()`, which smooths the corners, keeps the flip consistent and finds / loses markers with hysteresis)
 * and shows it while the marker is found; hidden when lost. Put what should sit on the marker inside it, in the
 * marker's axes (x right, y up, z out of the marker; the unit of `pose()`'s `markerSize`).
 *
 * The anchor's matrix is the marker's pose in the camera's frame: add anchors to the scene with the camera left at
 * the origin (`IntrinsicCamera` is), or add them to the camera.
 *
 * @example
 * const anchor = new MarkerAnchor(7);
 * anchor.add(cube);
 * scene.add(anchor);
 * anchor.found.subscribe(() => console.log('marker 7 found'));
 * results.subscribe((r) => { anchor.follow(r.poses!); renderer.render(scene, camera); });
 */
import { Object3D } from 'three';
import { Subject, type Observable } from 'rxjs';
import type { BoardPose, MarkerPose, PoseResults } from '../core/results.js';
import { InvalidOptionError } from '../core/errors.js';
import { poseMatrix } from './poseMatrix.js';

/** What an anchor follows: a marker's id, or a board's name. */
export type AnchorTarget = number | { board: string };
/** The pose an anchor of that target gets. */
export type AnchorPose<T extends AnchorTarget> = T extends number ? MarkerPose : BoardPose;

export class MarkerAnchor<T extends AnchorTarget = number, P extends AnchorPose<T> = AnchorPose<T>> extends Object3D {
  readonly isMarkerAnchor = true;
  /** The marker followed, or null for a board. */
  readonly markerId: T extends number ? number : null;
  /** The board followed, or null for a marker. */
  readonly boardName: T extends number ? null : string;
  /** The marker's dictionary where given: only a marker of it is followed (else the first of the id in any). */
  readonly dictionary: string | null;
  /** The marker's (or board's) pose this frame while found, else null. */
  pose: P | null = null;
  readonly #found = new Subject<P>();
  readonly #lost = new Subject<void>();
  readonly #update = new Subject<P>();
  /** The marker was found (after `pose()`'s `foundAfter` frames): the anchor is shown. */
  readonly found: Observable<P> = this.#found.asObservable();
  /** The marker was lost (unseen for more than `pose()`'s `lostAfter` frames): the anchor is hidden. */
  readonly lost: Observable<void> = this.#lost.asObservable();
  /** Every frame the anchor moved with its marker (seen or kept). */
  readonly update: Observable<P> = this.#update.asObservable();

  constructor(target: T, dictionary?: string) {
    super();
    const t: AnchorTarget = target;
    if (dictionary !== undefined && (typeof dictionary !== 'string' || !dictionary || typeof t === 'object')) throw new InvalidOptionError(`MarkerAnchor: dictionary must be a dictionary's name, for a marker, got ${String(dictionary)}`);
    this.dictionary = dictionary?.toUpperCase() ?? null;
    if (typeof t === 'object' && t !== null) {
      if (typeof t.board !== 'string' || !t.board) throw new InvalidOptionError(`MarkerAnchor: board must be a board's name, got ${String(t.board)}`);
      [this.markerId, this.boardName] = [null as never, t.board as never];
      this.name = `board ${t.board}`;
    } else {
      if (!Number.isInteger(t) || t < 0) throw new InvalidOptionError(`MarkerAnchor: markerId must be a non-negative integer, got ${String(t)}`);
      [this.markerId, this.boardName] = [t as never, null as never];
      this.name = dictionary === undefined ? `marker ${t}` : `marker ${t} ${dictionary}`;
    }
    // The pose is the whole transform: three.js must not rebuild it from position / rotation / scale.
    this.matrixAutoUpdate = false;
    this.visible = false;
  }

  /** Follows this frame's poses (a `pose()` result): placed and shown while found, hidden when lost. */
  follow(poses: PoseResults): void {
    const mine = (m: MarkerPose) => m.id === this.markerId && (this.dictionary === null || m.dictionary.toUpperCase() === this.dictionary);
    const p = ((this.boardName === null ? poses.markers.find(mine) : poses.boards?.find((b) => b.board === this.boardName)) ?? null) as P | null;
    const wasShown = this.pose !== null;
    this.pose = p;
    if (p) {
      poseMatrix(p, this.matrix);
      this.matrixWorldNeedsUpdate = true;
      this.visible = true;
      if (!wasShown) this.#found.next(p);
      this.#update.next(p);
    } else if (wasShown) {
      this.visible = false;
      this.#lost.next();
    }
  }

  /** Completes the observables; the anchor's children are the caller's to dispose. */
  override dispose(): void {
    // Object3D's own dispose tells its listeners.
    super.dispose();
    this.#found.complete();
    this.#lost.complete();
    this.#update.complete();
  }
}
