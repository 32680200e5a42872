/** @module The mdw-source payloads of ae_mdw's websocket, read from the database in /v3's shapes. */
import { keyBlockJson, microBlockJson } from '../shapes/v3/render-blocks.ts';
import { signedTx } from '../chain/signed-tx.ts';
import { transactionJson } from '../shapes/v3/render-tx.ts';
import type { Queryable } from '../db/pool.ts';
import { keyBlockCounted, microBlockCounted } from '../db/queries/blocks.ts';
import { transactionByHash } from '../db/queries/transactions.ts';
import { txisBefore } from '../db/queries/txis.ts';
import { v2TransactionJson, type MdwRenderer } from './mdw-hub.ts';

/** mdwRenderer reads KeyBlocks, MicroBlocks and Transactions payloads as /v3 answers them (v2 adds the tx index). */
export function mdwRenderer(db: Queryable): MdwRenderer {
  return {
    async keyBlock(hash) {
      const k = await keyBlockCounted(db, { hash });
      return k && keyBlockJson(k);
    },
    async microBlock(hash) {
      const m = await microBlockCounted(db, hash);
      return m && microBlockJson(m);
    },
    async transaction(hash, microBlock) {
      const t = await transactionByHash(db, hash);
      // a fork moved it to another block (or dropped it) since the event was read: the event's block is gone
      if (!t || t.microBlockHash !== microBlock) return undefined;
      const before = await txisBefore(db, t.height, t.microIndex);
      return {
        v3: transactionJson(t),
        v2: v2TransactionJson(signedTx(t), {
          txIndex: before + t.txIndex,
          microIndex: t.microIndex,
          microTime: Number(t.microTimeMs),
        }),
      };
    },
  };
}
