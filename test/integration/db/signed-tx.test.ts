/**
 * @module Pins the SQL twin of GenericSignedTx (db/queries/transactions.ts) equal to chain/signed-tx.ts
 * for every transaction type, GAMetaTx (no signatures) included, on every read path that serves it.
 */
import { expect } from 'chai';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { signedTx } from '../../../src/chain/signed-tx.ts';
import { TX_SCHEMAS } from '../../../src/chain/tx-schema.ts';
import { TX_TYPE_CODES, txTypeCode } from '../../../src/chain/id-key.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import {
  microBlockTransactionsJson,
  transactionByHash,
  transactionJson,
  transactionsInInterval,
} from '../../../src/db/queries/transactions.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';
import { STORED_TX_COLUMNS, storedTxValues } from '../../support/stored-tx.ts';

// every type the serialiser knows, and the one it does not (its `update` is stored as the node's JSON)
const TYPES = [...new Set([...TX_SCHEMAS.map((s) => s.type), 'ChannelForceProgressTx'])];
const HEIGHT = 7;
const MICRO = 'mh_signed_tx_test';

describe('GenericSignedTx in SQL and in TypeScript (PostgreSQL)', () => {
  let db: { pool: Pool; drop(): Promise<void> };
  before(async () => {
    db = await createMigratedDatabase('mdw');
    const q = (sql: string, values: unknown[]) => db.pool.query(sql, values);
    await q(
      `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
       VALUES ($1, 'kh_7', 'kh_6', 'kh_6', 'ak_b', 'ak_m', 1, '{}')`,
      [HEIGHT],
    );
    await q(
      `INSERT INTO micro_blocks (hash, height, micro_index, time_ms, tx_count, header) VALUES ($1, $2, 0, 2, $3, '{}')`,
      [MICRO, HEIGHT, TYPES.length],
    );
    for (const [i, type] of TYPES.entries()) {
      // the indexer stores null where the node prints no signatures: a GAMetaTx
      const signatures = type === 'GAMetaTx' ? null : [`sg_${i}a`, `sg_${i}b`];
      const tx = `{"type":"${type}","version":1,"fee":20000000000000000001,"nonce":18446744073709551557}`;
      await q(
        `INSERT INTO transactions (hash, height, micro_index, tx_index, micro_time_ms, tx_type, fee, ${STORED_TX_COLUMNS})
         VALUES ($1, $2, 0, $3, 2, $4, 20000000000000000001, $5, $6, $7, $8, $9)`,
        [`th_${type}`, HEIGHT, i, txTypeCode(type), ...storedTxValues(parseJson(tx), signatures, 100)],
      );
    }
  });
  after(() => db.drop());

  it('stores every type as its code and names it back as src/chain/id-key.ts does', async () => {
    const { rows } = await db.pool.query<{ code: number; name: string | null }>(
      'SELECT c.code, tx_type_name(c.code::smallint) AS name FROM unnest($1::int[]) AS c(code)',
      [TX_TYPE_CODES.map(([, code]) => code)],
    );
    expect(rows.map((r) => [r.name, r.code])).to.deep.equal(TX_TYPE_CODES.map(([type, code]) => [type, code]));
    const stored = await db.pool.query<{ type: string; code: number }>(
      'SELECT tx_type_name(tx_type) AS type, tx_type AS code FROM transactions ORDER BY tx_index',
    );
    expect(stored.rows).to.deep.equal(TYPES.map((type) => ({ type, code: txTypeCode(type) })));
  });

  it('covers every type, and GAMetaTx without signatures', async () => {
    expect(TYPES).to.include('GAMetaTx');
    const meta = await transactionByHash(db.pool, 'th_GAMetaTx');
    expect(signedTx(meta!)).to.not.have.property('signatures');
  });

  for (const type of TYPES) {
    it(`${type}: the single transaction, the micro block's list and a page agree with signedTx`, async () => {
      const row = (await transactionByHash(db.pool, `th_${type}`))!;
      const expected = signedTx(row);
      const single = parseJson((await transactionJson(db.pool, row.hash))!.json);
      expect(single).to.deep.equal(expected);
      // same keys, exact integers: nothing but the key order may differ (jsonb prints shortest keys first)
      expect(Object.keys(single as object).sort()).to.deep.equal(Object.keys(expected).sort());
      const list = parseJson(await microBlockTransactionsJson(db.pool, MICRO)) as { transactions: Json[] };
      expect(list.transactions[row.txIndex]).to.deep.equal(expected);
      const page = await transactionsInInterval(db.pool, HEIGHT, HEIGHT, type, { limit: 10, offset: 0 });
      expect(page.map((p) => parseJson(p.json))).to.deep.equal([expected]);
    });
  }
});
