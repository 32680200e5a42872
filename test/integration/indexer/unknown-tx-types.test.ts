/**
 * @module Issue 39 on a real PostgreSQL: ChannelSetDelegatesTx, HCVoteTx and types this version does not know are
 * stored each under a code of its own, named, filtered and counted by the statistics under their names; types an
 * older version stored as unknown are re-typed once this version knows them. The AE balances derive over them, each
 * account's difference from the node marked at the first such transaction naming it.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import prom from 'prom-client';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson, stringifyJson } from '../../../src/chain/json.ts';
import { isBinary, renderStoredTx } from '../../../src/chain/stored-tx.ts';
import { withTransaction, type Pool } from '../../../src/db/connection/pool.ts';
import { countTransactions } from '../../../src/db/queries/transaction-filter.ts';
import { learnTxTypes } from '../../../src/db/writes/learned-tx-types.ts';
import { TxTypeCodes } from '../../../src/db/writes/tx-type-codes.ts';
import { deriveBalances } from '../../../src/indexer/derived/account-balances.ts';
import { DERIVED_AREAS } from '../../../src/indexer/derived/derived-areas.ts';
import { DEFAULT_TRANSFER_RULES } from '../../../src/indexer/derived/internal-transfers.ts';
import { createIndexerMetrics } from '../../../src/indexer/metrics.ts';
import { transformGeneration } from '../../../src/indexer/rows/transform.ts';
import { writeGenerations } from '../../../src/indexer/rows/writer.ts';
import type { FetchedGeneration, JsonObject } from '../../../src/indexer/rows/rows.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';

const stats = DERIVED_AREAS.get('stats')!;
const id = (p: 'ak' | 'kh' | 'mh' | 'th' | 'sg' | 'ch' | 'st'): string => encode(p, randomBytes(p === 'sg' ? 64 : 32));
const alice = id('ak');
const bob = id('ak');

function gen(height: number, txs: JsonObject[]): FetchedGeneration {
  return {
    height,
    keyBlock: parseJson(
      `{"hash":"${id('kh')}","height":${height},"prev_hash":"${id('kh')}","prev_key_hash":"${id('kh')}","miner":"${alice}","beneficiary":"${bob}","nonce":1,"time":${1700000000000 + height * 180_000},"version":6,"target":553713663}`,
    ) as JsonObject,
    microBlocks: txs.length
      ? [
          {
            header: { hash: id('mh'), height, time: 1700000000000 + height * 180_000 + 3000 },
            transactions: txs.map((tx) => ({ tx, hash: id('th'), signatures: [id('sg')] })),
          },
        ]
      : [],
    callInfos: new Map(),
    decodedCalls: new Map(),
  };
}

const delegates: JsonObject = {
  type: 'ChannelSetDelegatesTx',
  version: 1,
  channel_id: id('ch'),
  from_id: alice,
  initiator_delegate_ids: [bob],
  responder_delegate_ids: [],
  payload: encode('tx', Buffer.from('state')),
  state_hash: id('st'),
  round: 2,
  fee: 20000,
  nonce: 1,
};
const vote: JsonObject = { type: 'HCVoteTx', version: 1, voter_id: alice, epoch: 3, data: { k: 'v' } };
const madeUp = (n: number): JsonObject => ({ type: 'MadeUpTx', version: 1, owner_id: bob, n, fee: 10n ** 20n });
const other: JsonObject = { type: 'OtherNewTx', version: 1, account_id: alice, fee: 1 };
const spend: JsonObject = {
  type: 'SpendTx',
  version: 1,
  sender_id: alice,
  recipient_id: bob,
  amount: 1,
  fee: 20000,
  nonce: 2,
  payload: 'ba_Xfbg4g==',
};

describe('transaction types (issue 39): each its own code and name, unknown ones too', () => {
  let db: { pool: Pool; drop(): Promise<void> };
  let pool: Pool;
  before(async () => {
    db = await createMigratedDatabase('mdw');
    pool = db.pool;
  });
  after(() => db.drop());

  const names = async (): Promise<Record<string, number>> => {
    const { rows } = await pool.query<{ name: string; n: number }>(
      'SELECT tx_type_name(tx_type) AS name, count(*)::int AS n FROM transactions GROUP BY 1 ORDER BY 1',
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.n]));
  };

  it('stores, names, filters and counts every type, the unknown ones under codes of their own', async () => {
    const types = new TxTypeCodes();
    const batch = [gen(0, []), gen(1, [spend, delegates, vote, madeUp(1)]), gen(2, [madeUp(2), other])].map(
      transformGeneration,
    );
    const written = await withTransaction(pool, async (c) => {
      const w = await writeGenerations(c, batch, undefined, undefined, types);
      // the statistics as a batch derives them (the areas before them need a node, which this test has not)
      await stats.batch!(c, batch, { rules: DEFAULT_TRANSFER_RULES, appearances: w.accounts });
      return w;
    });
    expect(await names()).to.deep.equal({
      ChannelSetDelegatesTx: 1,
      HCVoteTx: 1,
      MadeUpTx: 2,
      OtherNewTx: 1,
      SpendTx: 1,
    });
    const codes = await pool.query<{ name: string; code: number }>(
      'SELECT DISTINCT tx_type_name(tx_type) AS name, tx_type AS code FROM transactions ORDER BY 1',
    );
    expect(codes.rows.map((r) => [r.name, r.code])).to.deep.equal([
      ['ChannelSetDelegatesTx', 501],
      ['HCVoteTx', 83],
      ['MadeUpTx', -1],
      ['OtherNewTx', -2],
      ['SpendTx', 12],
    ]);
    // logged once per type (the writer reports the types it added), counted per transaction
    expect(written.unknownTypes.firstMet.map((t) => [t.name, t.height])).to.deep.equal([
      ['MadeUpTx', 1],
      ['OtherNewTx', 2],
    ]);
    expect([...written.unknownTypes.counts]).to.deep.equal([
      ['MadeUpTx', 2],
      ['OtherNewTx', 1],
    ]);
    // a filter by one type finds that type only (before: every unknown type shared code 0)
    for (const [type, n] of [
      ['ChannelSetDelegatesTx', 1],
      ['HCVoteTx', 1],
      ['MadeUpTx', 2],
      ['OtherNewTx', 1],
      ['NeverSeenTx', 0],
    ] as const)
      expect(await countTransactions(pool, { types: [type], ids: [] }), type).to.equal(n);
    expect(await countTransactions(pool, { types: ['SpendTx', 'MadeUpTx'], ids: [] })).to.equal(3);
    expect(await countTransactions(pool, { types: ['MadeUpTx'], ids: [{ id: bob, matches: [] }] })).to.equal(2);
    // the statistics derived the batch, every type under its name, and derive the stored rows the same (before: both
    // failed on a type with no name)
    const series = async (): Promise<string[][]> =>
      (
        await pool.query<{ series: string; n: string }>(
          `SELECT series, sum(count)::text AS n FROM stats_series_counts WHERE series LIKE 'transactions%'
            GROUP BY series ORDER BY series`,
        )
      ).rows.map((r) => [r.series, r.n]);
    const fromBatch = await series();
    await withTransaction(pool, (c) => stats.stored(c, 0, 2, { rules: DEFAULT_TRANSFER_RULES }));
    expect(await series()).to.deep.equal(fromBatch);
    expect(fromBatch).to.deep.equal([
      ['transactions', '6'],
      ['transactions:ChannelSetDelegatesTx', '1'],
      ['transactions:HCVoteTx', '1'],
      ['transactions:MadeUpTx', '2'],
      ['transactions:OtherNewTx', '1'],
      ['transactions:SpendTx', '1'],
    ]);
    // an unknown type is served field for field as the node sent it, big integers exact
    const stored = await pool.query<{ signed: Buffer }>(
      "SELECT signed FROM transactions WHERE tx_type_name(tx_type) = 'MadeUpTx' ORDER BY height",
    );
    expect(renderStoredTx(stored.rows[0]!.signed).tx).to.deep.equal(madeUp(1));
    // a later batch finds the codes stored (a new writer, as after a restart) and adds none
    const again = await withTransaction(pool, (c) =>
      writeGenerations(c, [gen(3, [madeUp(3)])].map(transformGeneration), undefined, undefined, new TxTypeCodes()),
    );
    expect(again.unknownTypes.firstMet).to.deep.equal([]);
    expect((await names()).MadeUpTx).to.equal(3);
  });

  it("derives AE balances over the types it does not know: each account's difference marked at the one naming it in the block the node shows it in", async () => {
    // the node's state after each stored block: 10^21 each after height 1, then the fees the rules cannot tell taken
    // in the micro blocks of heights 2 (OtherNewTx's 1 of alice, MadeUpTx's 10^20 of bob) and 3 (MadeUpTx's of bob)
    const blocks = new Map(
      (
        await pool.query<{ hash: string; height: number; micro: number }>(
          `SELECT hash, height, -1 AS micro FROM key_blocks UNION ALL SELECT hash, height, micro_index FROM micro_blocks`,
        )
      ).rows.map((r) => [r.hash, r]),
    );
    const taken = [
      { account: alice, height: 2, micro: 0, amount: 1n },
      { account: bob, height: 2, micro: 0, amount: 10n ** 20n },
      { account: bob, height: 3, micro: 0, amount: 10n ** 20n },
    ];
    // and at genesis what each held before height 1's transactions the rules tell (alice's two fees, bob's 1 received)
    const genesis = new Map([
      [alice, 10n ** 21n + 40_001n],
      [bob, 10n ** 21n - 1n],
    ]);
    const reader = {
      accountBalance: (account: string, hash?: string) => {
        // the node knows no other account: the locked-coins one, read where the rules cannot tell a transaction, none
        if (account !== alice && account !== bob) return Promise.resolve(undefined);
        const block = hash === undefined ? undefined : blocks.get(hash)!;
        if (block?.height === 0) return Promise.resolve(genesis.get(account));
        const after = taken.filter(
          (t) =>
            t.account === account &&
            (block === undefined || t.height < block.height || (t.height === block.height && t.micro <= block.micro)),
        );
        return Promise.resolve(10n ** 21n - after.reduce((sum, t) => sum + t.amount, 0n));
      },
    };
    await withTransaction(pool, (c) => deriveBalances(c, reader, { from: 0, to: 1, fromMicro: -1 }));
    await withTransaction(pool, (c) => deriveBalances(c, reader, { from: 2, to: 3, fromMicro: -1 }));
    const { rows } = await pool.query<{ account_id: string; at: string; kind: string; delta: string; balance: string }>(
      `SELECT account_id, height || '/' || micro_index || '/' || tx_index AS at, kind, delta::text, balance::text
         FROM account_balance_changes ORDER BY account_id = $1 DESC, height, micro_index, tx_index, seq`,
      [alice],
    );
    expect(rows.map((r) => [r.account_id === alice ? 'alice' : 'bob', r.at, r.kind, r.delta, r.balance])).to.deep.equal(
      [
        // no genesis accounts known and types the rules cannot tell: each one's genesis balance is the node's genesis state
        ['alice', '0/-1/-1', 'accounts_roma', '1000000000000000040001', '1000000000000000040001'],
        ['alice', '1/0/0', 'SpendTx', '-20001', '1000000000000000020000'],
        ['alice', '1/0/1', 'ChannelSetDelegatesTx', '-20000', '1000000000000000000000'],
        // OtherNewTx (2/0/1) names alice: the fee the node took is its unexplained change
        ['alice', '2/0/1', 'unexplained', '-1', '999999999999999999999'],
        ['bob', '0/-1/-1', 'accounts_roma', '999999999999999999999', '999999999999999999999'],
        ['bob', '1/0/0', 'SpendTx', '1', '1000000000000000000000'],
        // each MadeUpTx's fee at its own place: the node's state after each block splits them (issue 89)
        ['bob', '2/0/0', 'unexplained', '-100000000000000000000', '900000000000000000000'],
        ['bob', '3/0/0', 'unexplained', '-100000000000000000000', '800000000000000000000'],
      ],
    );
  });

  it('re-types what an older version stored as unknown once this one knows the type', async () => {
    // as 774716f stored a ChannelSetDelegatesTx: its JSON text, a code of no type (1011 names it)
    await pool.query(
      "INSERT INTO unknown_tx_types (code, name, first_height, first_hash) VALUES (-100, 'ChannelSetDelegatesTx', 4, 'th_x')",
    );
    await withTransaction(pool, (c) =>
      writeGenerations(c, [gen(4, [{ ...delegates, nonce: 9 }])].map(transformGeneration)),
    );
    await pool.query('UPDATE transactions SET tx_type = -100, signed = $1 WHERE height = 4', [
      Buffer.from(stringifyJson({ signatures: [id('sg')], tx: { ...delegates, nonce: 9 } })),
    ]);
    await pool.query('UPDATE account_transactions SET tx_type = -100 WHERE height = 4');
    await pool.query('DELETE FROM derive_backfill');
    const areas = [...DERIVED_AREAS.keys()];
    const learned = await learnTxTypes(pool, areas);
    expect(learned).to.deep.equal([
      { name: 'ChannelSetDelegatesTx', code: -100, tag: 501, transactions: 1, from: 4, to: 4 },
    ]);
    // its heights go back to every derived area, which now sees the type for what it is
    expect(
      (await pool.query('SELECT area, next_height, to_height FROM derive_backfill ORDER BY area')).rows,
    ).to.deep.equal([...areas].sort().map((area) => ({ area, next_height: 4, to_height: 4 })));
    await pool.query('DELETE FROM derive_backfill');
    const row = await pool.query<{ tx_type: number; signed: Buffer }>(
      'SELECT tx_type, signed FROM transactions WHERE height = 4',
    );
    expect(row.rows[0]!.tx_type).to.equal(501);
    expect(isBinary(row.rows[0]!.signed)).to.equal(true);
    expect(renderStoredTx(row.rows[0]!.signed).tx).to.deep.equal({ ...delegates, nonce: 9 });
    const accounts = await pool.query('SELECT DISTINCT tx_type FROM account_transactions WHERE height = 4');
    expect(accounts.rows).to.deep.equal([{ tx_type: 501 }]);
    expect((await pool.query("SELECT 1 FROM unknown_tx_types WHERE name = 'ChannelSetDelegatesTx'")).rowCount).to.equal(
      0,
    );
    expect(await learnTxTypes(pool, areas)).to.deep.equal([]);
  });

  it('migration 1011 gives the rows 774716f stored under the shared code 0 their own codes, and their statistics again', async () => {
    await withTransaction(pool, (c) =>
      writeGenerations(c, [gen(20, [madeUp(20), vote, { ...other, fee: 2 }])].map(transformGeneration)),
    );
    // as 774716f stored them: every type it did not know (HCVoteTx too) under code 0, kept as its JSON
    await pool.query('UPDATE transactions SET tx_type = 0 WHERE height = 20 AND tx_type IN (-1, -2, 83)');
    await pool.query('UPDATE account_transactions SET tx_type = 0 WHERE height = 20 AND tx_type IN (-1, -2, 83)');
    await pool.query('DELETE FROM unknown_tx_types');
    await pool.query('DELETE FROM derive_backfill');
    const sql = await readFile(new URL('../../../migrations/1011_tx_type_names.sql', import.meta.url), 'utf8');
    // its statements on the rows (the schema's are in place): from the one naming the stored unknown types on
    await pool.query(sql.slice(sql.indexOf('INSERT INTO unknown_tx_types')));
    const stored = await pool.query<{ name: string; code: number; accounts: number }>(
      `SELECT tx_type_name(t.tx_type) AS name, t.tx_type AS code,
              (SELECT count(*)::int FROM account_transactions a
                WHERE (a.height, a.micro_index, a.tx_index) = (t.height, t.micro_index, t.tx_index)
                  AND a.tx_type = t.tx_type) AS accounts
         FROM transactions t WHERE t.height = 20 ORDER BY t.tx_index`,
    );
    expect(stored.rows.map((r) => r.name)).to.deep.equal(['MadeUpTx', 'HCVoteTx', 'OtherNewTx']);
    expect(stored.rows.every((r) => r.code < 0 && r.accounts > 0)).to.equal(true);
    expect(new Set(stored.rows.map((r) => r.code)).size).to.equal(3);
    // the statistics of every height holding such a type are derived again (the first case's heights too)
    expect(
      (await pool.query("SELECT next_height, to_height FROM derive_backfill WHERE area = 'stats'")).rows,
    ).to.deep.equal([{ next_height: 1, to_height: 20 }]);
    // the type this version knows then takes its tag when the populator starts
    expect((await learnTxTypes(pool, ['stats'])).map((l) => [l.name, l.tag, l.transactions])).to.deep.equal([
      ['HCVoteTx', 83, 1],
    ]);
    expect(
      (await pool.query('SELECT tx_type FROM transactions WHERE height = 20 ORDER BY tx_index')).rows[1],
    ).to.deep.equal({
      tx_type: 83,
    });
  });

  it('exports mdw_unknown_transactions_total by type', async () => {
    const registry = new prom.Registry();
    const metrics = createIndexerMetrics(registry);
    metrics.unknownTransactions.inc({ type: 'MadeUpTx' }, 2);
    expect(await registry.getSingleMetricAsString('mdw_unknown_transactions_total')).to.include(
      'mdw_unknown_transactions_total{type="MadeUpTx"} 2',
    );
  });
});
