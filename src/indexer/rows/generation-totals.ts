/**
 * @module A batch's transactions and their bytes per generation, as generation_txis counts them on
 * (db/writes/generation-txis.ts) from the rows the writer has just stored. Pure.
 */
import type { GenerationTotals } from '../../db/writes/generation-txis.ts';
import type { GenerationRows } from './rows.ts';

/**
 * generationTotals are, per generation (ascending), its micro blocks' transaction counts summed and its transactions'
 * stored sizes summed; undefined when a generation continues a stored one (its stored rows count too) or the heights
 * skip one (a sparse reload: the stored generations between them count too).
 */
export function generationTotals(
  gens: readonly Pick<GenerationRows, 'keyBlock' | 'continuesAt' | 'microBlocks' | 'transactions'>[],
): GenerationTotals | undefined {
  const out = { heights: [] as number[], txs: [] as number[], sizes: [] as number[] };
  for (const g of gens) {
    if (g.continuesAt !== undefined || g.keyBlock.height !== gens[0]!.keyBlock.height + out.heights.length)
      return undefined;
    let txs = 0;
    for (const m of g.microBlocks) txs += m.txCount;
    let size = 0;
    for (const t of g.transactions) size += t.stored.size;
    out.heights.push(g.keyBlock.height);
    out.txs.push(txs);
    out.sizes.push(size);
  }
  return out;
}
