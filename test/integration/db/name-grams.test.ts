/**
 * @module name_grams (migrations 1076, 1144): a name's characters and pairs of characters, the set the names' index
 * for queries of one or two characters holds, from string functions and not a query per name; the oracle is the
 * set computed in JavaScript, character by character (code points, as PostgreSQL's text functions count them).
 */
import { expect } from 'chai';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { silent } from '../indexer/support/harness.ts';

/** each character and each pair of neighbours, sorted, once each */
function grams(name: string): string[] {
  const chars = Array.from(name);
  const pairs = chars.slice(1).map((c, i) => chars[i]! + c);
  return [...new Set([...chars, ...pairs])].sort();
}

const NAMES = [
  '',
  'a',
  'ab',
  'abc',
  'alice.chain',
  'ααβ.chain',
  'zq.test',
  '日本語.chain',
  'a\u0001b.chain',
  '\u0001',
  '(..)\\1.chain',
  'aaaa',
];

describe('name_grams, the names’ characters and pairs (migration 1144)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: Pool;

  before(async () => {
    db = await createTestDatabase({ migrated: 'mdw' });
    pool = createPool({ databaseUrl: db.url, schema: 'mdw', max: 1 }, silent);
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('gives each name the set of its characters and pairs, with odd and even lengths, wide characters and U+0001', async () => {
    const { rows } = await pool.query<{ name: string; grams: string[] }>(
      'SELECT n AS name, ARRAY(SELECT DISTINCT g FROM unnest(name_grams(n)) g) AS grams FROM unnest($1::text[]) n',
      [NAMES],
    );
    const sorted = (a: string[]): string[] => [...a].sort();
    expect(rows.map((r) => [r.name, sorted(r.grams)])).to.deep.equal(NAMES.map((n) => [n, grams(n)]));
    const { rows: nulls } = await pool.query('SELECT name_grams(NULL) AS g');
    expect(nulls).to.deep.equal([{ g: null }]);
  });

  it('is indexed from a session of another search_path, a name holding U+0001 too, and found by the index', async () => {
    const other = createPool({ databaseUrl: db.url, schema: 'public', max: 1 }, silent);
    try {
      await other.query(
        `INSERT INTO mdw.name_state (name_hash, name, tx_hash, created_at_height, auction_end_height, owner, expires_at,
                                     pointers, kind)
         VALUES ('nm_1', 'a' || chr(1) || 'zq.chain', 'th_1', 1, 1, 'ak_1', 100, '[]', 'claim'),
                ('nm_2', 'plain.chain', 'th_2', 1, 1, 'ak_1', 100, '[]', 'claim')`,
      );
    } finally {
      await other.end();
    }
    const client = await pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      // in the index's collation, as the names' search asks (1153)
      const query = `SELECT name_hash FROM name_state s WHERE name_grams(s.name) COLLATE "C" @> ARRAY['zq'] ORDER BY 1`;
      const { rows: plan } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${query}`);
      expect(plan.map((r) => r['QUERY PLAN']).join('\n')).to.include('Bitmap Index Scan on name_state_name_grams');
      expect((await client.query(query)).rows).to.deep.equal([{ name_hash: 'nm_1' }]);
    } finally {
      client.release();
    }
  });
});
