/**
 * A ChArUco board: a chessboard whose white squares hold markers, laid out as OpenCV's `aruco.CharucoBoard` (4.6 and
 * later): the top-left square black, markers on the white squares row by row from the top-left (ids 0, 1, … or
 * `ids`), each centred in its square; the chessboard's inner corners numbered row by row from the top-left, corner
 * k of `squaresX - 1` per row at ((k mod (squaresX − 1)) + 1, ⌊k / (squaresX − 1)⌋ + 1) squares. The frame is
 * OpenCV's: origin at the board's top-left corner, x to the right and y down as printed, z into the board.
 * The markers make it a `Board` (pose from the markers alone); each inner corner also names the markers whose
 * squares touch it (the two white squares of the four round it), where its place is looked for in an image.
 */
import { InvalidOptionError } from '../core/errors.js';
import { board, type Board, type BoardMarker } from './Board.js';
import type { Vec3 } from './rotation.js';

export interface CharucoBoardOptions {
  name?: string;
  /** Squares across and down (each at least 2). */
  squaresX: number;
  squaresY: number;
  /** A square's side and a marker's printed side (smaller), in the unit wanted for the translations. */
  squareLength: number;
  markerLength: number;
  /** The markers' dictionary, by name as OpenCV spells it. */
  dictionary: string;
  /** The markers' ids row by row from the top-left, one per white square (default 0, 1, …). */
  ids?: readonly number[];
}

export interface CharucoCorner {
  /** Its index: row by row from the top-left inner corner. */
  id: number;
  at: Vec3;
  /** Ids of the markers whose squares touch this corner. */
  markers: readonly number[];
}

export interface CharucoBoard extends Board {
  readonly dictionary: string;
  readonly squaresX: number;
  readonly squaresY: number;
  readonly squareLength: number;
  readonly markerLength: number;
  /** The chessboard's inner corners, (squaresX − 1) × (squaresY − 1), by id. */
  readonly corners: readonly CharucoCorner[];
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function charucoBoard(options: CharucoBoardOptions): CharucoBoard {
  const { squaresX, squaresY, squareLength, markerLength, dictionary } = options ?? ({} as CharucoBoardOptions);
  if (!Number.isInteger(squaresX) || !Number.isInteger(squaresY) || squaresX < 2 || squaresY < 2) {
    throw new InvalidOptionError(`charucoBoard: squaresX and squaresY must be integers of at least 2, got ${squaresX} × ${squaresY}`);
  }
  if (!finite(squareLength) || !finite(markerLength) || !(markerLength > 0) || !(markerLength < squareLength)) {
    throw new InvalidOptionError(`charucoBoard: markerLength must be > 0 and less than squareLength, got ${markerLength} and ${squareLength}`);
  }
  if (typeof dictionary !== 'string' || !dictionary) throw new InvalidOptionError('charucoBoard: dictionary (its name) is required');
  const white = Math.floor((squaresX * squaresY) / 2);
  const ids = options.ids ?? Array.from({ length: white }, (_, i) => i);
  if (ids.length !== white) throw new InvalidOptionError(`charucoBoard: ${squaresX} × ${squaresY} squares hold ${white} markers, got ${ids.length} ids`);
  const inset = (squareLength - markerLength) / 2;
  const markerAt = new Map<string, number>();
  const markers: BoardMarker[] = [];
  for (let y = 0; y < squaresY; y++) {
    for (let x = 0; x < squaresX; x++) {
      if ((x + y) % 2 === 0) continue; // black
      const id = ids[markers.length];
      markerAt.set(`${x},${y}`, id);
      const [x0, y0] = [x * squareLength + inset, y * squareLength + inset];
      markers.push({ id, corners: [[x0, y0, 0], [x0 + markerLength, y0, 0], [x0 + markerLength, y0 + markerLength, 0], [x0, y0 + markerLength, 0]] as [Vec3, Vec3, Vec3, Vec3] });
    }
  }
  const checked = board({ name: options.name ?? `charuco ${squaresX}x${squaresY} ${dictionary}`, markers, dictionary });
  const corners: CharucoCorner[] = [];
  for (let y = 1; y < squaresY; y++) {
    for (let x = 1; x < squaresX; x++) {
      // The four squares round the corner: two of them white, on one diagonal.
      const touching = [[x - 1, y - 1], [x, y - 1], [x - 1, y], [x, y]].map(([a, b]) => markerAt.get(`${a},${b}`)).filter((m): m is number => m !== undefined);
      corners.push({ id: corners.length, at: [x * squareLength, y * squareLength, 0], markers: touching });
    }
  }
  return { ...checked, dictionary, squaresX, squaresY, squareLength, markerLength, corners };
}
