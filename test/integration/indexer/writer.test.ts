/** @module Writer on a real PostgreSQL: exact numbers, every table filled, cascade rollback, state from prior heights. */
import { expect } from 'chai';
import { idKey, idOfKey, txTypeCode, txTypeOfCode } from '../../../src/chain/id-key.ts';
import { randomBytes } from 'node:crypto';
import { oracleQueryId, produceNameId } from '@aeternity/aepp-sdk';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson } from '../../../src/chain/json.ts';
import { withTransaction, type Pool } from '../../../src/db/connection/pool.ts';
import { transformGeneration } from '../../../src/indexer/rows/transform.ts';
import { deleteFrom } from '../../../src/db/writes/heights.ts';
import { recordTop } from '../../../src/db/writes/sync-state.ts';
import { writeGenerations } from '../../../src/indexer/rows/writer.ts';
import { TABLES } from '../../../src/indexer/rows/tables.ts';
import { eventTopic } from '../../../src/indexer/rows/call-events.ts';
import type { FetchedGeneration, JsonObject } from '../../../src/indexer/rows/rows.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';
import { accountNumber } from '../../support/account-numbers.ts';
import { renderStoredTx } from '../../../src/chain/stored-tx.ts';

const id = (p: 'ak' | 'ct' | 'kh' | 'mh' | 'th' | 'sg'): string => encode(p, randomBytes(p === 'sg' ? 64 : 32));
const alice = id('ak');
const bob = id('ak');
const nameHash = produceNameId('averyveryverylongname.chain');

function gen(height: number, txs: JsonObject[]): FetchedGeneration {
  const kh = id('kh');
  return {
    height,
    keyBlock: parseJson(
      `{"hash":"${kh}","height":${height},"prev_hash":"${id('kh')}","prev_key_hash":"${id('kh')}","miner":"${alice}","beneficiary":"${bob}","nonce":18446744073709551615,"time":${1700000000000 + height},"version":5}`,
    ) as JsonObject,
    microBlocks: txs.length
      ? [
          {
            header: { hash: id('mh'), height, time: 1700000000000 + height },
            transactions: txs.map((tx) => ({ tx, hash: id('th'), signatures: [id('sg')] })),
          },
        ]
      : [],
    callInfos: new Map(),
    decodedCalls: new Map(),
  };
}

describe('indexer writer', () => {
  let db: { pool: Pool; drop(): Promise<void> };
  let pool: Pool;
  before(async () => {
    db = await createMigratedDatabase('mdw');
    pool = db.pool;
  });
  after(() => db.drop());

  const count = async (table: string): Promise<number> =>
    Number((await pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n);

  it('round-trips integers beyond 2^53 in jsonb and numeric columns', async () => {
    const big = parseJson(
      '{"amount":115792089237316195423570985008687907853269984665640564039457584007913129639935,"fee":98765432109876543210}',
    ) as JsonObject;
    const spend = { type: 'SpendTx', sender_id: alice, recipient_id: bob, nonce: 1, payload: 'ba_Xfbg4g==', ...big };
    const claim = {
      type: 'NameClaimTx',
      account_id: alice,
      nonce: 2,
      name: 'averyveryverylongname.chain',
      name_salt: big.amount!,
      name_fee: big.fee!,
      fee: 1,
    };
    const rows = [gen(0, []), gen(1, [spend, claim])].map(transformGeneration);
    await withTransaction(pool, async (c) => {
      await writeGenerations(c, rows);
      await recordTop(c);
    });
    const tx = await pool.query<{ signed: Buffer; fee: string }>(
      'SELECT signed, fee FROM transactions WHERE tx_type = $1',
      [txTypeCode('SpendTx')],
    );
    expect(renderStoredTx(tx.rows[0]!.signed).tx.amount).to.equal(2n ** 256n - 1n);
    expect(tx.rows[0]!.fee).to.equal('98765432109876543210');
    const kb = await pool.query<{ data: JsonObject }>('SELECT data FROM key_blocks WHERE height = 1');
    expect(kb.rows[0]!.data.nonce).to.equal(18446744073709551615n);
    const name = await pool.query<{ name_fee: string; expires_at: number }>(
      'SELECT name_fee, expires_at FROM name_events WHERE name_hash = $1',
      [nameHash],
    );
    expect(name.rows[0]).to.deep.equal({ name_fee: '98765432109876543210', expires_at: 1 + 180000 });
    const state = await pool.query<{ top_height: number }>('SELECT top_height FROM sync_state');
    expect(state.rows[0]!.top_height).to.equal(1);
  });

  it('derives later name events from the stored state and rolls everything back with the heights', async () => {
    const update = {
      type: 'NameUpdateTx',
      account_id: alice,
      nonce: 3,
      name_id: nameHash,
      name_ttl: 100,
      pointers: [{ key: 'account_pubkey', id: bob }],
      client_ttl: 1,
      fee: 1,
    };
    const transfer = {
      type: 'NameTransferTx',
      account_id: alice,
      nonce: 4,
      name_id: nameHash,
      recipient_id: bob,
      fee: 1,
    };
    const contract = {
      type: 'ContractCreateTx',
      owner_id: alice,
      nonce: 5,
      code: 'cb_Xfbg4g==',
      vm_version: 7,
      abi_version: 3,
      fee: 1,
      call_data: 'cb_Xfbg4g==',
    };
    const oracle = {
      type: 'OracleRegisterTx',
      account_id: bob,
      nonce: 1,
      query_format: 'q',
      response_format: 'r',
      query_fee: 1,
      oracle_ttl: { type: 'delta', value: 10 },
      fee: 1,
      abi_version: 0,
    };
    await withTransaction(pool, (c) =>
      writeGenerations(c, [gen(2, [update, contract, oracle]), gen(3, [transfer])].map(transformGeneration)),
    );
    const events = await pool.query<{ kind: string; owner: string; name: string; expires_at: number }>(
      'SELECT kind, owner, name, expires_at FROM name_events WHERE name_hash = $1 ORDER BY height',
      [nameHash],
    );
    expect(events.rows.map((r) => [r.kind, r.owner, r.name, r.expires_at])).to.deep.equal([
      ['claim', alice, 'averyveryverylongname.chain', 180001],
      ['update', alice, 'averyveryverylongname.chain', 102],
      ['transfer', bob, 'averyveryverylongname.chain', 102],
    ]);
    const before = await Promise.all(
      [
        'transactions',
        'account_transactions',
        'contracts',
        'contract_calls',
        'name_events',
        'name_pointers',
        'oracle_events',
      ].map(count),
    );
    expect(before.every((n) => n > 0)).to.equal(true);
    await withTransaction(pool, (c) => deleteFrom(c, 2));
    expect(await count('name_events')).to.equal(1);
    expect(await count('name_pointers')).to.equal(0);
    expect(await count('contracts')).to.equal(0);
    expect(await count('contract_calls')).to.equal(0);
    expect(await count('oracle_events')).to.equal(0);
    expect(await count('micro_blocks')).to.equal(1);
  });

  it('leaves no row of a deleted height in any table (the delete on key_blocks reaches every table)', async () => {
    const spend = {
      type: 'SpendTx',
      sender_id: alice,
      recipient_id: bob,
      amount: 1,
      fee: 1,
      nonce: 30,
      payload: 'ba_Xfbg4g==',
    };
    const claim = {
      type: 'NameClaimTx',
      account_id: alice,
      nonce: 31,
      name: 'deleted-with-its-height.chain',
      name_salt: 7,
      name_fee: 1,
      fee: 1,
    };
    const oracle = {
      type: 'OracleRegisterTx',
      account_id: alice,
      nonce: 32,
      query_format: 'q',
      response_format: 'r',
      query_fee: 1,
      oracle_ttl: { type: 'delta', value: 10 },
      fee: 1,
      abi_version: 0,
    };
    const query = {
      type: 'OracleQueryTx',
      sender_id: bob,
      nonce: 2,
      oracle_id: `ok_${alice.slice(3)}`,
      query: 'q?',
      query_fee: 1,
      query_ttl: { type: 'delta', value: 10 },
      response_ttl: { type: 'delta', value: 5 },
      fee: 1,
    };
    const channel = {
      type: 'ChannelCreateTx',
      initiator_id: alice,
      initiator_amount: 1,
      responder_id: bob,
      responder_amount: 1,
      channel_reserve: 0,
      lock_period: 1,
      state_hash: encode('st', randomBytes(32)),
      nonce: 33,
      fee: 1,
      delegate_ids: { initiator: [], responder: [] },
    };
    const update = {
      type: 'NameUpdateTx',
      account_id: alice,
      nonce: 34,
      name_id: produceNameId('deleted-with-its-height.chain'),
      name_ttl: 100,
      pointers: [{ key: 'account_pubkey', id: bob }],
      client_ttl: 1,
      fee: 1,
    };
    const contract = {
      type: 'ContractCreateTx',
      owner_id: alice,
      nonce: 35,
      code: 'cb_Xfbg4g==',
      vm_version: 7,
      abi_version: 3,
      fee: 1,
      call_data: 'cb_Xfbg4g==',
    };
    const response = {
      type: 'OracleResponseTx',
      oracle_id: `ok_${alice.slice(3)}`,
      nonce: 36,
      query_id: oracleQueryId(bob as `ak_${string}`, 2, `ok_${alice.slice(3)}`),
      response: 'r!',
      response_ttl: { type: 'delta', value: 5 },
      fee: 1,
    };
    // the create's log announces a DEX pair and a swap (dex_pairs, dex_swaps), and holds another contract's event
    // (contract_remote_calls)
    const withDex = gen(20, [spend, claim, contract]);
    const topic = (name: string): bigint => eventTopic(name);
    const pubkey = (): bigint => BigInt(`0x${randomBytes(32).toString('hex')}`);
    (withDex.callInfos as Map<string, JsonObject>).set(String(withDex.microBlocks[0]!.transactions[2]!.hash), {
      log: [
        {
          address: id('ak'),
          topics: [topic('SwapTokens'), pubkey(), pubkey()],
          data: encode('cb', Buffer.from('1|0|0|2')),
        },
        { address: id('ak'), topics: [topic('PairCreated'), pubkey(), pubkey(), pubkey()], data: 'cb_Xfbg4g==' },
        { address: id('ct'), topics: [], data: 'cb_Xfbg4g==' },
      ],
    });
    await withTransaction(pool, (c) =>
      writeGenerations(
        c,
        [withDex, gen(21, [oracle, channel, update]), gen(22, [query]), gen(23, [response])].map(transformGeneration),
      ),
    );
    const tables = [...new Set(TABLES.map((t) => t.table))];
    const atOrAbove = async (table: string, height: number): Promise<number> =>
      Number((await pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE height >= $1`, [height])).rows[0].n);
    expect((await Promise.all(tables.map((t) => atOrAbove(t, 20)))).filter((n) => n > 0)).to.have.length(tables.length);
    await withTransaction(pool, (c) => deleteFrom(c, 20));
    expect(Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await atOrAbove(t, 20)])))).to.deep.equal(
      Object.fromEntries(tables.map((t) => [t, 0])),
    );
    const state = await pool.query('SELECT 1 FROM name_state WHERE name = $1', ['deleted-with-its-height.chain']);
    expect(state.rows).to.deep.equal([]);
  });

  it('keeps the first of two creates that derive the same contract id (GA inner txs have nonce 0)', async () => {
    const create = {
      type: 'ContractCreateTx',
      owner_id: alice,
      nonce: 0,
      code: 'cb_Xfbg4g==',
      vm_version: 7,
      abi_version: 3,
      fee: 0,
      call_data: 'cb_Xfbg4g==',
    };
    const meta = (n: number): JsonObject => ({
      type: 'GAMetaTx',
      ga_id: alice,
      auth_data: 'cb_Xfbg4g==',
      abi_version: 3,
      fee: n,
      gas: 1,
      gas_price: 1,
      tx: { tx: create, signatures: [] },
    });
    await withTransaction(pool, (c) => writeGenerations(c, [gen(2, [meta(1)])].map(transformGeneration)));
    await withTransaction(pool, (c) => writeGenerations(c, [gen(3, [meta(2)])].map(transformGeneration)));
    const rows = await pool.query<{ height: number }>('SELECT height FROM contracts WHERE owner_id = $1', [alice]);
    expect(rows.rows).to.deep.equal([{ height: 2 }]);
    expect(await count('contract_calls')).to.equal(2);
  });

  it('sends a query addressed to a name to the oracle the name points at, from stored and same-batch state', async () => {
    const ok = (ak: string): string => `ok_${ak.slice(3)}`;
    const point = (nonce: number, to: string): JsonObject => ({
      type: 'NameUpdateTx',
      account_id: alice,
      nonce,
      name_id: nameHash,
      name_ttl: 100,
      pointers: [{ key: 'oracle_pubkey', id: ok(to) }],
      client_ttl: 1,
      fee: 1,
    });
    const ask = (nonce: number): JsonObject => ({
      type: 'OracleQueryTx',
      sender_id: alice,
      nonce,
      oracle_id: nameHash,
      query: 'q?',
      query_fee: 5,
      query_ttl: { type: 'delta', value: 10 },
      response_ttl: { type: 'delta', value: 5 },
      fee: 1,
    });
    await withTransaction(pool, (c) => writeGenerations(c, [gen(10, [point(20, bob)])].map(transformGeneration)));
    await withTransaction(pool, (c) =>
      writeGenerations(c, [gen(11, [ask(21)]), gen(12, [point(22, alice), ask(23)])].map(transformGeneration)),
    );
    const rows = await pool.query<{ query_id: string; oracle_id: string; height: number }>(
      'SELECT query_id, oracle_id, height FROM oracle_queries WHERE sender_id = $1 ORDER BY height',
      [alice],
    );
    expect(rows.rows).to.deep.equal([
      {
        query_id: oracleQueryId(alice as `ak_${string}`, 21, ok(bob) as `ok_${string}`),
        oracle_id: ok(bob),
        height: 11,
      },
      {
        query_id: oracleQueryId(alice as `ak_${string}`, 23, ok(alice) as `ok_${string}`),
        oracle_id: ok(alice),
        height: 12,
      },
    ]);
    // the query ids are listed like those of queries sent to an oracle directly
    const listed = await pool.query<{ account: Buffer; tx_type: number; fields: string }>(
      `SELECT i.key AS account, a.tx_type, a.fields FROM account_transactions a JOIN account_ids i ON i.num = a.account
        WHERE i.key = ANY($1) ORDER BY a.height`,
      [rows.rows.map((r) => idKey(r.query_id))],
    );
    expect(
      listed.rows.map((r) => ({ ...r, account: idOfKey(r.account), tx_type: txTypeOfCode(r.tx_type) })),
    ).to.deep.equal(rows.rows.map((r) => ({ account: r.query_id, tx_type: 'OracleQueryTx', fields: 'query_id' })));
  });

  it("lists a spend to a name under the account the name pointed at, beside the account's own rows", async () => {
    const point = {
      type: 'NameUpdateTx',
      account_id: alice,
      nonce: 40,
      name_id: nameHash,
      name_ttl: 100,
      pointers: [{ key: 'account_pubkey', id: bob }],
      client_ttl: 1,
      fee: 1,
    };
    const toName = {
      type: 'SpendTx',
      sender_id: alice,
      recipient_id: nameHash,
      amount: 3,
      fee: 1,
      nonce: 41,
      payload: 'ba_Xfbg4g==',
    };
    // bob pays his own name: his sender row stays, the reference adds nothing and breaks nothing
    const selfToName = {
      type: 'SpendTx',
      sender_id: bob,
      recipient_id: nameHash,
      amount: 4,
      fee: 1,
      nonce: 1,
      payload: 'ba_Xfbg4g==',
    };
    await withTransaction(pool, (c) =>
      writeGenerations(c, [gen(40, [point, toName, selfToName])].map(transformGeneration)),
    );
    const rows = await pool.query<{ tx_index: number; fields: string }>(
      'SELECT tx_index, fields FROM account_transactions WHERE account = $1 AND height = 40 ORDER BY tx_index',
      [await accountNumber(pool, bob)],
    );
    expect(rows.rows).to.deep.equal([
      { tx_index: 0, fields: 'pointers' },
      { tx_index: 1, fields: 'recipient_id' },
      { tx_index: 2, fields: 'sender_id' },
    ]);
  });

  it('adds micro blocks to a stored generation, deriving their name events from the earlier micro blocks of the same height', async () => {
    const claim = {
      type: 'NameClaimTx',
      account_id: alice,
      nonce: 30,
      name: 'averyveryverylongname.chain',
      name_salt: 9,
      name_fee: 7,
      fee: 1,
    };
    const update = {
      type: 'NameUpdateTx',
      account_id: alice,
      nonce: 31,
      name_id: nameHash,
      name_ttl: 50,
      pointers: [],
      client_ttl: 1,
      fee: 1,
    };
    const full = gen(30, [claim]);
    await withTransaction(pool, (c) => writeGenerations(c, [transformGeneration(full)]));
    const added = gen(30, [update]);
    await withTransaction(pool, (c) =>
      writeGenerations(c, [transformGeneration({ ...added, keyBlock: full.keyBlock, continuesAt: 1 })]),
    );
    const events = await pool.query<{ kind: string; micro_index: number; name: string; expires_at: number }>(
      'SELECT kind, micro_index, name, expires_at FROM name_events WHERE name_hash = $1 AND height = 30 ORDER BY micro_index',
      [nameHash],
    );
    expect(events.rows).to.deep.equal([
      { kind: 'claim', micro_index: 0, name: 'averyveryverylongname.chain', expires_at: 180030 },
      { kind: 'update', micro_index: 1, name: 'averyveryverylongname.chain', expires_at: 80 },
    ]);
    expect((await pool.query('SELECT 1 FROM key_blocks WHERE height = 30')).rowCount).to.equal(1);
  });

  it('rolls a failed COPY back with its transaction and leaves the connection usable', async () => {
    const before = await count('transactions');
    const again = gen(4, [{ type: 'SpendTx', sender_id: alice, recipient_id: bob, amount: 1, fee: 1, nonce: 9 }]);
    await withTransaction(pool, (c) => writeGenerations(c, [again].map(transformGeneration)));
    let failure: unknown;
    await withTransaction(pool, (c) => writeGenerations(c, [again].map(transformGeneration))).catch((err: unknown) => {
      failure = err;
    });
    expect(String(failure)).to.match(/duplicate key/);
    expect(await count('transactions')).to.equal(before + 1);
  });
});
