/**
 * Several dictionaries of one marker size read as one: a grid decodes to the match with the fewest corrected bits
 * over all of them, the first listed on a tie (OpenCV's smaller ArUco dictionaries are the first markers of the
 * larger, so a marker can be valid in two), and the match names its dictionary.
 */

/** A decoder by name: `MarkerDictionary` is one (src/ does not import the operators). */
export interface NamedDecoder {
  readonly name: string;
  readonly markerSize: number;
  decode(grid: ArrayLike<number>, correctionRate?: number): { id: number; rotation: 0 | 1 | 2 | 3; distance: number; margin: number } | null;
}

export type NamedMatch = NonNullable<ReturnType<NamedDecoder['decode']>> & { dictionary: string };

export interface AnyDictionary {
  readonly markerSize: number;
  decode(grid: ArrayLike<number>, correctionRate?: number): NamedMatch | null;
}

export function anyDictionary(decoders: readonly NamedDecoder[]): AnyDictionary {
  const markerSize = decoders[0].markerSize;
  if (decoders.some((d) => d.markerSize !== markerSize)) throw new Error('anyDictionary: dictionaries of one marker size only');
  return {
    markerSize,
    decode(grid, correctionRate) {
      let best: NamedMatch | null = null;
      for (const d of decoders) {
        const m = d.decode(grid, correctionRate);
        if (m && (!best || m.distance < best.distance)) best = { ...m, dictionary: d.name };
      }
      return best;
    },
  };
}

/** The dictionaries grouped by marker size, sizes in the order they first appear. */
export function bySize<T extends NamedDecoder>(decoders: readonly T[]): AnyDictionary[] {
  const sizes = [...new Set(decoders.map((d) => d.markerSize))];
  return sizes.map((n) => anyDictionary(decoders.filter((d) => d.markerSize === n)));
}
