/** @module The mdw-source payloads of ae_mdw's websocket, read from the database in /v3's shapes. */
import { keyBlockJson, microBlockJson } from '../shapes/v3/render-blocks.ts';
import { signedTx } from '../chain/signed-tx.ts';
import { transactionJson } from '../shapes/v3/render-tx.ts';
import type { Queryable } from '../db/pool.ts';
import { keyBlockCounted, keyBlocksPage, microBlockCounted } from '../db/queries/blocks.ts';
import { transactionByHash, transactionsByHashes, type TxRow } from '../db/queries/transactions.ts';
import { txisBefore } from '../db/queries/txis.ts';
import { v2TransactionJson, type MdwRenderer, type MdwTxPayloads } from './mdw-hub.ts';

/** txPayloads renders a stored transaction in both socket shapes; `before` counts the transactions of earlier micro blocks. */
function txPayloads(t: TxRow, before: number): MdwTxPayloads {
  return {
    v3: transactionJson(t),
    v2: v2TransactionJson(signedTx(t), {
      txIndex: before + t.txIndex,
      microIndex: t.microIndex,
      microTime: Number(t.microTimeMs),
    }),
  };
}

/** mdwRenderer reads KeyBlocks, MicroBlocks and Transactions payloads as /v3 answers them (v2 adds the tx index). */
export function mdwRenderer(db: Queryable): MdwRenderer {
  return {
    async keyBlock(hash) {
      const k = await keyBlockCounted(db, { hash });
      return k && keyBlockJson(k);
    },
    async keyBlocks(from, to) {
      const rows = await keyBlocksPage(db, 'forward', undefined, to - from + 1, { first: from, last: to });
      return new Map(rows.map((k) => [String(k.data.hash), keyBlockJson(k)]));
    },
    async microBlock(hash) {
      const m = await microBlockCounted(db, hash);
      return m && microBlockJson(m);
    },
    async transaction(hash, microBlock) {
      const t = await transactionByHash(db, hash);
      // a fork moved it to another block (or dropped it) since the event was read: the event's block is gone
      if (!t || t.microBlockHash !== microBlock) return undefined;
      return txPayloads(t, await txisBefore(db, t.height, t.microIndex));
    },
    async transactions(refs) {
      const rows = await transactionsByHashes(
        db,
        refs.map((r) => r.hash),
      );
      // the transactions stored before each micro block, read once per micro block
      const before = new Map<string, number>();
      const payloads = new Map<string, MdwTxPayloads>();
      for (const { hash, microBlock } of refs) {
        const t = rows.get(hash);
        if (!t || t.microBlockHash !== microBlock) continue;
        const micro = `${t.height}:${t.microIndex}`;
        let count = before.get(micro);
        if (count === undefined) before.set(micro, (count = await txisBefore(db, t.height, t.microIndex)));
        payloads.set(hash, txPayloads(t, count));
      }
      return payloads;
    },
  };
}
