/**
 * @module Migration 1155 (issue 88) on statistics stored by the release before: each generation's best through it (the
 * highest tps up to it, the lowest height holding it) equals the former lookup's answer over the generations up to it
 * (the oracle: the first by tps descending, then height), ties and a best that later generations pass included; the
 * tps index goes, its deferred row too. During a catch-up (the builds deferred to the top), /v3/stats' lookup reads
 * one generation's row of thousands.
 */
import { expect } from 'chai';
import { createPool, type Queryable } from '../../../src/db/connection/pool.ts';
import { overallStats } from '../../../src/db/queries/stats.ts';
import { deferBuilds } from '../../../src/db/writes/deferred-builds.ts';
import { databaseBeforeMigration } from '../../support/migration-before.ts';
import { silent } from '../indexer/support/harness.ts';

const MIGRATION = '1155_stats_best_tps';
/** tps by height 1..: a tie of the best (4 at 3 and 5), a best passed later (9.5 at 8), equal values of another scale */
const TPS = ['0', '1.5', '4', '2', '4.00', '0', '3.99', '9.5', '9.50', '1'];

describe(`migration ${MIGRATION}`, function () {
  this.timeout(120_000);
  const db = databaseBeforeMigration(MIGRATION);

  it('keeps in each generation the best through it, as the former lookup finds it', async () => {
    await db.migrateBefore('s');
    await db.query(
      `INSERT INTO s.stats_generations
       SELECT h, h * 1000, 'ak_b', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, tps::numeric,
              0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
         FROM unnest($1::text[]) WITH ORDINALITY AS t(tps, h)`,
      [TPS],
    );
    await db.query(
      `INSERT INTO s.deferred_builds (name, kind, state) VALUES ('stats_generations_tps', 'index', 'deferred')`,
    );
    expect(await db.migrateAll('s')).to.include(MIGRATION);
    const rows = (await db.query(
      `SELECT g.height, g.best_tps::text AS tps, g.best_tps_height AS at,
              (SELECT o.tps::text || '@' || o.height FROM s.stats_generations o WHERE o.height <= g.height
                ORDER BY o.tps DESC, o.height LIMIT 1) AS oracle
         FROM s.stats_generations g ORDER BY g.height`,
    )) as { height: number; tps: string; at: number; oracle: string }[];
    expect(rows.map((r) => `${r.tps}@${r.at}`)).to.deep.equal(rows.map((r) => r.oracle));
    // the cases the rows are there for: the tie keeps 3, 9.5 passes it at 8 and keeps it at 9
    expect(rows.map((r) => `${r.tps}@${r.at}`)).to.deep.equal([
      '0@1',
      '1.5@2',
      '4@3',
      '4@3',
      '4@3',
      '4@3',
      '4@3',
      '9.5@8',
      '9.5@8',
      '9.5@8',
    ]);
    expect(
      await db.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 's' AND indexname = 'stats_generations_tps'`),
    ).to.deep.equal([]);
    expect(await db.query(`SELECT name FROM s.deferred_builds WHERE name = 'stats_generations_tps'`)).to.deep.equal([]);
  });

  it("during a catch-up, /v3/stats' highest tps reads one generation, not the chain's", async () => {
    await db.migrateAll('c');
    const pool = createPool({ databaseUrl: db.url(), schema: 'c', max: 2 }, silent);
    try {
      expect(await deferBuilds(pool)).to.not.include('stats_generations_tps');
      await pool.query(
        `INSERT INTO stats_generations
         SELECT h, h * 1000, 'ak_b', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, h % 97,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, least(h, 96), CASE WHEN h < 96 THEN h ELSE 96 END
           FROM generate_series(1, 5000) h`,
      );
      await pool.query('ANALYZE stats_generations');
      // the statement as the server sends it, explained with its values
      let asked: { text: string; values: unknown[] } | undefined;
      const capture: Queryable = {
        query: ((q: { text: string; values: unknown[] }) => {
          asked = q;
          return Promise.resolve({ rows: [{}] });
        }) as Queryable['query'],
      };
      await overallStats(capture, Date.now());
      const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${asked!.text}`,
        asked!.values,
      );
      const scans: PlanNode[] = [];
      const walk = (n: PlanNode): void => {
        if (n['Relation Name'] === 'stats_generations') scans.push(n);
        for (const c of n.Plans ?? []) walk(c);
      };
      walk(rows[0]!['QUERY PLAN'][0].Plan);
      expect(scans.map((n) => n['Actual Rows'])).to.deep.equal([1]);
    } finally {
      await pool.end();
    }
  });
});

interface PlanNode {
  readonly 'Relation Name'?: string;
  readonly 'Actual Rows': number;
  readonly Plans?: PlanNode[];
}
