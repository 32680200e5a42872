/** @module Response shapes of the original middleware and the node, built from stored rows. Pure. */
import { isJsonObject, type Json } from '../chain/json.ts';
import { signedTx } from '../chain/signed-tx.ts';
import type { KeyBlockRow, MicroBlockRow } from '../db/queries/blocks.ts';
import type { TransactionRow } from '../db/queries/transactions.ts';

/**
 * generationsReport is the original's `/middleware/generations` body: generations keyed by height,
 * micro blocks keyed by hash, transactions keyed by hash. The key block nonce is an exact string,
 * as the original sent it.
 */
export function generationsReport(
  kbs: readonly KeyBlockRow[],
  micro: readonly MicroBlockRow[],
  txs: readonly TransactionRow[],
): Json {
  const txsByBlock = new Map<string, Record<string, Json>>();
  for (const t of txs) {
    const bucket = txsByBlock.get(t.microBlockHash) ?? {};
    bucket[t.hash] = signedTx(t);
    txsByBlock.set(t.microBlockHash, bucket);
  }
  const microByHeight = new Map<number, Record<string, Json>>();
  for (const m of micro) {
    const bucket = microByHeight.get(m.height) ?? {};
    const header = isJsonObject(m.header) ? { ...m.header } : {};
    delete header.height;
    bucket[m.hash] = { ...header, transactions: txsByBlock.get(m.hash) ?? {} };
    microByHeight.set(m.height, bucket);
  }
  const data: Record<string, Json> = {};
  for (const kb of kbs) {
    const block = isJsonObject(kb.data) ? { ...kb.data } : {};
    if (block.nonce !== undefined && block.nonce !== null) block.nonce = String(block.nonce);
    data[String(kb.height)] = { ...block, micro_blocks: microByHeight.get(kb.height) ?? {} };
  }
  return { total_transactions: txs.length, total_micro_blocks: micro.length, data };
}
