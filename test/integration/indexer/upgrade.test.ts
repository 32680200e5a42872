/**
 * @module Upgrading a stored database: a database that stored the chain before the derived tables existed (internal
 * transfers and generation fees, 0012; statistics, 0070–0071) gets their rows from the rows it stores, never by
 * fetching the chain again, and ends equal to a fresh load of the same chain. The old databases are built on the
 * schema of their time (a prefix of migrations/) and given the chain's rows as that schema held them.
 */
import { expect } from 'chai';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import prom from 'prom-client';
import { idOfKey, txTypeOfCode } from '../../../src/chain/id-key.ts';
import { stringifyJson } from '../../../src/chain/json.ts';
import { renderStoredTx } from '../../../src/chain/stored-tx.ts';
import { loadConfig, type Config } from '../../../src/config.ts';
import { migrate, MIGRATIONS_DIR } from '../../../src/db/migrator.ts';
import { createPool, type PoolClient } from '../../../src/db/pool.ts';
import { fillSignedTransactions } from '../../../src/db/data-steps.ts';
import { transactionJson } from '../../../src/db/queries/transactions.ts';
import { transactionByHash as v3TransactionByHash } from '../../../src/db/queries/v3/transactions.ts';
import { transactionJson as v3TransactionJson } from '../../../src/shapes/v3/render-tx.ts';
import { derivedTables, rowsOnlyIn } from '../../../src/db/queries/derived-rows.ts';
import { ID_NUMBER_COLUMNS } from '../../../src/db/queries/account-ids.ts';
import { callInfoSql } from '../../../src/db/queries/call-info.ts';
import { syncState } from '../../../src/db/queries/stats.ts';
import { genesisAccountsJson } from '../../../src/devnode/devnode.ts';
import { startDevnode, type Devnode } from '../../../src/devnode/index.ts';
import { startPopulator } from '../../../src/indexer/populator.ts';
import { DeriveBackfill } from '../../../src/indexer/derive-backfill.ts';
import { NotificationListener } from '../../../src/events/listener.ts';
import { decodeNotification, notifyChannel, type ChainNotification } from '../../../src/db/notification.ts';
import { contractReaders } from '../../../src/indexer/aexn-detector.ts';
import { transferRulesOf } from '../../../src/indexer/internal-transfers.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { verifyChain } from '../../../src/indexer/verify.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { silent, waitFor } from './support/harness.ts';
import { populateToTop } from '../../support/populate.ts';

const FRESH = 'fresh';
const FORK_WINDOW = 5;

describe('upgrading a stored database derives the new tables from its stored rows', function () {
  this.timeout(300_000);
  let devnode: Devnode;
  let db: { url: string; drop(): Promise<void> };
  let proxy: FaultProxy;
  let client: pg.Client;
  let dir: string;

  const config = (schema: string, nodeUrl = devnode.externalUrl): Config =>
    loadConfig({
      NODE_URL: nodeUrl,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: schema,
      POLL_INTERVAL_MS: '50',
      BATCH_SIZE: '7',
      FORK_WINDOW: String(FORK_WINDOW),
      NODE_TIMEOUT_MS: '5000',
      REWARD_RULES: 'devnode',
      GENESIS_ACCOUNTS_FILE: join(dir, 'accounts_ae_devnet.json'),
    });

  const populate = (schema: string, nodeUrl?: string): Promise<void> => populateToTop(config(schema, nodeUrl));

  const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> =>
    (await client.query<T>(sql, params)).rows;

  /** oldSchema migrates `schema` with the migrations up to `last` only, as a database of that time was. */
  async function oldSchema(schema: string, last: string): Promise<void> {
    const prefix = join(dir, `migrations-${schema}-${last}`);
    await mkdir(prefix);
    for (const f of await readdir(MIGRATIONS_DIR))
      if (f.endsWith('.sql') && f <= `${last}.sql`) await copyFile(join(MIGRATIONS_DIR, f), join(prefix, f));
    await migrate({ databaseUrl: db.url, schema, dir: prefix }, silent);
  }

  /**
   * copyChain writes the fresh load's rows into `schema` as its older layout holds them (columns both have; a column
   * dropped since is computed from the fresh rows; an id or type stored in a compact form since, 0032, is written
   * back as text; an id's number, 0095, as its key or text), triggers off as a restore does, leaving out `skip` tables.
   */
  async function copyChain(schema: string, skip: (table: string) => boolean): Promise<void> {
    const dropped: Record<string, string> = {
      // 0031 dropped it: the transaction at the row's position
      'account_transactions.tx_hash': `(SELECT x.hash FROM "${FRESH}".transactions x
         WHERE (x.height, x.micro_index, x.tx_index) = (a.height, a.micro_index, a.tx_index))`,
      // 0087 dropped it: the hash of the micro block at the transaction's position
      'transactions.micro_block_hash': `(SELECT m.hash FROM "${FRESH}".micro_blocks m
         WHERE (m.height, m.micro_index) = (a.height, a.micro_index))`,
      // 0086 dropped them: rendered from the stored form below (fromStored)
      'transactions.tx': 'a.signed',
      'transactions.signatures': 'a.signed',
    };
    /** the node's JSON columns 0084-0086 replaced by the stored form, rendered from it as the API renders it */
    const fromStored: Record<string, (v: unknown) => unknown> = {
      'transactions.tx': (v) => renderStoredTx(v as Buffer).tx,
      'transactions.signatures': (v) => renderStoredTx(v as Buffer).signatures,
    };
    const keys = new Map(
      (await query<{ num: number; key: Buffer }>(`SELECT num, key FROM "${FRESH}".account_ids`)).map((r) => [
        r.num,
        r.key,
      ]),
    );
    // 0096: the call info whole, where the older layout has no mark of a trimmed one
    const restored: Record<string, { marker: string; sql: string }> = {
      'contract_calls.call_info': { marker: 'call_info_trimmed', sql: callInfoSql('a') },
    };
    /** what a compact value of the fresh layout was in the older one */
    const widen = (freshType: string, oldType: string, idNumber: boolean): ((v: unknown) => unknown) | undefined => {
      // 0095: an id's number, its key (0032) or its text before
      if (idNumber && freshType === 'integer') {
        const key = (v: unknown): Buffer => keys.get(v as number)!;
        if (oldType === 'bytea') return (v) => (v === null ? null : `\\x${key(v).toString('hex')}`);
        if (oldType === 'text') return (v) => (v === null ? null : idOfKey(key(v)));
      }
      // 0035: the fields an id appears in, space-separated text since, an array before
      if (oldType === 'ARRAY' && freshType === 'text')
        return (v) => (v === null || v === '' ? [] : String(v).split(' '));
      if (oldType !== 'text') return undefined;
      if (freshType === 'bytea') return (v) => (v === null ? null : idOfKey(v as Buffer));
      if (freshType === 'smallint') return (v) => (v === null ? null : txTypeOfCode(v as number));
      return undefined;
    };
    const columns = async (s: string): Promise<Map<string, Map<string, string>>> => {
      const rows = await query<{ t: string; c: string; type: string }>(
        `SELECT c.table_name AS t, c.column_name AS c, c.data_type AS type FROM information_schema.columns c
           JOIN information_schema.tables t USING (table_schema, table_name)
          WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE' ORDER BY c.table_name, c.ordinal_position`,
        [s],
      );
      const m = new Map<string, Map<string, string>>();
      for (const r of rows) m.set(r.t, (m.get(r.t) ?? new Map<string, string>()).set(r.c, r.type));
      return m;
    };
    const fresh = await columns(FRESH);
    await query('SET session_replication_role = replica');
    try {
      for (const [table, cols] of await columns(schema)) {
        const source = fresh.get(table);
        if (!source || skip(table) || table === 'mdw_migrations' || table === 'sync_state') continue;
        const kept = [...cols.keys()].filter((c) => source.has(c) || dropped[`${table}.${c}`] !== undefined);
        const value = (c: string): string => {
          const r = restored[`${table}.${c}`];
          if (r && !cols.has(r.marker)) return r.sql;
          return source.has(c) ? `a."${c}"` : dropped[`${table}.${c}`]!;
        };
        const select = `SELECT ${kept.map((c) => `${value(c)} AS "${c}"`).join(', ')} FROM "${FRESH}"."${table}" a`;
        const widened = kept.flatMap((c) => {
          const f = source.has(c)
            ? widen(source.get(c)!, cols.get(c)!, ID_NUMBER_COLUMNS[table] === c)
            : fromStored[`${table}.${c}`];
          return f ? [[c, f] as const] : [];
        });
        const names = kept.map((c) => `"${c}"`).join(', ');
        if (widened.length === 0) {
          await query(`INSERT INTO "${schema}"."${table}" (${names}) ${select}`);
          continue;
        }
        const rows = await query<Record<string, unknown>>(select);
        for (const row of rows) for (const [c, f] of widened) row[c] = f(row[c]);
        await query(
          `INSERT INTO "${schema}"."${table}" (${names})
           SELECT ${names} FROM json_populate_recordset(NULL::"${schema}"."${table}", $1::json)`,
          [stringifyJson(rows)],
        );
      }
      await query(
        `UPDATE "${schema}".sync_state SET (top_height, top_hash) = (SELECT top_height, top_hash FROM "${FRESH}".sync_state)`,
      );
    } finally {
      await query('SET session_replication_role = DEFAULT');
    }
  }

  /**
   * The node requests that read stored blocks again: a stored micro block's, or a generation or key block below the
   * top FORK_WINDOW ones (which the fork check reads at every poll).
   */
  function refetches(paths: readonly string[], top: number, storedMicroBlocks: ReadonlySet<string>): string[] {
    return paths.filter((p) => {
      const micro = /\/micro-blocks\/hash\/([^/]+)/.exec(p)?.[1];
      if (micro !== undefined) return storedMicroBlocks.has(micro);
      const height = /\/(?:generations|key-blocks)\/height\/(\d+)/.exec(p)?.[1];
      return height !== undefined && Number(height) < top - FORK_WINDOW;
    });
  }

  /** Every table's rows in `schema` equal the fresh load's (both ways), as `mdw -v --full` compares them. */
  async function expectEqualToFresh(schema: string): Promise<void> {
    const pool = createPool({ databaseUrl: db.url, schema, max: 1 }, silent);
    try {
      const differences: string[] = [];
      for (const table of await derivedTables(pool, FRESH)) {
        for (const [from, other] of [
          [FRESH, schema],
          [schema, FRESH],
        ] as const) {
          const only = await rowsOnlyIn(pool, table, { from, other, heightsOf: FRESH }, undefined, 3);
          if (only.total > 0) differences.push(`${table.name}: ${only.total} row(s) only in ${from}: ${only.rows[0]}`);
        }
      }
      expect(differences).to.deep.equal([]);
    } finally {
      await pool.end();
    }
  }

  /**
   * upgradeAndFollow migrates to the latest schema and runs the populator until synced and backfilled: the node
   * requests it made that read stored blocks again (of the heights below `keptBelow`, when the node replaced some).
   */
  async function upgradeAndFollow(
    schema: string,
    backfills: (string | { area: string; next_height: number })[],
    keptBelow = Infinity,
  ): Promise<string[]> {
    const stored = new Set(
      (
        await query<{ hash: string }>(`SELECT hash FROM "${schema}".micro_blocks WHERE height < $1`, [
          Number.isFinite(keptBelow) ? keptBelow : 2 ** 31 - 1,
        ])
      ).map((r) => r.hash),
    );
    await migrate({ databaseUrl: db.url, schema }, silent);
    const pending = await query<{ area: string; next_height: number; to_height: number }>(
      `SELECT area, next_height, to_height FROM "${schema}".derive_backfill ORDER BY area`,
    );
    const [{ top }] = (await query<{ top: number }>(`SELECT max(height) AS top FROM "${schema}".key_blocks`)) as [
      { top: number },
    ];
    expect(pending, 'what the migration asks to derive').to.deep.equal(
      backfills.map((b) =>
        typeof b === 'string' ? { area: b, next_height: 0, to_height: top } : { ...b, to_height: top },
      ),
    );
    const before = proxy.stats.paths.length;
    const populator = await startPopulator({
      cfg: config(schema, proxy.url),
      log: silent,
      registry: new prom.Registry(),
    });
    try {
      await populator.synced();
      // the backfill goes on beside the followed chain
      await waitFor(
        'the backfill to end',
        async () => (await query(`SELECT 1 FROM "${schema}".derive_backfill`)).length === 0,
        60_000,
      );
    } finally {
      await populator.stop();
    }
    return refetches(proxy.stats.paths.slice(before), top, stored);
  }

  before(async () => {
    devnode = await startDevnode(
      {
        port: 0,
        internalPort: 0,
        mine: false,
        microBlockIntervalMs: 0,
        // names, oracles, contracts, channels, AEX-9, AEX-141 and DEX traffic (a token transaction in two)
        generate: {
          generations: 60,
          microBlocksPerGeneration: 2,
          txsPerMicroBlock: 5,
          seed: 'upgrade',
          tokenShare: 0.5,
        },
      },
      silent,
    );
    db = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'mdw-upgrade-'));
    await writeFile(join(dir, 'accounts_ae_devnet.json'), genesisAccountsJson(devnode.chain));
    proxy = await startFaultProxy(devnode.externalUrl);
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await populate(FRESH);
  });
  after(async () => {
    await client?.end();
    await proxy?.close();
    await devnode?.stop();
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a database stored before the internal transfers (0012) gets its transfers, fees and statistics from its rows', async () => {
    await oldSchema('before_0012', '0011_v3_transfers');
    await copyChain('before_0012', () => false);
    const [stored] = await query<{ n: string }>('SELECT count(*) AS n FROM before_0012.transactions');
    expect(Number(stored!.n)).to.be.greaterThan(100);

    const refetched = await upgradeAndFollow('before_0012', ['stats', 'tokens', 'transfers']);
    expect(refetched, 'blocks of stored heights fetched again').to.deep.equal([]);
    await expectEqualToFresh('before_0012');
    // the backfill is done and recorded so: it never runs again
    expect(await query('SELECT * FROM before_0012.derive_backfill')).to.deep.equal([]);
    // and none of them is empty: the chain has rewards, fees, statistics and each kind of token row
    for (const table of [
      "internal_transfers WHERE kind = 'reward_block'",
      'generation_fees',
      'stats_generations',
      'aexn_contracts',
      'aexn_call_created',
      'aex9_events',
      'aex141_events',
      'dex_pairs',
      'dex_swaps',
    ]) {
      const [n] = await query<{ n: string }>(`SELECT count(*) AS n FROM before_0012.${table}`);
      expect(Number(n!.n), table).to.be.greaterThan(0);
    }
  });

  it('a database stored as JSON (before 0084) converts its transactions in place, a killed conversion going on', async () => {
    await oldSchema('before_0084', '0083_derived_statement_cascade');
    await copyChain('before_0084', () => false);
    await oldSchema('before_0084', '0084_transactions_signed');
    const types = await query<{ t: string }>('SELECT DISTINCT tx_type AS t FROM before_0084.transactions');
    expect(types.length, 'transaction types stored').to.be.greaterThan(15);
    // the data step (0085) is killed after its second batch
    await client.query('SET search_path TO before_0084');
    let batches = 0;
    const dying = Object.assign(Object.create(silent) as typeof silent, {
      info: (_fields: object, msg: string) => {
        if (msg === 'converting stored transactions' && ++batches === 2) throw new Error('killed');
      },
    });
    await fillSignedTransactions(client as unknown as PoolClient, dying, 40).then(
      () => expect.fail('the step was not killed'),
      (err: Error) => expect(err.message).to.equal('killed'),
    );
    await client.query('SET search_path TO DEFAULT');
    const [half] = await query<{ n: string; all: string }>(
      'SELECT count(signed) AS n, count(*) AS all FROM before_0084.transactions',
    );
    expect(Number(half!.n)).to.equal(80);
    expect(Number(half!.all)).to.be.greaterThan(80);
    // the next start goes on, drops the JSON and ends with the rows of a fresh load
    expect(await migrate({ databaseUrl: db.url, schema: 'before_0084' }, silent)).to.include.members([
      '0085_transactions_signed_fill',
      '0086_transactions_drop_json',
      '0087_transactions_without_block_hash',
    ]);
    await expectEqualToFresh('before_0084');
    // and every transaction answers as in the fresh load, in both APIs
    const hashes = await query<{ hash: string }>('SELECT hash FROM before_0084.transactions');
    const answersOf = new Map<string, unknown[]>();
    for (const schema of ['before_0084', FRESH]) {
      const pool = createPool({ databaseUrl: db.url, schema, max: 1 }, silent);
      try {
        const answers = [];
        for (const { hash } of hashes) {
          const v3 = await v3TransactionByHash(pool, hash);
          answers.push((await transactionJson(pool, hash))?.json, v3 && v3TransactionJson(v3));
        }
        answersOf.set(schema, answers);
      } finally {
        await pool.end();
      }
    }
    expect(answersOf.get('before_0084')).to.deep.equal(answersOf.get(FRESH));
  });

  it('a backfill killed mid-way goes on from its last commit in the next process, announcing each batch', async () => {
    await oldSchema('killed', '0011_v3_transfers');
    await copyChain('killed', () => false);
    await migrate({ databaseUrl: db.url, schema: 'killed' }, silent);
    // two connections for the backfill, one for the listener
    const pool = createPool({ databaseUrl: db.url, schema: 'killed', max: 3 }, silent);
    // servers hear of each batch, so their cached statistics and answers follow the backfill
    const heard: ChainNotification[] = [];
    const listener = new NotificationListener({ pool, channel: notifyChannel('killed'), log: silent });
    listener.subscribe({ onNotification: (payload) => void heard.push(decodeNotification(payload)!) });
    await listener.start();
    const logs: { msg: string; area?: string; from?: number }[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });
    const rules = await transferRulesOf(config('killed'));
    const node = new NodeClient({ url: devnode.externalUrl, timeoutMs: 5000 }, silent);
    // a new process: its own reader and backfill, which read where to go on from the database
    const backfill = (): DeriveBackfill =>
      new DeriveBackfill({
        pool,
        log,
        rules,
        detector: contractReaders(config('killed'), pool, node).aexn,
        batchHeights: 7,
        schema: 'killed',
      });
    try {
      // two committed batches, then the process is gone
      const first = backfill();
      expect(await first.step()).to.equal(true);
      expect(await first.step()).to.equal(true);
      expect(await query("SELECT next_height FROM killed.derive_backfill WHERE area = 'transfers'")).to.deep.equal([
        { next_height: 14 },
      ]);
      await waitFor('the two batches announced', () => heard.length === 2);
      expect(heard).to.deep.equal([
        { from: 0, to: 6, derived: true },
        { from: 7, to: 13, derived: true },
      ]);
      const second = backfill();
      while (await second.step());
      const starts = logs.filter((l) => l.msg.startsWith('deriving an area for stored heights from the stored rows'));
      expect(starts.map((l) => [l.area, l.from])).to.deep.equal([
        ['transfers', 0],
        ['transfers', 14],
        ['tokens', 0],
        ['stats', 0],
      ]);
    } finally {
      await listener.stop();
      await pool.end();
    }
    await expectEqualToFresh('killed');
    expect(await query('SELECT * FROM killed.derive_backfill')).to.deep.equal([]);
  });

  it('a database the first 0070/0071 marked for a full re-derivation is backfilled instead, the mark cleared', async () => {
    // stored before 0070; then the first 0070/0071 ran (a run of their own), which left no statistics for the
    // stored heights and rederive_from at 0
    await oldSchema('first_0071', '0069_none');
    await copyChain('first_0071', () => false);
    await oldSchema('first_0071', '0071_stats_miner_rewards');
    await query('UPDATE first_0071.sync_state SET rederive_from = 0');

    const refetched = await upgradeAndFollow('first_0071', ['stats']);
    expect(refetched, 'blocks of stored heights fetched again').to.deep.equal([]);
    expect(await query('SELECT rederive_from FROM first_0071.sync_state')).to.deep.equal([{ rederive_from: null }]);
    await expectEqualToFresh('first_0071');
  });

  it('a database the first 0070/0071 left half re-derived goes on from their mark, without the node', async () => {
    // stored before 0070; the first 0070 derived statistics by reloading heights, the first 0071 then asked for
    // all of it again (its minted columns 0, no miners' rewards) and the reload had reached height 20 when the
    // populator stopped: statistics below 20 are right, those above are the first 0070's
    await oldSchema('half', '0069_none');
    await copyChain('half', () => false);
    await oldSchema('half', '0071_stats_miner_rewards');
    await copyChain('half', (t) => !t.startsWith('stats_'));
    await query('UPDATE half.stats_generations SET minted = 0, sum_minted = 0 WHERE height >= 20');
    await query('DELETE FROM half.stats_miner_rewards WHERE height >= 20');
    await query('UPDATE half.sync_state SET rederive_from = 20');

    const refetched = await upgradeAndFollow('half', [{ area: 'stats', next_height: 20 }]);
    expect(refetched, 'blocks of stored heights fetched again').to.deep.equal([]);
    expect(await query('SELECT rederive_from FROM half.sync_state')).to.deep.equal([{ rederive_from: null }]);
    await expectEqualToFresh('half');
  });

  it('a database whose name fees were booked by the old rules (before 0099) derives its transfers again from the first', async () => {
    await oldSchema('old_fees', '0098_micro_block_header_prev_hashes');
    await copyChain('old_fees', () => false);
    // the old booking: a lock at every claim or bid with a fee, a spend at the auction's end, refunds referring to
    // the outbidding bid
    await query(
      `UPDATE old_fees.internal_transfers SET kind = 'fee_spend_name' WHERE kind = 'fee_lock_name' AND micro_index = -1`,
    );
    await query(
      `DELETE FROM old_fees.internal_transfers WHERE kind IN ('fee_lock_name', 'fee_spend_name') AND micro_index >= 0`,
    );
    await query(`INSERT INTO old_fees.internal_transfers (height, micro_index, tx_index, kind, account_id, ref_tx_hash, amount)
                 SELECT height, micro_index, tx_index, 'fee_lock_name', owner, tx_hash, name_fee FROM old_fees.name_events
                  WHERE kind IN ('claim', 'bid') AND name_fee IS NOT NULL`);
    await query(`UPDATE old_fees.internal_transfers t SET ref_tx_hash = e.tx_hash FROM old_fees.name_events e
                  WHERE t.kind = 'fee_refund_name' AND (e.height, e.micro_index, e.tx_index) = (t.height, t.micro_index, t.tx_index)`);
    const [auctions] = await query<{ n: string }>(
      `SELECT count(*) AS n FROM old_fees.name_events WHERE kind = 'bid' AND auction_end IS NOT NULL`,
    );
    expect(Number(auctions!.n), 'bids in auctions on the chain').to.be.greaterThan(0);
    // the first height whose internal transfers differ from the fresh load's
    const [first] = await query<{ h: number }>(
      `SELECT min(height) AS h FROM (
         (SELECT * FROM old_fees.internal_transfers EXCEPT SELECT * FROM "${FRESH}".internal_transfers)
         UNION ALL (SELECT * FROM "${FRESH}".internal_transfers EXCEPT SELECT * FROM old_fees.internal_transfers)) d`,
    );
    expect(first!.h, 'the old booking differs').to.be.a('number');

    const refetched = await upgradeAndFollow('old_fees', [
      { area: 'stats', next_height: first!.h },
      { area: 'transfers', next_height: first!.h },
    ]);
    expect(refetched, 'blocks of stored heights fetched again').to.deep.equal([]);
    await expectEqualToFresh('old_fees');
  });

  it('keeps a re-derive mark that did not come from the first 0070/0071 (they run in this same migration)', async () => {
    await oldSchema('genuine_mark', '0069_none');
    await copyChain('genuine_mark', () => false);
    await query('UPDATE genuine_mark.sync_state SET rederive_from = 30');
    await migrate({ databaseUrl: db.url, schema: 'genuine_mark' }, silent);
    expect(await query('SELECT rederive_from FROM genuine_mark.sync_state')).to.deep.equal([{ rederive_from: 30 }]);
    expect(await query('SELECT area, next_height FROM genuine_mark.derive_backfill')).to.deep.equal([
      { area: 'stats', next_height: 0 },
    ]);
  });

  it('mdw -v re-derives the transfers and statistics from the stored rows and reports each difference', async () => {
    const verify = async (): Promise<string[]> => {
      const lines: string[] = [];
      await verifyChain({ cfg: config(FRESH), log: silent, out: (l) => lines.push(l) }, {});
      return lines;
    };
    expect(await verify()).to.deep.equal([]);
    await query(`UPDATE "${FRESH}".generation_fees SET fees = fees + 1 WHERE height = 20`);
    await query(`UPDATE "${FRESH}".stats_miners SET total_reward = total_reward + 1`);
    try {
      const lines = await verify();
      expect(lines.filter((l) => l.startsWith('derived generation_fees: row only in the database'))).to.have.length(1);
      expect(lines.filter((l) => l.startsWith('derived generation_fees: row only re-derived'))).to.have.length(1);
      expect(lines.find((l) => l.startsWith('derived generation_fees: row only in the database'))).to.contain(
        '"height":20,',
      );
      expect(lines.some((l) => l.startsWith('derived stats_miners: row only in the database'))).to.equal(true);
      expect(lines.every((l) => /^derived (generation_fees|stats_miners): /.test(l))).to.equal(true);
    } finally {
      await query(`UPDATE "${FRESH}".generation_fees SET fees = fees - 1 WHERE height = 20`);
      await query(`UPDATE "${FRESH}".stats_miners SET total_reward = total_reward - 1`);
    }
    // a statistics row gone is found too, and a pending backfill says why nothing is compared
    const [gone] = await query<Record<string, unknown>>(
      `DELETE FROM "${FRESH}".stats_generations WHERE height = 33 RETURNING *`,
    );
    try {
      expect(
        (await verify()).filter((l) => l.startsWith('derived stats_generations: row only re-derived')),
      ).to.have.length(1);
      await query(`INSERT INTO "${FRESH}".derive_backfill VALUES ('stats', 33, 33)`);
      expect(await verify()).to.deep.equal([
        'derived areas not compared: the populator is still deriving stats (heights 33-33) from the stored rows',
      ]);
    } finally {
      await query(`DELETE FROM "${FRESH}".derive_backfill`);
      await query(
        `INSERT INTO "${FRESH}".stats_generations SELECT * FROM json_populate_record(NULL::"${FRESH}".stats_generations, $1)`,
        [JSON.stringify(gone)],
      );
    }
    expect(await verify()).to.deep.equal([]);
  });

  it('a derivation that always fails is reported once, defers its heights while the chain is followed, and catches up', async () => {
    const logs: { level: number; msg: string; area?: string }[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });
    const registry = new prom.Registry();
    const failingMetric = async (): Promise<string> =>
      (await registry.getSingleMetricAsString('mdw_derive_failing')).split('\n').find((l) => l.includes('"stats"')) ??
      '';
    // every write of statistics fails from now on
    await query(`CREATE FUNCTION "${FRESH}".stats_broken() RETURNS trigger LANGUAGE plpgsql AS $$
                 BEGIN RAISE EXCEPTION 'statistics broken on purpose'; END $$`);
    await query(`CREATE TRIGGER stats_broken BEFORE INSERT ON "${FRESH}".stats_generations
                 FOR EACH STATEMENT EXECUTE PROCEDURE "${FRESH}".stats_broken()`);
    const populator = await startPopulator({ cfg: config(FRESH), log, registry });
    const storedTop = async (): Promise<number> =>
      (await query<{ h: number }>(`SELECT max(height) AS h FROM "${FRESH}".key_blocks`))[0]!.h;
    try {
      await populator.synced();
      const before = devnode.height();
      for (let i = 0; i < 3; i++) await devnode.mineKeyBlock();
      // the chain is followed all the same
      await waitFor('the new heights', async () => (await storedTop()) === before + 3, 30_000);
      await waitFor('the failure recorded', async () => (await failingMetric()).endsWith(' 1'), 30_000);
      const pool = createPool({ databaseUrl: db.url, schema: FRESH, max: 1 }, silent);
      try {
        const state = await syncState(pool);
        expect(state.derivations).to.have.length(1);
        expect(state.derivations![0]).to.include({ area: 'stats', next: before + 1, to: before + 3 });
        expect(state.derivations![0]!.error).to.contain('statistics broken on purpose');
        expect(state.derivations![0]!.failingSince).to.be.instanceOf(Date);
      } finally {
        await pool.end();
      }
      // one error however many retries
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(logs.filter((l) => l.level === 50 && l.area === 'stats')).to.have.length(1);
      await query(`DROP TRIGGER stats_broken ON "${FRESH}".stats_generations`);
      await waitFor(
        'the deferred heights derived',
        async () => (await query(`SELECT 1 FROM "${FRESH}".derive_backfill`)).length === 0,
        90_000,
      );
      expect(await failingMetric()).to.match(/ 0$/);
      expect(logs.filter((l) => l.msg === 'deriving the area works again' && l.area === 'stats')).to.have.length(1);
    } finally {
      await populator.stop();
      await query(`DROP TRIGGER IF EXISTS stats_broken ON "${FRESH}".stats_generations`);
    }
    // and what it derived late equals a derivation from the stored rows (as the verify above compares)
    const lines: string[] = [];
    await verifyChain({ cfg: config(FRESH), log: silent, out: (l) => lines.push(l) }, {});
    expect(lines).to.deep.equal([]);
  });

  it('follows a fork and new blocks while the backfill runs, and ends as a fresh load of the new chain', async () => {
    await oldSchema('busy', '0011_v3_transfers');
    await copyChain('busy', () => false);
    // the node replaces the top generations (their token calls touch contracts created long before) and grows
    await devnode.fork(4);
    await devnode.mineKeyBlock();
    await devnode.mineKeyBlock();
    // a fork's handling reloads the last height both chains share (the fork base) with the replaced ones
    const forkBase = devnode.height() - 2 - 4;
    const refetched = await upgradeAndFollow('busy', ['stats', 'tokens', 'transfers'], forkBase);
    expect(refetched, 'blocks of stored heights fetched again').to.deep.equal([]);
    const top = devnode.height();
    expect(await query('SELECT max(height) AS h FROM busy.key_blocks')).to.deep.equal([{ h: top }]);
    await populate(FRESH);
    await expectEqualToFresh('busy');
  });
});
