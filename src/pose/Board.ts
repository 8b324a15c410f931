/**
 * A board: several markers printed on one rigid object, each marker's four corners known in the board's frame, so
 * that one pose comes from every marker seen (boardPose.ts) — steadier than any single marker's, and kept while most
 * of the board is hidden. `gridBoard()` lays markers out as OpenCV's `aruco.GridBoard` does (same ids, same corner
 * coordinates: a board printed for OpenCV gives the same pose here); `board()` takes any layout.
 */
import { InvalidOptionError } from '../core/errors.js';
import type { Vec3 } from './rotation.js';

export interface BoardMarker {
  id: number;
  /** The marker's outer corners in the board's frame, in `ippeSquare`'s order: top-left, top-right, bottom-right, bottom-left as printed. */
  corners: [Vec3, Vec3, Vec3, Vec3];
}

export interface Board {
  /** How results and anchors name it. */
  name: string;
  markers: readonly BoardMarker[];
  /** The markers' dictionary, by name: only its markers are the board's. Without it, a marker of one of the board's ids in any dictionary. */
  dictionary?: string;
}

export interface GridBoardOptions {
  name?: string;
  /** Markers across and down. */
  columns: number;
  rows: number;
  /** A marker's printed side and the gap between neighbours, in the unit wanted for the translations. */
  markerSize: number;
  separation: number;
  /** Ids row by row from the top-left marker: `ids`, or `firstId`, `firstId` + 1, … (default 0). */
  firstId?: number;
  ids?: readonly number[];
  /** The markers' dictionary (see `Board`). */
  dictionary?: string;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Markers in `rows` × `columns`, ids row by row from the top-left as printed. The board's frame is OpenCV's
 * GridBoard's (4.6 and later): origin at the top-left corner of the top-left marker, x to the right and y down as
 * printed, so z points into the board, away from whoever sees it — an object standing on the board has negative z.
 */
export function gridBoard(options: GridBoardOptions): Board {
  const { columns, rows, markerSize, separation } = options ?? ({} as GridBoardOptions);
  if (!Number.isInteger(columns) || !Number.isInteger(rows) || columns < 1 || rows < 1) throw new InvalidOptionError(`gridBoard: columns and rows must be positive integers, got ${columns} × ${rows}`);
  if (!finite(markerSize) || markerSize <= 0 || !finite(separation) || separation < 0) throw new InvalidOptionError(`gridBoard: markerSize must be > 0 and separation >= 0, got ${markerSize} and ${separation}`);
  const firstId = options.firstId ?? 0;
  const ids = options.ids ?? Array.from({ length: columns * rows }, (_, i) => firstId + i);
  if (ids.length !== columns * rows) throw new InvalidOptionError(`gridBoard: ${columns} × ${rows} markers need ${columns * rows} ids, got ${ids.length}`);
  const step = markerSize + separation;
  const markers: BoardMarker[] = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      const [x0, y0] = [x * step, y * step];
      markers.push({
        id: ids[y * columns + x],
        corners: [
          [x0, y0, 0],
          [x0 + markerSize, y0, 0],
          [x0 + markerSize, y0 + markerSize, 0],
          [x0, y0 + markerSize, 0],
        ],
      });
    }
  }
  return board({ name: options.name ?? `grid ${columns}x${rows} from ${ids[0]}`, markers, ...(options.dictionary === undefined ? {} : { dictionary: options.dictionary }) });
}

/** A board of any layout, checked: distinct non-negative integer ids, each marker a square (within 0.1 %). */
export function board(spec: Board): Board {
  if (!spec || typeof spec.name !== 'string' || !spec.name || !Array.isArray(spec.markers) || spec.markers.length === 0) {
    throw new InvalidOptionError('board: needs a name and at least one marker { id, corners }');
  }
  if (spec.dictionary !== undefined && (typeof spec.dictionary !== 'string' || !spec.dictionary)) throw new InvalidOptionError(`board '${spec.name}': dictionary must be a dictionary's name, got ${String(spec.dictionary)}`);
  const ids = new Set<number>();
  const markers = spec.markers.map((m) => {
    if (!Number.isInteger(m?.id) || m.id < 0 || ids.has(m.id)) throw new InvalidOptionError(`board '${spec.name}': marker ids must be distinct non-negative integers, got ${String(m?.id)}`);
    ids.add(m.id);
    const c = m.corners;
    if (!Array.isArray(c) || c.length !== 4 || c.some((p) => !Array.isArray(p) || p.length !== 3 || !p.every(finite))) {
      throw new InvalidOptionError(`board '${spec.name}': marker ${m.id} needs four [x, y, z] corners`);
    }
    const sides = [0, 1, 2, 3].map((i) => distance(c[i], c[(i + 1) % 4]));
    const diagonals = [distance(c[0], c[2]), distance(c[1], c[3])];
    const side = sides[0];
    if (!(side > 0) || sides.some((s) => Math.abs(s - side) > 1e-3 * side) || diagonals.some((d) => Math.abs(d - side * Math.SQRT2) > 1e-3 * side)) {
      throw new InvalidOptionError(`board '${spec.name}': marker ${m.id}'s corners are not a square`);
    }
    return { id: m.id, corners: c.map((p) => [p[0], p[1], p[2]]) as BoardMarker['corners'] };
  });
  return { name: spec.name, markers, ...(spec.dictionary === undefined ? {} : { dictionary: spec.dictionary }) };
}

/** The side of a board's marker. */
export function markerSide(m: BoardMarker): number {
  return distance(m.corners[0], m.corners[1]);
}

function distance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
