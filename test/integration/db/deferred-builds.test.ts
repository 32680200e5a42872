/**
 * @module What a catch-up from genesis leaves to the top (migrations 1140, 1152, issue 88): on an empty schema the
 * indexes only queries read are dropped and the kept tables only queries read left empty (their triggers dropped),
 * each said in /v3/status's mdw_deferred_builds; at the top the indexes and triggers are there again and the tables
 * filled, equal to what their triggers keep in a schema that never deferred them (the oracle: the same names, AEX-9
 * events, spends and account rows written there), after a restart, a restore or an upgrade during the catch-up too. A
 * schema holding blocks defers nothing.
 */
import { expect } from 'chai';
import { migrate, migrationNames } from '../../../src/db/schema/migrator.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { storedTotals } from '../../../src/db/queries/sync-state.ts';
import { DEFERRED_TABLES } from '../../../src/db/queries/deferred-builds.ts';
import { buildDeferred, deferBuilds } from '../../../src/db/writes/deferred-builds.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { silent } from '../indexer/support/harness.ts';

/** name_state rows: a claim with pointers, one in auction, one revoked, one re-pointed by a later update */
const NAMES = [
  ['nm_a', 'alice.chain', 'th_1', 10, 10, 'ak_o1', 50_010, '[{"key":"account_pubkey","id":"ak_p1"}]', 'claim'],
  ['nm_b', 'bo.chain', 'th_2', 12, 500, 'ak_o1', 60_500, '[]', 'bid'],
  ['nm_c', 'carol.chain', 'th_3', 14, 14, 'ak_o2', 50_014, '[{"key":"account_pubkey","id":"ak_p1"}]', 'revoke'],
  [
    'nm_d',
    'dan.test',
    'th_4',
    16,
    16,
    'ak_o2',
    50_016,
    '[{"key":"account_pubkey","id":"ak_p2"},{"key":"oracle_pubkey","id":"ok_p3"}]',
    'update',
  ],
] as const;

/**
 * AEX-9 events: one account's transfers in and out over three heights (its running balance), another's mint, a
 * transfer to oneself (both sides at one position)
 */
const AEX9_EVENTS = [
  ['ct_t', 'ak_x', 10, 0, 0, 0, 1, 'th_6', 'mint', '100'],
  ['ct_t', 'ak_x', 11, 0, 1, 2, 0, 'th_7', 'transfer', '-30'],
  ['ct_t', 'ak_y', 11, 0, 1, 2, 1, 'th_7', 'transfer', '30'],
  ['ct_t', 'ak_x', 12, 1, 0, 0, 0, 'th_8', 'transfer', '-5'],
  ['ct_t', 'ak_x', 12, 1, 0, 0, 1, 'th_8', 'transfer', '5'],
  ['ct_u', 'ak_x', 12, 1, 1, 3, 1, 'th_9', 'mint', '7'],
] as const;

/** spends per height and day: two heights on one day, one crossing midnight into the next */
const SPENDS = [
  [10, 20_000, 2, '300'],
  [11, 20_000, 1, '5'],
  [11, 20_001, 3, '40'],
] as const;

/**
 * account rows (id number, position, outer type, fields): one id's spends as sender over two heights, one to itself
 * (both fields on one row), and its recipient's row of each
 */
const ACCOUNT_ROWS = [
  [9, 10, 0, 0, 12, 'sender_id'],
  [17, 10, 0, 0, 12, 'recipient_id'],
  [9, 11, 0, 1, 12, 'sender_id'],
  [17, 11, 0, 1, 12, 'recipient_id'],
  [9, 12, 1, 0, 12, 'sender_id recipient_id'],
  [9, 12, 1, 1, 22, 'owner_id'],
] as const;

/** rows written after the build (or after a restore turned the triggers on): a name, an AEX-9 event, a spend */
const LATER = [
  `INSERT INTO name_state VALUES ('nm_e', 'eve.chain', 'th_5', 20, 20, 'ak_o3', 50_020, '[{"key":"k","id":"ak_p4"}]', 'claim')`,
  `INSERT INTO aex9_events VALUES ('ct_t', 'ak_x', 20, 0, 0, 0, 0, 'th_10', 'burn', -15)`,
  'INSERT INTO spend_heights VALUES (20, 20_001, 1, 1)',
  `INSERT INTO account_transactions VALUES (9, 20, 0, 0, 12, 'sender_id'), (25, 20, 0, 0, 12, 'recipient_id')`,
];

/** the tables whose triggers keep the kept tables */
const KEPT_FROM = ['name_state', 'aex9_events', 'spend_heights', 'account_transactions'];

const KEPT = [
  'name_count_edges',
  'name_count_spans',
  'name_pointees',
  'aex9_event_balances',
  'spend_days',
  'account_tx_counts',
];
const INDEXES = [
  'name_state_name_trgm',
  'name_state_name_grams',
  'name_state_name_reversed',
  'name_state_name_not_label_chain',
  'name_state_deactivation',
  'name_state_auction_end',
  'name_state_created',
  'name_state_expires',
  'name_state_name',
  'name_state_owner',
  'account_transactions_type',
  'transactions_type',
  'contract_calls_caller',
  'contract_calls_own_log',
  'contract_calls_contract_caller',
  'name_events_name',
  'internal_transfers_account',
  'account_pairs_pkey',
  'contract_internal_calls_function',
  'contract_internal_calls_contract',
];

describe('deferred builds of a catch-up from genesis (migration 1140)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let fresh: Pool;
  let control: Pool;

  before(async () => {
    db = await createTestDatabase();
    for (const schema of ['fresh', 'control']) await migrate({ databaseUrl: db.url, schema }, silent);
    fresh = createPool({ databaseUrl: db.url, schema: 'fresh', max: 2 }, silent);
    control = createPool({ databaseUrl: db.url, schema: 'control', max: 2 }, silent);
  });
  after(async () => {
    await fresh?.end();
    await control?.end();
    await db?.drop();
  });

  /** the rows the kept tables are kept from, each table in one statement as a batch writes it */
  const writeRows = async (pool: Pool): Promise<void> => {
    const columns = (rows: readonly (readonly unknown[])[]): unknown[][] =>
      rows[0]!.map((_, i) => rows.map((r) => r[i]));
    await pool.query(
      `INSERT INTO name_state (name_hash, name, tx_hash, created_at_height, auction_end_height, owner, expires_at,
                               pointers, kind)
       SELECT h, n, t, c, a, o, e, p::jsonb, k
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::int[], $8::text[],
                     $9::text[]) AS u(h, n, t, c, a, o, e, p, k)`,
      columns(NAMES),
    );
    await pool.query(
      `INSERT INTO aex9_events SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[], $6::int[],
                                                  $7::smallint[], $8::text[], $9::text[], $10::numeric[])`,
      columns(AEX9_EVENTS),
    );
    await pool.query(
      'INSERT INTO spend_heights SELECT * FROM unnest($1::int[], $2::int[], $3::bigint[], $4::numeric[])',
      columns(SPENDS),
    );
    await pool.query(
      `INSERT INTO account_transactions SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::smallint[],
                                                           $6::text[])`,
      columns(ACCOUNT_ROWS),
    );
  };
  const writeLater = async (pool: Pool): Promise<void> => {
    for (const statement of LATER) await pool.query(statement);
  };
  /** the deferrable indexes a schema holds, by name */
  const indexes = async (pool: Pool): Promise<string[]> => (await definitions(pool)).map((d) => d.split(':')[0]!);
  /** and each one's definition as PostgreSQL gives it back, its schema left out: the migrations' own, built again */
  const definitions = async (pool: Pool): Promise<string[]> =>
    (
      await pool.query<{ def: string }>(
        `SELECT indexname || ': ' || replace(indexdef, schemaname || '.', '') AS def FROM pg_indexes
          WHERE schemaname = current_schema() AND indexname = ANY ($1)`,
        [INDEXES],
      )
    ).rows
      .map((r) => r.def)
      .sort();
  /**
   * the triggers on the tables the kept tables are kept from, each as PostgreSQL gives it back (its schema left out)
   * and whether it is on (`O`) or off (`D`)
   */
  const triggers = async (pool: Pool): Promise<string[]> =>
    (
      await pool.query<{ def: string }>(
        `SELECT t.tgenabled::text || ' ' || pg_get_triggerdef(t.oid, true) AS def FROM pg_trigger t
           JOIN pg_class c ON c.oid = t.tgrelid
          WHERE c.relnamespace = current_schema()::regnamespace AND c.relname = ANY ($1) AND NOT t.tgisinternal`,
        [KEPT_FROM],
      )
    ).rows
      .map((r) => r.def)
      .sort();
  const rows = async (pool: Pool, table: string): Promise<string[]> =>
    (await pool.query<{ r: string }>(`SELECT row_to_json(t)::text AS r FROM ${table} t`)).rows.map((r) => r.r).sort();

  it('on an empty schema drops the indexes only queries read and keeps the kept tables empty, each said deferred', async () => {
    // the name search's trigram index is there where pg_trgm is (schema/name-search-index.ts)
    expect(await indexes(fresh)).to.include.members(INDEXES.filter((i) => i !== 'name_state_name_trgm'));
    const deferred = await deferBuilds(fresh);
    expect(deferred).to.include.members([
      'name_state_name_grams',
      'name_count_edges',
      'name_pointees',
      'aex9_event_balances',
      'spend_days',
      'account_tx_counts',
    ]);
    expect(await indexes(fresh)).to.deep.equal([]);
    // dropped, not turned off: PostgreSQL copies each row written into a disabled trigger's transition table too
    const keeping = (t: string): boolean => KEPT.some((k) => t.includes(`TRIGGER ${k}_on_`));
    const all = await triggers(control);
    expect(all.filter(keeping)).to.have.length(14);
    expect(await triggers(fresh)).to.deep.equal(all.filter((t) => !keeping(t)));
    // each kept with its table's row by name, naming no schema (a snapshot's rows go into a schema of another name)
    const saved = async (): Promise<Record<string, string>[]> =>
      (
        await fresh.query<{ t: Record<string, string> }>(
          `SELECT triggers AS t FROM deferred_builds WHERE kind = 'table' ORDER BY name`,
        )
      ).rows.map((r) => r.t);
    const definitions = await saved();
    expect(definitions.flatMap((d) => Object.values(d).map((v) => `O ${v}`)).sort()).to.deep.equal(all.filter(keeping));
    expect(JSON.stringify(definitions)).to.not.include('fresh.');
    // a populator started again before the first block defers the same, keeping the triggers' definitions
    expect(await deferBuilds(fresh)).to.deep.equal(deferred);
    expect(await saved()).to.deep.equal(definitions);
    await writeRows(fresh);
    await writeRows(control);
    for (const table of KEPT) expect(await rows(fresh, table), table).to.deep.equal([]);
    const { deferredBuilds } = await storedTotals(fresh);
    expect(deferredBuilds.map((d) => [d.name, d.kind, d.state])).to.deep.equal([
      ...[...INDEXES].sort().map((i) => [i, 'index', 'deferred']),
      ...['account_tx_counts', 'aex9_event_balances', 'name_count_edges', 'name_pointees', 'spend_days'].map((t) => [
        t,
        'table',
        'deferred',
      ]),
    ]);
  });

  it('at the top builds the indexes and fills the tables as their triggers keep them, and says nothing deferred', async () => {
    await buildDeferred(fresh, silent);
    expect(await definitions(fresh)).to.deep.equal(await definitions(control));
    for (const table of KEPT) {
      const kept = await rows(control, table);
      expect(kept, table).to.not.deep.equal([]);
      expect(await rows(fresh, table), table).to.deep.equal(kept);
    }
    expect((await storedTotals(fresh)).deferredBuilds).to.deep.equal([]);
    expect(await triggers(fresh)).to.deep.equal(await triggers(control));
    // the triggers are on again: the rows written now are kept as in the control
    await writeLater(fresh);
    await writeLater(control);
    for (const table of KEPT) expect(await rows(fresh, table), table).to.deep.equal(await rows(control, table));
  });

  it('fills the tables in place of what the triggers kept after a restore (a snapshot of a catch-up)', async () => {
    await migrate({ databaseUrl: db.url, schema: 'caught_up' }, silent);
    await migrate({ databaseUrl: db.url, schema: 'restored' }, silent);
    const caughtUp = createPool({ databaseUrl: db.url, schema: 'caught_up', max: 2 }, silent);
    const restored = createPool({ databaseUrl: db.url, schema: 'restored', max: 2 }, silent);
    try {
      await deferBuilds(caughtUp);
      await writeRows(caughtUp);
      // what `mdw snapshot import` does: the rows copied into a migrated schema (its indexes and triggers there) with
      // the triggers off, then every trigger on, the rows written since kept on empty tables
      for (const table of [...KEPT_FROM, 'deferred_builds']) {
        await restored.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
        await restored.query(`INSERT INTO ${table} SELECT * FROM caught_up.${table}`);
        await restored.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
      }
      await writeLater(restored);
      expect(await rows(restored, 'name_pointees')).to.have.length(1);
      expect(await rows(restored, 'spend_days')).to.have.length(1);
      expect(await rows(restored, 'account_tx_counts')).to.have.length(2);
      await buildDeferred(restored, silent);
      expect(await definitions(restored)).to.deep.equal(await definitions(control));
      expect(await triggers(restored)).to.deep.equal(await triggers(control));
      for (const table of KEPT) expect(await rows(restored, table), table).to.deep.equal(await rows(control, table));
    } finally {
      await caughtUp.end();
      await restored.end();
    }
  });

  it('drops the triggers an older version turned off during its catch-up, and builds them at the top (1152)', async () => {
    const older = migrationNames().filter((m) => m < '1152');
    await migrate({ databaseUrl: db.url, schema: 'upgraded', only: older }, silent);
    const upgraded = createPool({ databaseUrl: db.url, schema: 'upgraded', max: 2 }, silent);
    try {
      // 1140's catch-up: the kept tables' triggers off, a row for each
      for (const { name, on, triggers: off } of DEFERRED_TABLES) {
        for (const t of off) await upgraded.query(`ALTER TABLE ${on} DISABLE TRIGGER ${t}`);
        await upgraded.query(`INSERT INTO deferred_builds (name, kind, state) VALUES ($1, 'table', 'deferred')`, [
          name,
        ]);
      }
      await writeRows(upgraded);
      expect(await migrate({ databaseUrl: db.url, schema: 'upgraded' }, silent)).to.include(
        '1152_deferred_triggers_dropped',
      );
      const left = await triggers(upgraded);
      expect(left.filter((t) => t.startsWith('D '))).to.deep.equal([]);
      expect(left.filter((t) => KEPT.some((k) => t.includes(`TRIGGER ${k}_on_`)))).to.deep.equal([]);
      // written after the upgrade, still catching up
      await writeLater(upgraded);
      for (const table of KEPT) expect(await rows(upgraded, table), table).to.deep.equal([]);
      await buildDeferred(upgraded, silent);
      expect(await triggers(upgraded)).to.deep.equal(await triggers(control));
      for (const table of KEPT) expect(await rows(upgraded, table), table).to.deep.equal(await rows(control, table));
    } finally {
      await upgraded.end();
    }
  });

  it('defers nothing on a schema holding blocks (its servers read the indexes)', async () => {
    await control.query(
      `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
       VALUES (0, 'kh_0', 'kh_0', 'kh_0', 'ak_b', 'ak_m', 0, '{}')`,
    );
    const before = await indexes(control);
    expect(await deferBuilds(control)).to.deep.equal([]);
    expect(await indexes(control)).to.deep.equal(before);
    expect((await storedTotals(control)).deferredBuilds).to.deep.equal([]);
  });
});
