/** The labeling algorithms `label()` offers, by name, and what `'auto'` picks. */
import type { LabelingAlgorithm } from './LabelingAlgorithm.js';
import { shibata } from './shibata.js';
import { buf, c2fl, ha4, tiles, unionFind } from './directAlgorithms.js';

export const labelAlgorithms = ['shibata', 'union-find', 'buf', 'ha4', 'c2fl', 'tiles'] as const;
export type LabelAlgorithm = (typeof labelAlgorithms)[number];

// Each record has buffers of its own type; `label()` only hands a record's buffers back to that record.
const erase = <Own>(a: LabelingAlgorithm<Own>) => a as unknown as LabelingAlgorithm<unknown>;

export const algorithms: Readonly<Record<LabelAlgorithm, LabelingAlgorithm<unknown>>> = {
  shibata: erase(shibata),
  'union-find': erase(unionFind),
  buf: erase(buf),
  ha4: erase(ha4),
  c2fl: erase(c2fl),
  tiles: erase(tiles),
};

/**
 * What `algorithm: 'auto'` picks. The labeling benchmark (BENCHMARKS.md#labeling) measured c2fl fastest on average
 * over densities at every granularity, at 2048×2048 and at 1280×720 (block union-find is a little faster on some
 * fine-grained mid densities), and it is exact for any image with a fixed number of
 * dispatches, so it is the choice on every device and frame size until a measurement says otherwise.
 */
export function autoAlgorithm(): LabelAlgorithm {
  return 'c2fl';
}
