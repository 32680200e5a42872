/**
 * @module A failed populator step retried while catching up from genesis gives exactly the rows a load without the
 * failure gives (the balances gathered over the catch-up and derived at its end above all): every account's balance is
 * the devnode's at every height, no change is left 'unexplained', and every table equals the unfailed load's row for
 * row, which `mdw -v --full` finds clean (the comparison `-v --full` makes with its scratch load, a load without a
 * failure: one run of it, not one per load). Each load is a schema of one database. Each case fails one thing once at a
 * point of the catch-up: a statement (a trigger raising at its nth firing; a sequence counts the firings, whatever the
 * transactions roll back), or a request for a pooled connection, as the pool's connect timeout fails it
 * (bench/own-instructions-ab.ts met one under valgrind; the 'unexplained' balances it logged after it come with every
 * load of its chain, failed or not, from the calls no dry-run tells). Of all the points only the decoder's read of a contract's code lost something: the call's
 * decoding, its decode error the timeout's message for good (contract-decoder.ts throws it now).
 */
import { expect } from 'chai';
import pg from 'pg';
import prom from 'prom-client';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { aeBalancesApart, unexplainedChanges } from '../../support/ae-balances-truth.ts';
import { capturedLog } from '../../support/captured-log.ts';
import { migrate } from '../../../src/db/schema/migrator.ts';
import { nodeSettings, silent, startHarness, verifyClean, waitFor, type Harness } from './support/harness.ts';
import { rowsApart } from './support/schema-rows.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';

/** A statement failed once: the nth of `event` on `table` whose text holds `holding` (any when absent). */
interface StatementFault {
  readonly kind: 'statement';
  readonly table: string;
  readonly event: 'INSERT' | 'UPDATE';
  readonly nth: number;
  readonly holding?: string;
}

/**
 * A request for a pooled connection failed once, as the pool's connect timeout fails it: the nth query of the
 * populator's pools named `query`, or the nth transaction of its batches' pool (its pool of one connection).
 */
interface ConnectFault {
  readonly kind: 'connect';
  readonly nth: number;
  readonly query?: string;
}

type Fault = (StatementFault | ConnectFault) & { readonly name: string; readonly says: string };

const STEP_FAILED = 'populator step failed; retrying';
const AREA_FAILED = 'deriving an area fails: its heights are deferred and retried while the chain is followed';
const INJECTED = 'injected fault';
/** pg-pool's own message */
const CONNECT_TIMEOUT = 'timeout exceeded when trying to connect';

// one point per kind of state a retry must rebuild (a batch's rows, a committed batch's kept transactions, the
// stretch, the backfill's progress, a connection, the decoder's code): more points were tried once, and lost nothing
const FAULTS: readonly Fault[] = [
  { name: "a batch's first row", kind: 'statement', table: 'key_blocks', event: 'INSERT', nth: 3, says: STEP_FAILED },
  // the batch committed, its written transactions kept for the stretch; the step fails after it
  {
    name: 'the heartbeat after a batch committed',
    kind: 'statement',
    table: 'sync_state',
    event: 'UPDATE',
    nth: 4,
    holding: 'heartbeat_at',
    says: STEP_FAILED,
  },
  {
    name: "the gathered balances' stretch, writing its changes",
    kind: 'statement',
    table: 'account_balance_changes',
    event: 'INSERT',
    nth: 1,
    says: AREA_FAILED,
  },
  // its kept transactions forgotten already: the stretch derived again reads them back
  {
    name: "the backfill's step, recording the stretch's progress",
    kind: 'statement',
    table: 'derive_backfill',
    event: 'UPDATE',
    nth: 1,
    holding: 'SET next_height = $2',
    says: AREA_FAILED,
  },
  { name: "a batch's transaction, its connection", kind: 'connect', nth: 3, says: STEP_FAILED },
  // the decoder's read of the called contracts' code: once stored as the calls' decode error, for good
  {
    name: "a batch's decoding, reading a contract's code",
    kind: 'connect',
    nth: 2,
    query: 'mdw_contract_create_txs',
    says: STEP_FAILED,
  },
];

describe('a failed populator step retried while catching up loses nothing of the balances', function () {
  this.timeout(600_000);
  let h: Harness;
  let env: Record<string, string>;
  /** the balances' tables as a load without a fault leaves them */
  let unfailed: Record<string, unknown[]>;

  before(async () => {
    // 30 generations, not 60 (six batches of 5, seven loads): every fault still fires once, mid catch-up (asserted),
    // the decoder's at the second batch reading a called contract's code
    h = await startHarness(30, 'retry-balances', {}, { REWARD_RULES: 'devnode' });
    env = { ...(await nodeSettings(h)), BATCH_SIZE: '5' };
    unfailed = await load('mdw');
  });

  after(async () => {
    await h?.close();
  });

  /**
   * load loads the devnode's chain from genesis into `schema` of the harness's database (migrated first, for a fault's
   * trigger), checks it, and gives the balances' rows.
   */
  async function load(schema: string, fault?: Fault): Promise<Record<string, unknown[]>> {
    const url = h.db.url;
    const cfg = h.config({ ...env, DATABASE_SCHEMA: schema });
    if (schema !== 'mdw') await migrate({ databaseUrl: url, schema }, silent);
    const pool = createPool({ databaseUrl: url, schema, max: 2 }, silent);
    const injected = fault?.kind === 'connect' ? failConnect(fault) : undefined;
    try {
      if (fault?.kind === 'statement') await failStatement(pool, fault);
      const { log, lines } = capturedLog('info');
      const populator = await startPopulator({ cfg, log, registry: new prom.Registry() });
      try {
        await populator.synced();
        // an area whose derivation failed is derived again a backoff later: synced does not wait for it
        await waitFor(
          'the derived areas whole',
          async () => (await pool.query('SELECT 1 FROM derive_backfill')).rows.length === 0,
          60_000,
        );
      } finally {
        await populator.stop();
      }
      const said = lines.filter((l) => l.level >= 40).map((l) => `${l.msg}: ${String(l.err)}`);
      if (fault) {
        const fired = fault.kind === 'connect' ? injected!.fired() : await statementsFailed(pool);
        expect(fired, 'the fault injected').to.equal(1);
        const cause = fault.kind === 'connect' ? CONNECT_TIMEOUT : INJECTED;
        expect(said.filter((l) => l.startsWith(`${fault.says}: `) && l.endsWith(cause))).to.have.length(1);
      }
      expect(
        said.filter((l) => !l.endsWith(INJECTED) && !l.endsWith(CONNECT_TIMEOUT)),
        'warnings but the fault’s',
      ).to.deep.equal([]);
      expect(await unexplainedChanges(pool)).to.deep.equal([]);
      const heights = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
      expect(await aeBalancesApart(pool, h.devnode.chain, heights)).to.deep.equal([]);
      return await balanceRows(pool);
    } finally {
      injected?.restore();
      await pool.end();
    }
  }

  it('loads the chain unfailed as the node has it (mdw -v --full)', async () => {
    // its scratch load in batches of 100 (FULL_VERIFY_BATCH), the loads' of 5: the derived rows compared come from two
    // batchings, and the scratch pays a batch's steps once, not seven times
    await verifyClean(h, { ...env, ...FULL_VERIFY_BATCH });
  });

  for (const [i, fault] of FAULTS.entries())
    it(`${fault.name} failing once`, async () => {
      const schema = `fault_${i}`;
      expect(await load(schema, fault)).to.deep.equal(unfailed);
      // every other table (the balances' follow the batches: compared above), as `-v --full` compares its scratch load
      expect(await rowsApart(h.db.url, 'mdw', schema)).to.deep.equal([]);
    });
});

/** failStatement makes the nth statement of the fault's event on its table (holding its text) raise, once. */
async function failStatement(pool: Pool, fault: StatementFault): Promise<void> {
  await pool.query('CREATE SEQUENCE mdw_fault_seq');
  await pool.query(`CREATE FUNCTION mdw_fault() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF strpos(current_query(), TG_ARGV[1]) > 0 AND nextval('mdw_fault_seq') = TG_ARGV[0]::bigint THEN
        RAISE EXCEPTION '${INJECTED}';
      END IF;
      RETURN NULL;
    END $$`);
  await pool.query(
    `CREATE TRIGGER mdw_fault AFTER ${fault.event} ON ${fault.table}
       FOR EACH STATEMENT EXECUTE FUNCTION mdw_fault('${fault.nth}', '${fault.holding ?? ''}')`,
  );
}

/** statementsFailed is how many statements the trigger failed (its sequence went past the nth at most once). */
async function statementsFailed(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string; called: boolean }>(
    'SELECT last_value::text AS n, is_called AS called FROM mdw_fault_seq',
  );
  return rows[0]!.called ? 1 : 0;
}

type PooledConnect = (this: pg.Pool, ...args: unknown[]) => unknown;

/**
 * failConnect makes the populator's pools (application_name mdw-populator) refuse one request for a connection as the
 * pool's connect timeout does: the fault's nth query named `query`, else the nth transaction of its batches' pool.
 */
function failConnect(fault: ConnectFault): { fired(): number; restore(): void } {
  const proto = pg.Pool.prototype as unknown as { query: PooledConnect; connect: PooledConnect };
  const { query, connect } = proto;
  const populators = (pool: pg.Pool): boolean =>
    (pool as unknown as { options: { application_name?: string } }).options.application_name === 'mdw-populator';
  let seen = 0;
  let fired = 0;
  const refuse = (callback: unknown): unknown => {
    fired++;
    const err = new Error(CONNECT_TIMEOUT);
    if (typeof callback !== 'function') return Promise.reject(err);
    process.nextTick(() => (callback as (e: Error) => void)(err));
    return undefined;
  };
  proto.query = function (this: pg.Pool, ...args: unknown[]) {
    const [config] = args;
    const name = typeof config === 'object' && config !== null ? (config as { name?: string }).name : undefined;
    if (fault.query !== undefined && populators(this) && name === fault.query && ++seen === fault.nth)
      return refuse(args.find((a) => typeof a === 'function'));
    return query.apply(this, args);
  };
  proto.connect = function (this: pg.Pool, ...args: unknown[]) {
    // a transaction's (pool.query takes its connection with a callback); the batches' pool holds one connection
    const batches = populators(this) && this.options.max === 1 && args.length === 0;
    if (fault.query === undefined && batches && ++seen === fault.nth) return refuse(undefined);
    return connect.apply(this, args);
  };
  return {
    fired: () => fired,
    restore: () => {
      proto.query = query;
      proto.connect = connect;
    },
  };
}

/** balanceRows are the rows of the balances area's tables, each in a fixed order. */
async function balanceRows(pool: Pool): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const table of ['account_balances', 'account_balance_changes', 'account_wealth', 'account_holders'])
    rows[table] = (await pool.query(`SELECT * FROM ${table} t ORDER BY t::text`)).rows;
  return rows;
}
