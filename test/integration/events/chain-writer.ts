/** @module Test double of the populator: writes a height's rows as the schema says, commits, NOTIFYs. */
import { randomBytes } from 'node:crypto';
import { txTypeCode } from '../../../src/chain/id-key.ts';
import { Encoding, MemoryAccount, encode } from '@aeternity/aepp-sdk';
import { stringifyJson, type Json } from '../../../src/chain/json.ts';
import { withTransaction, type Pool, type Queryable } from '../../../src/db/connection/pool.ts';
import { addTxTypeTotals } from '../../../src/db/writes/tx-type-totals.ts';
import { ReorgLog } from '../../../src/indexer/sync/reorg-log.ts';
import { accountNumber } from '../../support/account-numbers.ts';
import { encodeNotification, notifyChannel, type ChainNotification } from '../../../src/db/connection/notification.ts';
import { isBinary } from '../../../src/chain/stored-tx.ts';
import { STORED_TX_COLUMNS, storedTxValues } from '../../support/stored-tx.ts';

/** TxSpec is one transaction to write: its node JSON and the ids account_transactions records for it. */
export interface TxSpec {
  readonly tx: { readonly type: string; readonly [field: string]: Json };
  /** Ids the transaction references or creates (created ids need not appear in `tx`). */
  readonly ids: readonly string[];
  readonly hash?: string;
  readonly signatures?: readonly string[] | null;
}

export interface WrittenTx {
  readonly hash: string;
  /** The transaction as a 7.x node serves it (GenericSignedTx, `encoded_tx` included). */
  readonly signed: Record<string, Json>;
}

export interface WrittenHeight {
  readonly keyBlock: Record<string, Json>;
  readonly micros: { readonly header: Record<string, Json>; readonly txs: WrittenTx[] }[];
}

/** A u64 nonce above 2^63: it must reach clients digit for digit. */
export const BIG_NONCE = 18446744073709551557n;

const miner = MemoryAccount.generate().address;

/** randomId makes a valid, checksummed id of the given kind. */
export function randomId(encoding: Encoding, size = 32): string {
  return encode(randomBytes(size), encoding);
}

/** spendTx is a SpendTx between two accounts, with an optional big payload to make it heavy. */
export function spendTx(sender: string, recipient: string, payloadBytes = 0): TxSpec {
  const payload = encode(Buffer.alloc(payloadBytes, 1), Encoding.Bytearray);
  return {
    tx: {
      type: 'SpendTx',
      version: 1,
      sender_id: sender,
      recipient_id: recipient,
      amount: 123456789012345678901234567890n,
      fee: 20000,
      nonce: 1,
      payload,
    },
    ids: [sender, recipient],
  };
}

/** writeHeight writes one generation (key block, micro blocks with their transactions) in one transaction. */
export function writeHeight(
  pool: Pool,
  height: number,
  micros: readonly (readonly TxSpec[])[],
): Promise<WrittenHeight> {
  return withTransaction(pool, (db) => writeHeightIn(db, height, micros));
}

/**
 * forkFrom replaces every height from `height` up with `count` new generations of one spend each, in one transaction
 * that logs what it dropped, as the populator's rollback does (without a notification).
 */
export function forkFrom(pool: Pool, height: number, count: number): Promise<WrittenHeight[]> {
  return withTransaction(pool, async (db) => {
    const log = await ReorgLog.before(db, { from: height });
    await db.query('DELETE FROM key_blocks WHERE height >= $1', [height]);
    const written: WrittenHeight[] = [];
    for (let h = height; h < height + count; h++)
      written.push(
        await writeHeightIn(db, h, [[spendTx(MemoryAccount.generate().address, MemoryAccount.generate().address)]]),
      );
    // the new blocks' hashes are random: every one stored before is dropped
    await log.record(db, []);
    return written;
  });
}

async function writeHeightIn(
  db: Queryable,
  height: number,
  micros: readonly (readonly TxSpec[])[],
): Promise<WrittenHeight> {
  const time = 1_700_000_000_000 + height * 180_000;
  const keyHash = randomId(Encoding.KeyBlockHash);
  const keyBlock: Record<string, Json> = {
    beneficiary: miner,
    hash: keyHash,
    height,
    info: 'cb_AAAAAfy4hFE=',
    miner,
    nonce: BIG_NONCE,
    pow: Array.from({ length: 42 }, (_, i) => i * 1000),
    prev_hash: randomId(Encoding.KeyBlockHash),
    prev_key_hash: randomId(Encoding.KeyBlockHash),
    state_hash: randomId(Encoding.BlockStateHash),
    target: 522133279,
    time,
    version: 5,
  };
  const written: WrittenHeight = { keyBlock, micros: [] };
  await db.query(
    `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`,
    [height, keyHash, keyBlock.prev_hash, keyBlock.prev_key_hash, miner, miner, time, stringifyJson(keyBlock)],
  );
  for (const [microIndex, txs] of micros.entries()) {
    const microHash = randomId(Encoding.MicroBlockHash);
    const microTime = time + (microIndex + 1) * 3000;
    const header: Record<string, Json> = {
      hash: microHash,
      height,
      pof_hash: 'no_fraud',
      prev_hash: keyHash,
      prev_key_hash: keyHash,
      signature: randomId(Encoding.Signature, 64),
      state_hash: randomId(Encoding.BlockStateHash),
      time: microTime,
      txs_hash: randomId(Encoding.BlockTxHash),
      version: 5,
    };
    await db.query(
      'INSERT INTO micro_blocks (hash, height, micro_index, time_ms, tx_count, header) VALUES ($1, $2, $3, $4, $5, $6::jsonb)',
      [microHash, height, microIndex, microTime, txs.length, stringifyJson(header)],
    );
    const writtenTxs: WrittenTx[] = [];
    for (const [txIndex, spec] of txs.entries()) {
      const hash = spec.hash ?? randomId(Encoding.TxHash);
      const signatures = spec.signatures === undefined ? [randomId(Encoding.Signature, 64)] : spec.signatures;
      const values = storedTxValues(spec.tx, signatures, 200);
      await db.query(
        `INSERT INTO transactions (hash, height, micro_index, tx_index, micro_time_ms, tx_type, fee, ${STORED_TX_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [hash, height, microIndex, txIndex, microTime, txTypeCode(String(spec.tx.type)), '20000', ...values],
      );
      // as the writer adds its transactions to their type's totals (migration 1154)
      await addTxTypeTotals(db, [{ code: txTypeCode(String(spec.tx.type)), n: 1, size: 200 }]);
      for (const id of new Set(spec.ids)) {
        await db.query(
          `INSERT INTO account_transactions (account, height, micro_index, tx_index, tx_type, fields)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [await accountNumber(db, id), height, microIndex, txIndex, txTypeCode(String(spec.tx.type)), 'tx'],
        );
      }
      const signed: Record<string, Json> = { block_hash: microHash, block_height: height, hash };
      // a 7.x node sends the signed transaction's bytes as encoded_tx: those stored, where they are (not a JSON form)
      const stored = values[0] as Buffer;
      if (isBinary(stored)) signed.encoded_tx = encode(stored, Encoding.Transaction);
      if (signatures !== null) signed.signatures = [...signatures];
      signed.tx = spec.tx;
      writtenTxs.push({ hash, signed });
    }
    written.micros.push({ header, txs: writtenTxs });
  }
  return written;
}

/** deleteFrom removes heights >= height (key_blocks' delete trigger takes their rows), as the populator does on a fork. */
export async function deleteFrom(pool: Pool, height: number): Promise<void> {
  await pool.query('DELETE FROM key_blocks WHERE height >= $1', [height]);
}

/** notify sends the populator's notification for committed heights. */
export async function notify(pool: Pool, schema: string, n: ChainNotification): Promise<void> {
  await pool.query('SELECT pg_notify($1, $2)', [notifyChannel(schema), encodeNotification(n)]);
}

/** TestPopulator writes heights one after the other, each committed then notified. */
export interface TestPopulator {
  /** commit writes the next height with the given micro blocks and sends its notification. */
  commit(micros?: readonly (readonly TxSpec[])[]): Promise<WrittenHeight>;
  /** height is the last height written. */
  readonly height: number;
}

/** createPopulator starts writing at `firstHeight`. */
export function createPopulator(pool: Pool, schema: string, firstHeight: number): TestPopulator {
  let height = firstHeight - 1;
  return {
    async commit(micros = []) {
      height += 1;
      const written = await writeHeight(pool, height, micros);
      await notify(pool, schema, { from: height, to: height });
      return written;
    },
    get height() {
      return height;
    },
  };
}
