/**
 * @module Migration 1153 (issue 88) on a schema that serves names and on one whose catch-up from genesis deferred its
 * indexes to the top under the release before: name_state_active goes (its deferred row too), the names' grams index
 * compares its keys in "C" and the names' search of one or two characters still finds, through it, the names holding
 * the text (the oracle: JavaScript's includes), and name_state's ANALYZE skips the three columns no estimate reads.
 */
import { expect } from 'chai';
import { createPool } from '../../../src/db/connection/pool.ts';
import { holdingCondition } from '../../../src/db/queries/names.ts';
import { buildDeferred, deferBuilds } from '../../../src/db/writes/deferred-builds.ts';
import { databaseBeforeMigration } from '../../support/migration-before.ts';
import { silent } from '../indexer/support/harness.ts';

const MIGRATION = '1153_top_builds_cheaper';
const NAMES = ['alice.chain', 'zq.chain', 'azqz.chain', 'ααβ.chain', '日本語.chain', 'plain.test', 'ZQ.chain'];
/** texts of one and two characters: common, rare, absent, wide, and one differing from a name's by its case alone */
const TEXTS = ['a', 'zq', 'αβ', '本語', 'xy', 'Z'];

describe(`migration ${MIGRATION}`, function () {
  this.timeout(120_000);
  const db = databaseBeforeMigration(MIGRATION);

  /** the name search's grams index and name_state_active as PostgreSQL gives them back, by name */
  const indexes = async (schema: string): Promise<string[]> =>
    (
      (await db.query(
        `SELECT indexname || ': ' || replace(indexdef, schemaname || '.', '') AS def FROM pg_indexes
          WHERE schemaname = $1 AND indexname IN ('name_state_name_grams', 'name_state_active') ORDER BY 1`,
        [schema],
      )) as { def: string }[]
    ).map((r) => r.def);

  /**
   * the names holding each text as the names' search asks it, and whether its plan reads the grams index (a rare
   * text's does; one every name holds walks another index, as a page of a common text walks the order)
   */
  const found = async (schema: string): Promise<{ text: string; names: string[]; indexed: boolean }[]> => {
    const pool = createPool({ databaseUrl: db.url(), schema, max: 1 }, silent);
    const client = await pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const results = [];
      for (const text of TEXTS) {
        const values: unknown[] = [];
        // unordered: no walk of another index competes with the grams' bitmap
        const query = `SELECT name FROM name_state s WHERE ${holdingCondition(text, values)}`;
        const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${query}`, values);
        results.push({
          text,
          names: (await client.query<{ name: string }>(query, values)).rows.map((r) => r.name).sort(),
          indexed: plan.rows.some((r) => r['QUERY PLAN'].includes('Bitmap Index Scan on name_state_name_grams')),
        });
      }
      return results;
    } finally {
      client.release();
      await pool.end();
    }
  };
  const expected = TEXTS.map((text) => ({ text, names: NAMES.filter((n) => n.includes(text)).sort() }));
  /** the names found as expected, and the rare `zq`'s by the grams index */
  const expectFound = async (schema: string): Promise<void> => {
    const results = await found(schema);
    expect(results.map(({ text, names }) => ({ text, names }))).to.deep.equal(expected);
    expect(results.find((r) => r.text === 'zq')?.indexed).to.equal(true);
  };
  const insertNames = (schema: string): Promise<unknown[]> =>
    db.query(
      `INSERT INTO ${schema}.name_state (name_hash, name, tx_hash, created_at_height, auction_end_height, owner,
                                         expires_at, pointers, kind)
       SELECT 'nm_' || n, n, 'th_' || n, 1, 1, 'ak_o', 100, '[]', 'claim' FROM unnest($1::text[]) n`,
      [NAMES],
    );

  it('on a schema serving names: drops name_state_active, compares the grams in "C", finds the same names', async () => {
    await db.migrateBefore('served');
    await insertNames('served');
    expect(await indexes('served')).to.deep.equal([
      "name_state_active: CREATE INDEX name_state_active ON name_state USING btree (expires_at, auction_end_height) WHERE (kind <> 'revoke'::text)",
      'name_state_name_grams: CREATE INDEX name_state_name_grams ON name_state USING gin (name_grams(name))',
    ]);
    expect(await db.migrateAll('served')).to.include(MIGRATION);
    expect(await indexes('served')).to.deep.equal([
      'name_state_name_grams: CREATE INDEX name_state_name_grams ON name_state USING gin (name_grams(name) COLLATE "C")',
    ]);
    await expectFound('served');
    // analyzed by the migration: the planner's estimates of the grams, and none of the three columns left out
    const stats = (await db.query(
      `SELECT tablename, attname FROM pg_stats WHERE schemaname = 'served'
          AND tablename IN ('name_state', 'name_state_name_grams') ORDER BY 1, 2`,
    )) as { tablename: string; attname: string }[];
    expect(stats.map((s) => `${s.tablename}.${s.attname}`)).to.deep.equal([
      'name_state.auction_end_height',
      'name_state.created_at_height',
      'name_state.expires_at',
      'name_state.kind',
      'name_state.name',
      'name_state.owner',
      'name_state_name_grams.name_grams',
    ]);
  });

  it('on a schema whose catch-up deferred them: forgets name_state_active, and the top builds the grams in "C"', async () => {
    await db.migrateBefore('catching');
    const pool = createPool({ databaseUrl: db.url(), schema: 'catching', max: 2 }, silent);
    try {
      await deferBuilds(pool);
      // as the release before deferred it too
      await pool.query('DROP INDEX name_state_active');
      await pool.query(
        `INSERT INTO deferred_builds (name, kind, state) VALUES ('name_state_active', 'index', 'deferred')`,
      );
      expect(await db.migrateAll('catching')).to.include(MIGRATION);
      expect(await indexes('catching')).to.deep.equal([]);
      const deferred = await pool.query<{ name: string }>('SELECT name FROM deferred_builds');
      expect(deferred.rows.map((r) => r.name))
        .to.include('name_state_name_grams')
        .and.not.include('name_state_active');
      await insertNames('catching');
      await buildDeferred(pool, silent);
      expect(await indexes('catching')).to.deep.equal([
        'name_state_name_grams: CREATE INDEX name_state_name_grams ON name_state USING gin (name_grams(name) COLLATE "C")',
      ]);
      await expectFound('catching');
    } finally {
      await pool.end();
    }
  });
});
