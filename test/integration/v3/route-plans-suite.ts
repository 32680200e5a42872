/**
 * @module The guard of issue 57: every operation of the /v3 route table (its requests are conformance's, route-cases.ts,
 * so a new route is covered once conformance has its case) and every /middleware route of its table (filled with the
 * chain's ids, test/support/route-values.ts) is asked over a loaded chain, the statements its server runs are captured
 * and explained as a large database would plan them (route-plans.ts: an index walk wherever one
 * exists), and a scan of a table that grows with the chain that reads more than a page or a probe fails the test:
 * such a route's time grows with the chain, where an index, a keyset or a kept count keeps it flat.
 */
import { expect } from 'chai';
import pg from 'pg';
import { OPERATIONS } from '../../../src/api/legacy/legacy-openapi.ts';
import { V3_OPERATIONS } from '../../../src/api/mdw/rest/operations.ts';
import { filledPath } from '../../support/route-values.ts';
import type { V3UnderTest } from './harness.ts';
import { CASES, type CasesChain, type Ids } from './route-cases.ts';
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
    statement: /SELECT count\(\*\) AS n FROM account_tx_counts k CROSS JOIN LATERAL/,
    table: 'account_transactions',
    reason:
      "open: one id in two fields within a scope (`sender_id=A&recipient_id=A&scope=…`) counts A's rows of those two " +
      "fields in the range on index 1047, index-only: only the rows it counts, never the chain nor A's other rows, " +
      'about 2 M a second here (an index of its shape: 50 000 rows 26 ms, 500 000 rows 188 ms, medians at load 11), so ' +
      'about 50 ms at 100 000 such rows of A in the scope, far more than our chains hold. ' +
      "Flat would be counts kept per (A, type, fields) and span of 100 and of 10 000 heights (as 1060 keeps the names' " +
      "edges): the index for the heights below the next multiple of 100 at each end (A's rows of at most 2 × 99 " +
      "generations), at most 2 × 99 100-spans and the 10 000-spans between (114 over mainnet's 1.14 M heights); the " +
      'price, a second statement trigger on account_transactions\' every batch (docs/benchmarks.md, "Scale")',
  },
  ...['micro_blocks', 'transactions'].map((table) => ({
    statement: /FROM (micro_blocks|transactions t) WHERE (t\.)?height BETWEEN \$1 AND \$2 ORDER BY/,
    table,
    reason: `/middleware/generations: the ${table} of one page's generations (at most 100)`,
  })),
  {
    statement: /coalesce\(\(SELECT size_before FROM generation_txis WHERE height = \$1 \+ 1\), \(SELECT sum\(size\)/,
    table: 'transactions',
    reason:
      "a size's fallback when generation_txis lacks the next height (a sparse reload): coalesce runs it for no other",
  },
  {
    statement: /SELECT count\(\*\) AS n FROM name_state s CROSS JOIN LATERAL .* WHERE s\.auction_end_height >= \$1/,
    table: 'name_state',
    reason:
      '/middleware/names/auctions/active/count: the auctions open at the top (an auction lasts at most ~30 000 heights)',
  },
];

/**
 * Recorder captures the statements the server's pool runs (not the populator's) while a request runs. A client binds
 * its query method when it is made (statement-cancel.ts), so pg.Client's is wrapped before the chain starts.
 */
export class Recorder {
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

/**
 * describeRoutePlans is the route plans' suite over the cases' chain, which route-cases.test.ts starts with `recorder`
 * installed.
 */
export function describeRoutePlans(chain: CasesChain, recorder: Recorder): void {
  describe('/v3 route plans: no route scans a table that grows with the chain where an index or a kept count would do', function () {
    let v3: V3UnderTest;
    let ids: Ids;
    let explainer: pg.Client;
    const used = new Set<(typeof ACCEPTED)[number]>();

    before(async () => {
      ({ v3, ids } = chain);
      explainer = new pg.Client({ connectionString: v3.settings.DATABASE_URL });
      await explainer.connect();
      await explainer.query(`SET search_path = ${v3.settings.DATABASE_SCHEMA}`);
      await explainer.query('ANALYZE');
      for (const setting of PLANNER) await explainer.query(`SET ${setting}`);
    });
    after(async () => {
      await explainer?.end();
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
      expect(await plan(`SELECT count(*) FROM account_transactions WHERE account = (${account})`, [])).to.have.length(
        1,
      );
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

    /** expectFlat asks each request (a path under the server's root) and fails on the large scans of its statements */
    const expectFlat = async (requests: readonly string[], statuses = [200]): Promise<void> => {
      const problems: string[] = [];
      for (const request of requests) {
        const statements = await recorder.capture(v3, async () => {
          const res = await v3.get(request);
          expect(res.status, `${request}: ${res.text}`).to.be.oneOf(statuses);
        });
        const seen = new Set<string>();
        for (const s of statements) {
          if (seen.has(s.text)) continue;
          seen.add(s.text);
          for (const f of await findings(s)) problems.push(`${request}: ${f}`);
        }
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    };

    for (const op of V3_OPERATIONS.filter((o) => !o.path.startsWith('/hyperchain/'))) {
      it(`${op.operationId}: /v3${op.path}`, async function () {
        const requests = CASES[op.operationId]?.(ids);
        if (!requests) this.skip(); // conformance-suite.ts names it
        await expectFlat(requests.map((r) => `/mdw/v3${r}`));
      });
    }

    // the /middleware routes of their table, each asked once with the chain's ids (as the scale bench asks them)
    for (const op of OPERATIONS.filter((o) => o.method === 'get' && o.path.startsWith('/middleware/'))) {
      it(`${op.path}`, async () => {
        const spend = ids.txByType.get('SpendTx')!;
        const path = filledPath(op.path, {
          ...ids,
          busyHeight: Number(ids.keyBlock.height),
          keyBlockHash: String(ids.keyBlock.hash),
          tx: String(spend.hash),
        });
        // the status answers 503 on a chain whose newest block is old, as the cases chain's is
        const statuses = op.path === '/middleware/status' ? [200, 503] : [200];
        await expectFlat([op.params.includes('limit') ? `${path}?limit=100` : path], statuses);
      });
    }

    // the one from-to route with two accounts (the table's fill asks it with one at both ends): either side is walked
    it('/middleware/transactions/account/{sender}/to/{receiver}, two accounts both ways', async () => {
      const [a, b] = [ids.account, ids.holder];
      expect(a).to.not.equal(b);
      await expectFlat([a, b].map((x, i) => `/middleware/transactions/account/${x}/to/${[b, a][i]}?limit=100`));
    });

    it('every accepted scan is still found (a stale one goes)', () => {
      expect(ACCEPTED.filter((a) => !used.has(a)).map((a) => a.reason)).to.deep.equal([]);
    });
  });
}
