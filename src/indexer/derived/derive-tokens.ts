/**
 * @module The token area (AEX-N contracts, AEX-9 events, AEX-141 events, DEX pairs and swaps) of stored heights,
 * derived from the stored transactions and call infos as the populator derives a fetched batch's: the stored rows
 * stand in for the generations (storedGenerations), the detector reads each new contract's code (stored, or asked
 * of the node once for a contract created inside a call) and dry-runs its meta info at its creation block. No
 * block is fetched again.
 */
import { isJsonObject, type Json } from '../../chain/json.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { insertAex141Events } from '../../db/writes/aex141.ts';
import { writeAexnRows } from '../../db/writes/aexn.ts';
import type { AexnRows } from '../../db/writes/token-rows.ts';
import { deleteTokenRows, storedContractTxs, type StoredContractTx } from '../../db/writes/derive-backfill.ts';
import { aex141Candidates } from './aex141-events.ts';
import type { AexnDetector } from '../contracts/aexn-detector.ts';
import { aexnRows } from '../rows/aexn-rows.ts';
import { createdContractCode } from '../contracts/contract-decoder.ts';
import { DEX_TABLES, dexRows } from './dex-tables.ts';
import type { ContractCallRow, FetchedGeneration, GenerationRows, JsonObject } from '../rows/rows.ts';
import { writeTableRows } from '../rows/writer.ts';
import { settleAex9, type Aex9Settling } from './aex9-state.ts';

/** What a position holds that is not a contract tx: nothing any token derivation reads. */
const OTHER_TX: JsonObject = { hash: '', tx: {} };

/**
 * storedGenerations rebuilds, from stored contract txs (chain order), the generations the token derivations read:
 * each micro block's transactions at their indexes (other positions hold a placeholder) and the call infos. Pure.
 */
export function storedGenerations(txs: readonly StoredContractTx[]): FetchedGeneration[] {
  const gens = new Map<
    number,
    { blocks: Map<number, { hash: string; txs: JsonObject[] }>; infos: Map<string, JsonObject> }
  >();
  for (const t of txs) {
    let gen = gens.get(t.height);
    if (!gen) gens.set(t.height, (gen = { blocks: new Map(), infos: new Map() }));
    let block = gen.blocks.get(t.microIndex);
    if (!block) gen.blocks.set(t.microIndex, (block = { hash: t.microBlockHash, txs: [] }));
    while (block.txs.length < t.txIndex) block.txs.push(OTHER_TX);
    block.txs.push({ hash: t.hash, tx: t.tx });
    if (isJsonObject(t.call?.callInfo)) gen.infos.set(t.hash, t.call.callInfo);
  }
  return [...gens].map(([height, gen]) => {
    const last = Math.max(...gen.blocks.keys());
    const microBlocks = Array.from({ length: last + 1 }, (_, i) => {
      const block = gen.blocks.get(i);
      return { header: { hash: block?.hash ?? '' }, transactions: block?.txs ?? [] };
    });
    return { height, keyBlock: { height }, microBlocks, callInfos: gen.infos, decodedCalls: new Map() };
  });
}

/** callRows are the stored calls as the event readers take them (their call info and place). Pure. */
function callRows(txs: readonly StoredContractTx[]): ContractCallRow[] {
  return txs.flatMap((t) =>
    t.call
      ? [
          {
            height: t.height,
            microIndex: t.microIndex,
            txIndex: t.txIndex,
            txHash: t.hash,
            contractId: t.call.contractId,
            callerId: t.call.callerId,
            function: null,
            arguments: null,
            callInfo: isJsonObject(t.call.callInfo) ? t.call.callInfo : null,
            callInfoPruned: false,
            result: null as Json | null,
            decodeError: null,
          },
        ]
      : [],
  );
}

/**
 * writeTokenRows writes the token rows of heights from..to: the AEX-N contracts found and the AEX-9 events (`aexn`),
 * the state of the AEX-9 tokens those events cannot explain, then, after the contracts, the AEX-141 events and DEX
 * pairs and swaps read from the calls' logs.
 */
export async function writeTokenRows(
  db: Queryable,
  heights: { readonly from: number; readonly to: number },
  aexn: readonly AexnRows[],
  calls: readonly ContractCallRow[],
  settling: Aex9Settling | undefined,
): Promise<void> {
  await writeAexnRows(db, aexn);
  await settleAex9(
    db,
    settling,
    heights,
    calls.map((c) => c.contractId),
  );
  await insertAex141Events(db, aex141Candidates(calls));
  const dex = dexRows(calls, new Set(aexn.flatMap((a) => a.dexFactories)));
  const [pairs, swaps] = DEX_TABLES;
  await writeTableRows(db, pairs, dex.pairs);
  await writeTableRows(db, swaps, dex.swaps);
}

/** deriveBatchTokens writes the token rows of a batch just written (the loader's transaction, through the derived areas). */
export async function deriveBatchTokens(
  db: Queryable,
  gens: readonly GenerationRows[],
  settling: Aex9Settling | undefined,
): Promise<void> {
  await writeTokenRows(
    db,
    { from: gens[0]!.keyBlock.height, to: gens.at(-1)!.keyBlock.height },
    gens.map((g) => g.aexn),
    gens.flatMap((g) => g.contractCalls),
    settling,
  );
}

/**
 * deriveStoredTokens replaces the token rows of heights from..to, derived from their stored contract txs; `onRead` hears
 * of each token read from its contract's state. `rule` reads
 * a generation's AEX-N rows: the product's always; a test gives a wrong one, which `mdw -v --full` must find.
 */
export async function deriveStoredTokens(
  db: Queryable,
  detector: AexnDetector,
  from: number,
  to: number,
  onRead?: Aex9Settling['onRead'],
  rule: (gen: FetchedGeneration) => AexnRows = aexnRows,
): Promise<void> {
  const txs = await storedContractTxs(db, from, to);
  const gens = storedGenerations(txs);
  const found = await detector.detect(
    gens,
    createdContractCode(gens.flatMap((g) => g.microBlocks.flatMap((m) => m.transactions))),
  );
  await deleteTokenRows(db, from, to);
  await writeTokenRows(db, { from, to }, found.map(rule), callRows(txs), { reader: detector, onRead });
}
