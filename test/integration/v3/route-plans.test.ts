/**
 * @module The guard of issue 57: every operation of the /v3 route table (its requests are conformance's, route-cases.ts,
 * so a new route is covered once conformance has its case) is asked over a loaded chain, the statements its server
 * runs are captured and explained as a large database would plan them (route-plans.ts: an index walk wherever one
 * exists), and a scan of a table that grows with the chain that reads more than a page or a probe fails the test:
 * such a route's time grows with the chain, where an index, a keyset or a kept count keeps it flat.
 */
import { expect } from 'chai';
import pg from 'pg';
import { V3_OPERATIONS } from '../../../src/api/mdw/rest/operations.ts';
import type { V3UnderTest } from './harness.ts';
import { CASES, findIds, startCasesChain, type Ids } from './route-cases.ts';
import { largeScans, PLANNER, type PlanNode } from './route-plans.ts';

interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/**
 * ACCEPTED: the statements whose large scans are bounded otherwise than by the chain, or known and not cured yet (each
 * says which; docs/benchmarks.md lists the open ones), with why; a stale one fails the last test. `statement` matches
 * the statement's text (its whitespace one space), `table` the table scanned.
 */
const ACCEPTED: readonly { readonly statement: RegExp; readonly table: string; readonly reason: string }[] = [
  {
    statement: /m\.time_ms >= \$1::bigint - 86400000/,
    table: 'micro_blocks',
    reason: "/stats: the last 24 hours' (and the 24 before's) transactions and fees, bounded by the window",
  },
  {
    statement: /\(SELECT sum\(tx_count\) FROM micro_blocks WHERE height < [tp]\.height\)/,
    table: 'micro_blocks',
    reason: "a txi's fallback when generation_txis lacks the height (a sparse reload): coalesce runs it for no other",
  },
  {
    statement: /FROM channel_events x JOIN transactions t ON t\.hash = x\.tx_hash WHERE x\.channel_id = s\."channelId"/,
    table: 'channel_events',
    reason:
      "open: a channel's state is folded from all its updates, so it grows with that channel's updates (never the " +
      "chain's); a state kept per channel would make it flat",
  },
  {
    statement: /FROM aex9_events WHERE contract_id = \$1 AND account = \$2/,
    table: 'aex9_events',
    reason:
      "open: one holder's balance of one token at a past height, summed from that holder's events of the token " +
      '(aex9_balances keeps the current one)',
  },
  {
    statement: /sum\(e\.delta\) AS amount, \(array_agg/,
    table: 'aex9_events',
    reason: "open: a token's balances at a past height, folded from the token's events up to it (the current are kept)",
  },
  {
    statement: /SELECT count\(\*\) AS n FROM account_tx_counts k CROSS JOIN LATERAL/,
    table: 'account_transactions',
    reason:
      "open: one id in two fields within a scope (`sender_id=A&recipient_id=A&scope=…`) counts A's rows of those two " +
      'fields in the range on index 1047: only the rows it counts, never the chain (a running count would make it flat)',
  },
  {
    statement: /e\.kind = 'template_creation'/,
    table: 'aex141_events',
    reason: "open: a collection's templates, sorted by id: bounded by one collection's templates",
  },
];

/**
 * Recorder captures the statements the server's pool runs (not the populator's) while a request runs. A client binds
 * its query method when it is made (statement-cancel.ts), so pg.Client's is wrapped before the chain starts.
 */
class Recorder {
  readonly #query = pg.Client.prototype.query;
  readonly #ours = new WeakSet<object>();
  #captured: Statement[] | undefined;

  install(): void {
    const query = this.#query;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const recorder = this;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      recorder.#record(this, args);
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  }

  uninstall(): void {
    pg.Client.prototype.query = this.#query;
  }

  /** capture runs `run` and returns the statements the pool's clients ran meanwhile */
  async capture(v3: V3UnderTest, run: () => Promise<void>): Promise<Statement[]> {
    const acquired = (client: object): void => void this.#ours.add(client);
    v3.pool.on('acquire', acquired);
    this.#captured = [];
    try {
      await run();
      return this.#captured;
    } finally {
      this.#captured = undefined;
      v3.pool.off('acquire', acquired);
    }
  }

  #record(client: object, args: unknown[]): void {
    if (this.#captured === undefined || !this.#ours.has(client)) return;
    const [first, second] = args;
    const config = typeof first === 'string' ? { text: first, values: second } : (first as Partial<Statement>);
    if (typeof config.text === 'string')
      this.#captured.push({ text: config.text, values: Array.isArray(config.values) ? config.values : [] });
  }
}

describe('/v3 route plans: no route scans a table that grows with the chain where an index or a kept count would do', function () {
  this.timeout(600_000);
  let v3: V3UnderTest;
  let ids: Ids;
  let explainer: pg.Client;
  const used = new Set<(typeof ACCEPTED)[number]>();
  const recorder = new Recorder();

  before(async () => {
    recorder.install();
    v3 = await startCasesChain('v3-route-plans');
    ids = await findIds(v3);
    explainer = new pg.Client({ connectionString: v3.settings.DATABASE_URL });
    await explainer.connect();
    await explainer.query(`SET search_path = ${v3.settings.DATABASE_SCHEMA}`);
    await explainer.query('ANALYZE');
    for (const setting of PLANNER) await explainer.query(`SET ${setting}`);
  });
  after(async () => {
    await explainer?.end();
    await v3?.close();
    recorder.uninstall();
  });

  /** findings lists the large scans of one statement's plan that no ACCEPTED entry explains. */
  const findings = async (s: Statement): Promise<string[]> => {
    if (!/^\s*(SELECT|WITH)\b/i.test(s.text)) return [];
    const { rows } = await explainer.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
      text: `EXPLAIN (FORMAT JSON) ${s.text}`,
      values: [...s.values],
    });
    return largeScans(rows[0]!['QUERY PLAN'][0].Plan).flatMap((f) => {
      const accepted = ACCEPTED.find((a) => a.table === f.table && a.statement.test(s.text.replace(/\s+/g, ' ')));
      if (accepted) {
        used.add(accepted);
        return [];
      }
      return [`${f.scan} on ${f.table} ${f.why}\n      in: ${s.text.replace(/\s+/g, ' ').slice(0, 400)}`];
    });
  };

  it('refuses what grows with the chain (the counts and sums migration 1015 replaced), not a keyset page', async () => {
    const plan = async (text: string, values: unknown[]): Promise<string[]> => {
      const { rows } = await explainer.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
        text: `EXPLAIN (FORMAT JSON) ${text}`,
        values,
      });
      return largeScans(rows[0]!['QUERY PLAN'][0].Plan).map((f) => `${f.table}: ${f.why}`);
    };
    const account = 'SELECT num FROM account_ids ORDER BY num LIMIT 1';
    expect(await plan(`SELECT count(*) FROM account_transactions WHERE account = (${account})`, [])).to.have.length(1);
    expect(await plan('SELECT sum(size) FROM transactions WHERE height <= $1', [1000])).to.have.length(1);
    expect(await plan('SELECT sum(tx_count) FROM micro_blocks', [])).to.have.length(1);
    expect(
      await plan(
        `SELECT height, micro_index, tx_index FROM account_transactions WHERE account = (${account})
          ORDER BY height DESC, micro_index DESC, tx_index DESC LIMIT 100`,
        [],
      ),
    ).to.deep.equal([]);
    expect(await plan('SELECT sum(fee) FROM transactions WHERE height = $1', [10])).to.deep.equal([]);
  });

  for (const op of V3_OPERATIONS.filter((o) => !o.path.startsWith('/hyperchain/'))) {
    it(`${op.operationId}: /v3${op.path}`, async function () {
      const requests = CASES[op.operationId]?.(ids);
      if (!requests) this.skip(); // conformance.test.ts names it
      const problems: string[] = [];
      for (const request of requests) {
        const statements = await recorder.capture(v3, async () => {
          const res = await v3.get(`/mdw/v3${request}`);
          expect(res.status, `${request}: ${res.text}`).to.equal(200);
        });
        const seen = new Set<string>();
        for (const s of statements) {
          if (seen.has(s.text)) continue;
          seen.add(s.text);
          for (const f of await findings(s)) problems.push(`${request}: ${f}`);
        }
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  }

  it('every accepted scan is still found (a stale one goes)', () => {
    expect(ACCEPTED.filter((a) => !used.has(a)).map((a) => a.reason)).to.deep.equal([]);
  });
});
