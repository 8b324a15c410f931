/**
 * A fiducial-marker dictionary (OpenCV's ArUco and AprilTag tables, nodes/markers/dictionaryData.ts): each
 * marker's n×n bits, and decoding of an observed bit grid into an ID and orientation with error correction that
 * never reports a wrong ID.
 *
 * Decoding compares the observed bits with every marker in its four orientations. A marker i whose nearest other
 * codeword (another marker in any orientation, or itself turned) is `distances[i]` bits away is accepted when the
 * observation is within r_i = floor((distances[i] − 1) / 2) bits of it: any two markers' balls of those radii are
 * disjoint, so an observation of marker j with at most r_j flipped bits can only decode as j. Markers that look
 * like another, or like themselves turned (distance 0), are never reported. (OpenCV's own `maxCorrectionBits` is
 * the dictionary-wide radius, and 0 for ARUCO_ORIGINAL and the AprilTag families.)
 *
 * @example
 * const dict = markerDictionary('DICT_4X4_50');
 * dict.decode(dict.bits(7)) // { id: 7, rotation: 0, distance: 0, margin: … }
 * dict.decode(grid, 1)       // correcting up to the full radius
 */
import { InvalidOptionError } from '../../src/core/errors.js';
import { dictionaryData } from './dictionaryData.js';
import { turnClockwise } from '../../src/markers/turnClockwise.js';

export type MarkerDictionaryName = keyof typeof dictionaryData;

/** The dictionaries flowmark has, as OpenCV names them. */
export const markerDictionaryNames = Object.keys(dictionaryData) as MarkerDictionaryName[];

export interface MarkerMatch {
  id: number;
  /** Quarter turns clockwise from the marker as printed to the observed grid (0..3). */
  rotation: 0 | 1 | 2 | 3;
  /** Bits that differed from the marker (corrected). */
  distance: number;
  /** Distance to the next nearest marker or orientation, less `distance`: how far from doubt the decision was. */
  margin: number;
}

/** Packs bits (0/1, at most 64) into two 32-bit words, first bit most significant. */
function pack(bits: ArrayLike<number>): [number, number] {
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < bits.length; i++) {
    hi = ((hi << 1) | (lo >>> 31)) >>> 0;
    lo = ((lo << 1) | (bits[i] ? 1 : 0)) >>> 0;
  }
  return [hi, lo];
}

function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export class MarkerDictionary {
  readonly name: MarkerDictionaryName;
  /** Bits per side inside the black border. */
  readonly markerSize: number;
  readonly count: number;
  /** Smallest distance between two markers of the dictionary in any orientation. */
  readonly minDistance: number;
  readonly #bits: Uint8Array[];
  readonly #radius: Int32Array;
  readonly #distances: Int32Array;
  /** Codeword by its packed bits (hi · 2³² + lo), the first of equal ones. */
  readonly #exact = new Map<number, number>();
  /** Per marker and orientation (4 × count), the packed bits: [hi, lo] pairs. */
  readonly #packed: Uint32Array;
  /** Per marker and orientation, its bits as seen turned. */
  readonly #turned: Uint8Array[] = [];
  /** By correction rate: the most bits any marker may have corrected, and the codewords by the value of each of that many + 1 chunks. */
  readonly #chunks = new Map<number, { most: number; tables: Map<number, number[]>[] }>();

  constructor(name: MarkerDictionaryName) {
    const data = dictionaryData[name];
    this.name = name;
    this.markerSize = data.markerSize;
    this.minDistance = data.minDistance;
    const n = data.markerSize;
    const digits = Math.ceil((n * n) / 4);
    this.count = data.count;
    // OpenCV's smaller ArUco dictionaries are the first markers of the 1000-marker one of their size.
    const codes: string = data.codes in dictionaryData ? dictionaryData[data.codes as MarkerDictionaryName].codes : data.codes;
    this.#bits = [];
    for (let i = 0; i < this.count; i++) {
      const hex = codes.slice(i * digits, (i + 1) * digits);
      const bits = new Uint8Array(n * n);
      for (let b = 0; b < n * n; b++) bits[b] = (parseInt(hex[b >> 2], 16) >> (3 - (b & 3))) & 1;
      this.#bits.push(bits);
    }
    this.#distances = Int32Array.from(data.distances);
    this.#radius = this.#distances.map((d) => Math.floor((d - 1) / 2));
    this.#packed = new Uint32Array(this.count * 8);
    this.#bits.forEach((bits, i) => {
      let turned: Uint8Array = bits;
      for (let r = 0; r < 4; r++) {
        this.#turned.push(turned);
        const [hi, lo] = pack(turned);
        this.#packed[(i * 4 + r) * 2] = hi;
        this.#packed[(i * 4 + r) * 2 + 1] = lo;
        if (!this.#exact.has(hi * 2 ** 32 + lo)) this.#exact.set(hi * 2 ** 32 + lo, i * 4 + r);
        turned = turnClockwise(turned, n);
      }
    });
  }

  /** Marker `id`'s bits as printed: n×n, row-major, 1 = white. */
  bits(id: number): Uint8Array {
    if (!Number.isInteger(id) || id < 0 || id >= this.count) throw new InvalidOptionError(`${this.name}: id must be an integer 0..${this.count - 1}, got ${id}`);
    return this.#bits[id].slice();
  }

  /** Bits a marker of this ID can have flipped and still decode as itself (−1: never decoded, it looks like another). */
  correctable(id: number): number {
    return this.#radius[id];
  }

  /**
   * The marker an observed n×n grid (row-major, 1 = white) shows, or null when it is not one beyond doubt.
   * `correctionRate` (0..1, default 0.6 as OpenCV's `errorCorrectionRate`) is the share of each marker's radius
   * used: correcting fewer bits than the radius allows turns fewer patterns that are no marker at all (clutter
   * read as a grid) into one.
   */
  decode(observed: ArrayLike<number>, correctionRate = 0.6): MarkerMatch | null {
    const n = this.markerSize;
    if (observed.length !== n * n) throw new InvalidOptionError(`${this.name}: a grid of ${n * n} bits is needed, got ${observed.length}`);
    const [hi, lo] = pack(observed);
    // A codeword read exactly (most markers are): the next nearest codeword is as far from it as its marker is from
    // any other marker or turn of itself, `distances` — what the full comparison below would find.
    const exact = this.#exact.get(hi * 2 ** 32 + lo);
    if (exact !== undefined) {
      const id = exact >> 2;
      return this.#radius[id] < 0 ? null : { id, rotation: (exact & 3) as MarkerMatch['rotation'], distance: 0, margin: this.#distances[id] };
    }
    if (!this.#mayMatch(observed, correctionRate)) return null;
    const p = this.#packed;
    let best = Infinity;
    let second = Infinity;
    let at = -1;
    for (let k = 0; k < this.count * 4; k++) {
      const d = popcount((p[2 * k] ^ hi) >>> 0) + popcount((p[2 * k + 1] ^ lo) >>> 0);
      if (d < best) {
        second = best;
        best = d;
        at = k;
      } else if (d < second) second = d;
    }
    const id = at >> 2;
    if (at < 0 || this.#radius[id] < 0 || best > Math.floor(this.#radius[id] * correctionRate)) return null;
    // The grid shows marker `id` turned (at & 3) quarter turns clockwise.
    return { id, rotation: (at & 3) as MarkerMatch['rotation'], distance: best, margin: second - best };
  }

  /**
   * False when no marker is within the bits it may have corrected, so that `decode` is null without comparing the
   * grid with every codeword (most grids read are clutter; a 1000-marker dictionary has 4000 codewords). With at most
   * t bits corrected, the grid cut into t + 1 chunks agrees with a marker it decodes as on a whole chunk, so only
   * the codewords sharing one of its chunks' values are compared; `decode` then does the full comparison, which
   * gives the same answer, and the margin, exactly as without this test.
   */
  #mayMatch(observed: ArrayLike<number>, correctionRate: number): boolean {
    const index = this.#chunkIndex(correctionRate);
    if (index.most < 0) return false;
    for (let j = 0; j < index.tables.length; j++) {
      for (const k of index.tables[j].get(chunkValue(observed, j, index.tables.length)) ?? []) {
        const radius = this.#radius[k >> 2];
        if (radius < 0) continue;
        let d = 0;
        const code = this.#turned[k];
        for (let i = 0; i < code.length; i++) d += code[i] === (observed[i] ? 1 : 0) ? 0 : 1;
        if (d <= Math.floor(radius * correctionRate)) return true;
      }
    }
    return false;
  }

  #chunkIndex(correctionRate: number): { most: number; tables: Map<number, number[]>[] } {
    let index = this.#chunks.get(correctionRate);
    if (index) return index;
    let most = -1;
    for (const r of this.#radius) most = Math.max(most, r < 0 ? -1 : Math.floor(r * correctionRate));
    const bits = this.markerSize * this.markerSize;
    const chunks = Math.min(bits, Math.max(1, most + 1));
    const tables = Array.from({ length: chunks }, () => new Map<number, number[]>());
    this.#turned.forEach((code, k) => {
      tables.forEach((table, j) => {
        const v = chunkValue(code, j, chunks);
        const list = table.get(v);
        if (list) list.push(k);
        else table.set(v, [k]);
      });
    });
    this.#chunks.set(correctionRate, (index = { most, tables }));
    return index;
  }
}

/** Chunk j of a grid cut into `chunks` runs of bits as even as can be, as a number. */
function chunkValue(bits: ArrayLike<number>, j: number, chunks: number): number {
  let v = 0;
  const end = Math.floor(((j + 1) * bits.length) / chunks);
  for (let i = Math.floor((j * bits.length) / chunks); i < end; i++) v = v * 2 + (bits[i] ? 1 : 0);
  return v;
}

const cache = new Map<MarkerDictionaryName, MarkerDictionary>();

/** A dictionary by OpenCV's name, any case (`'DICT_4X4_50'`, `'dict_apriltag_36h11'`). */
export function markerDictionary(name: string): MarkerDictionary {
  const key = typeof name === 'string' ? (name.toUpperCase() as MarkerDictionaryName) : undefined;
  if (!key || !(key in dictionaryData)) {
    throw new InvalidOptionError(`unknown marker dictionary ${JSON.stringify(name)}; one of ${markerDictionaryNames.join(', ')}`);
  }
  let d = cache.get(key);
  if (!d) cache.set(key, (d = new MarkerDictionary(key)));
  return d;
}
