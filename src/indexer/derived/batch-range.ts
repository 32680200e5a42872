/** @module The stored heights a batch just written covers, as the areas that ask the node per range take them. Pure. */
import type { HeightRange } from '../../db/queries/height-range.ts';
import type { GenerationRows } from '../rows/rows.ts';

/** batchRange is the range of a batch (ascending generations; the first may continue a stored one). */
export function batchRange(gens: readonly GenerationRows[]): HeightRange {
  const first = gens[0]!;
  return { from: first.keyBlock.height, to: gens.at(-1)!.keyBlock.height, fromMicro: first.continuesAt ?? -1 };
}
