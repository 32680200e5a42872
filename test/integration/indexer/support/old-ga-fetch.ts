/**
 * @module The fetch of a populator before issue 88's fix, for the tests of the upgrade's repair (migration 1142): what
 * it stored of a GAMetaTx whose inner transaction failed.
 */
import { isJsonObject } from '../../../../src/chain/json.ts';
import { contractTx } from '../../../../src/indexer/contracts/contract-decoder.ts';
import type { FetchedGeneration, JsonObject } from '../../../../src/indexer/rows/rows.ts';
import { FetchAhead } from '../../../../src/indexer/sync/fetch-ahead.ts';
import type { FetchOptions } from '../../../../src/indexer/sync/fetch.ts';

/** failedGa is the GA call of an info whose inner transaction failed (ga-outcome.ts), else undefined. */
function failedGa(info: JsonObject): JsonObject | undefined {
  const ga = info.ga_info;
  return isJsonObject(ga) && ga.return_type === 'error' ? ga : undefined;
}

/**
 * OldFetch fetches generations as a populator before the fix did: a failed inner transaction's GA info is not handed
 * to the transform (which then takes every level as done), and a failed inner call's row takes the GA's own call info.
 */
export class OldFetch extends FetchAhead {
  override async fetch(
    heights: readonly number[],
    concurrency: number,
    maxTransactions: number,
    opts?: FetchOptions,
  ): Promise<FetchedGeneration[]> {
    return (await super.fetch(heights, concurrency, maxTransactions, opts)).map((gen) => {
      const gaInfos = new Map(gen.gaInfos);
      const callInfos = new Map(gen.callInfos);
      for (const mb of gen.microBlocks)
        for (const signed of mb.transactions) {
          const hash = String(signed.hash);
          const ga = failedGa(gaInfos.get(hash) ?? {});
          if (!ga) continue;
          gaInfos.delete(hash);
          if (contractTx(signed.tx as JsonObject)) callInfos.set(hash, ga);
        }
      return { ...gen, gaInfos, callInfos };
    });
  }
}
