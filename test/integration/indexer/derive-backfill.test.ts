/**
 * @module The derive backfill: a database whose stored heights lack the rows of derived areas (internal transfers and
 * generation fees, tokens, statistics; recorded in derive_backfill, as a failing derivation leaves them) gets them
 * from the rows it stores, never by fetching the chain again, in batches that survive a kill, beside a followed
 * chain and its forks, and ends equal to a fresh load of the same chain.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import prom from 'prom-client';
import { loadConfig, type Config } from '../../../src/config/middleware.ts';
import { migrate } from '../../../src/db/schema/migrator.ts';
import { createPool } from '../../../src/db/connection/pool.ts';
import { syncState } from '../../../src/db/queries/sync-state.ts';
import { genesisAccountsJson } from '../../../src/devnode/devnode.ts';
import type { Devnode } from '../../../src/devnode/index.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { DeriveBackfill } from '../../../src/indexer/derived/derive-backfill.ts';
import { NotificationListener } from '../../../src/events/listener.ts';
import { decodeNotification, notifyChannel, type ChainNotification } from '../../../src/db/connection/notification.ts';
import { contractReaders } from '../../../src/indexer/contracts/aexn-detector.ts';
import { transferRulesOf } from '../../../src/indexer/derived/internal-transfers.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { silent, waitFor } from './support/harness.ts';
import { rowsApart } from './support/schema-rows.ts';
import { populateToTop } from '../../support/populate.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';
import { aeBalancesApart } from '../../support/ae-balances-truth.ts';

/**
 * The fresh load's schema: the one the database comes with migrated (a copy of the run's template, which other files
 * make first in a full run), which the populator finds up to date; a schema of its own name cost a migration (a quarter
 * second, PostgreSQL's mostly).
 */
const FRESH = 'mdw';
const FORK_WINDOW = 5;

describe('a stored database derives its missing derived rows from its stored rows', function () {
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

  /** Tables of the derived areas (src/indexer/derived/derived-areas.ts DERIVED_AREAS): transfers, tokens, balances, statistics, spends. */
  const DERIVED =
    /^(internal_transfers|generation_fees|aexn_|aex9_|aex141_|dex_|account_balances|account_wealth|account_holders|stats_|spend_)/;

  /**
   * storedWithoutDerived gives `schema` the fresh load's chain without the rows of the derived areas, and records
   * every stored height as still to derive for each area (as the populator records the heights of an area whose
   * derivation failed): the backfill then derives them from the stored rows. Rows are copied with triggers off, as a
   * restore does; `keep` tables are copied too.
   */
  async function storedWithoutDerived(schema: string, keep: (table: string) => boolean = () => false): Promise<void> {
    await migrate({ databaseUrl: db.url, schema }, silent);
    const tables = await query<{ t: string }>(
      `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`,
      [FRESH],
    );
    await query('SET session_replication_role = replica');
    try {
      for (const { t } of tables) {
        if ((DERIVED.test(t) && !keep(t)) || ['mdw_migrations', 'sync_state', 'derive_backfill'].includes(t)) continue;
        // a kept one-row table (key_block_count) holds the migration's row: the fresh load's replaces it
        await query(`DELETE FROM "${schema}"."${t}"`);
        await query(`INSERT INTO "${schema}"."${t}" SELECT * FROM "${FRESH}"."${t}"`);
      }
      await query(
        `UPDATE "${schema}".sync_state SET (top_height, top_hash) = (SELECT top_height, top_hash FROM "${FRESH}".sync_state)`,
      );
      // the channels' states after each transaction, as a schema stored before migration 1051 has none
      await query(`UPDATE "${schema}".channel_events SET round = NULL, solo_round = NULL, state_hash = NULL`);
      await query(`INSERT INTO "${schema}".derive_backfill (area, next_height, to_height)
                   SELECT area, 0, (SELECT max(height) FROM "${schema}".key_blocks)
                     FROM unnest(ARRAY['stats', 'tokens', 'transfers', 'balances', 'channels', 'spends']) AS area`);
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
    expect(await rowsApart(db.url, FRESH, schema)).to.deep.equal([]);
  }

  /**
   * deriveAndFollow runs the populator until synced and backfilled: the node requests it made that read stored
   * blocks again (of the heights below `keptBelow`, when the node replaced some).
   */
  async function deriveAndFollow(
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
    const pending = await query<{ area: string; next_height: number; to_height: number }>(
      `SELECT area, next_height, to_height FROM "${schema}".derive_backfill ORDER BY area`,
    );
    const [{ top }] = (await query<{ top: number }>(`SELECT max(height) AS top FROM "${schema}".key_blocks`)) as [
      { top: number },
    ];
    expect(pending, 'what is recorded to derive').to.deep.equal(
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
    // names, oracles, contracts, channels, AEX-9, AEX-141 and DEX traffic (a token transaction in two); 40 generations
    // hold every kind of derived row (the first case asserts none empty) and three capped stretches (the catch-up's)
    devnode = await startGeneratedDevnode({
      generations: 40,
      microBlocksPerGeneration: 2,
      txsPerMicroBlock: 5,
      seed: 'upgrade',
      tokenShare: 0.5,
    });
    db = await createTestDatabase({ migrated: FRESH });
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

  it('a database whose derived areas wait for every stored height gets its transfers, fees, tokens, statistics, channel states and spends from its rows', async () => {
    await storedWithoutDerived('stored');
    const [stored] = await query<{ n: string }>('SELECT count(*) AS n FROM stored.transactions');
    expect(Number(stored!.n)).to.be.greaterThan(100);

    const refetched = await deriveAndFollow('stored', [
      'balances',
      'channels',
      'spends',
      'stats',
      'tokens',
      'transfers',
    ]);
    expect(refetched, 'blocks of stored heights fetched again').to.deep.equal([]);
    await expectEqualToFresh('stored');
    // the backfill is done and recorded so: it never runs again
    expect(await query('SELECT * FROM stored.derive_backfill')).to.deep.equal([]);
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
      'channel_events WHERE round IS NOT NULL',
      'spend_days',
    ]) {
      const [n] = await query<{ n: string }>(`SELECT count(*) AS n FROM stored.${table}`);
      expect(Number(n!.n), table).to.be.greaterThan(0);
    }
  });

  it('a backfill killed mid-way goes on from its last commit in the next process, announcing each batch', async () => {
    await storedWithoutDerived('killed');
    // two connections for the backfill, one for the listener
    const pool = createPool({ databaseUrl: db.url, schema: 'killed', max: 3 }, silent);
    // servers hear of each batch, so their cached statistics and answers follow the backfill
    const heard: ChainNotification[] = [];
    const listener = new NotificationListener({ pool, channel: notifyChannel('killed'), log: silent });
    listener.subscribe({ onNotification: (payload) => void heard.push(decodeNotification(payload)!) });
    await listener.start();
    const logs: { msg: string; area?: string; from?: number }[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });
    const rules = await transferRulesOf(config('killed'), { hyperchain: false });
    const node = new NodeClient({ url: devnode.externalUrl, timeoutMs: 5000 }, silent);
    // a new process: its own reader and backfill, which read where to go on from the database
    const backfill = (): DeriveBackfill =>
      new DeriveBackfill({
        pool,
        log,
        rules,
        detector: contractReaders(config('killed'), pool, node).aexn,
        balances: node,
        internalCalls: node,
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
        ['balances', 0],
        ['channels', 0],
        ['spends', 0],
      ]);
    } finally {
      await listener.stop();
      await pool.end();
    }
    await expectEqualToFresh('killed');
    expect(await query('SELECT * FROM killed.derive_backfill')).to.deep.equal([]);
  });

  it('a catch-up derives the balances in stretches of at most the cap of transactions, as the devnode has them (issue 76)', async () => {
    const CAP = 70;
    // every other area derived as the fresh load has it; the balances and their changes wait for every stored height
    await storedWithoutDerived('capped', (table) => !table.startsWith('account_'));
    await query("DELETE FROM capped.derive_backfill WHERE area <> 'balances'");
    await query('DELETE FROM capped.account_balance_changes');
    const pool = createPool({ databaseUrl: db.url, schema: 'capped', max: 2 }, silent);
    const node = new NodeClient({ url: devnode.externalUrl, timeoutMs: 5000 }, silent);
    const backfill = new DeriveBackfill({
      pool,
      log: silent,
      rules: await transferRulesOf(config('capped'), { hyperchain: false }),
      balances: node,
      internalCalls: node,
      batchHeights: 500,
      schema: 'capped',
      gatheredTransactions: CAP,
    });
    const top = devnode.chain.height;
    const transactions = (from: number, to: number): number =>
      devnode.chain.keyBlocks
        .slice(from, to + 1)
        .reduce((n, k) => n + k.micro.reduce((m, mb) => m + mb.txs.length, 0), 0);
    const next = async (): Promise<number> =>
      (await query<{ n: number }>("SELECT next_height AS n FROM capped.derive_backfill WHERE area = 'balances'"))[0]
        ?.n ?? top + 1;
    try {
      // catching up, far fewer heights than a stretch's are pending, but more than a stretch's transactions
      const stretches: { from: number; to: number }[] = [];
      let from = await next();
      while (await backfill.step({ catchingUp: true })) {
        const to = (await next()) - 1;
        stretches.push({ from, to });
        from = to + 1;
      }
      expect(stretches.length, 'capped stretches').to.be.at.least(3);
      // each ends where the next height would take it past the cap
      for (const { from, to } of stretches) {
        expect(transactions(from, to), `heights ${from}-${to}`).to.be.at.most(CAP);
        expect(transactions(from, to + 1), `heights ${from}-${to + 1}`).to.be.above(CAP);
      }
      // what is left holds fewer than a stretch's transactions: it waits for more heights until caught up
      const rest = await next();
      expect(transactions(rest, top)).to.be.below(CAP);
      while (await backfill.step());
      expect(await query('SELECT * FROM capped.derive_backfill')).to.deep.equal([]);
      // every account's balance after every height is the devnode's, and the latest ones the fresh load's
      const heights = Array.from({ length: top + 1 }, (_, h) => h);
      expect(await aeBalancesApart(pool, devnode.chain, heights)).to.deep.equal([]);
      const latest = (schema: string): string =>
        `SELECT DISTINCT ON (account_id) account_id, balance FROM "${schema}".account_balances
          ORDER BY account_id, height DESC`;
      expect(await query(`(${latest('capped')}) EXCEPT (${latest(FRESH)})`)).to.deep.equal([]);
      expect(await query(`(${latest(FRESH)}) EXCEPT (${latest('capped')})`)).to.deep.equal([]);
    } finally {
      await pool.end();
    }
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
    await storedWithoutDerived('busy');
    // the node replaces the top generations (their token calls touch contracts created long before) and grows
    await devnode.fork(4);
    await devnode.mineKeyBlock();
    await devnode.mineKeyBlock();
    // a fork's handling reloads the last height both chains share (the fork base) with the replaced ones
    const forkBase = devnode.height() - 2 - 4;
    const refetched = await deriveAndFollow(
      'busy',
      ['balances', 'channels', 'spends', 'stats', 'tokens', 'transfers'],
      forkBase,
    );
    expect(refetched, 'blocks of stored heights fetched again').to.deep.equal([]);
    const top = devnode.height();
    expect(await query('SELECT max(height) AS h FROM busy.key_blocks')).to.deep.equal([{ h: top }]);
    await populate(FRESH);
    await expectEqualToFresh('busy');
  });
});
