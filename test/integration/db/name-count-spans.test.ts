/**
 * @module name_count_spans (migrations 1060, 1063) kept by statement triggers from name_count_edges however a statement
 * writes it: 1045's INSERT … ON CONFLICT DO UPDATE inserting some rows and updating others at once, an update moving
 * a row to another height or owner, deletes; the spans are always the edges summed per span of 100 and 10 000 heights
 * (their definition), a span summing to zero has no row.
 */
import { expect } from 'chai';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { silent } from '../indexer/support/harness.ts';

type Edge = [owner: string, height: number, expiring: number, activating: number];

describe('name_count_spans kept from name_count_edges by statement (migration 1063)', () => {
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

  /** 1045's way of writing edges: each (owner, height) once, added to the row there if any */
  const upsert = (edges: Edge[]): Promise<unknown> =>
    pool.query(
      `INSERT INTO name_count_edges AS k (owner, height, expiring, activating)
       SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::bigint[])
       ON CONFLICT (owner, height) DO UPDATE SET expiring = k.expiring + excluded.expiring,
                                                 activating = k.activating + excluded.activating`,
      [0, 1, 2, 3].map((i) => edges.map((e) => e[i])),
    );

  /** the spans equal the edges summed per span in JavaScript (an oracle independent of the triggers' SQL) */
  async function expectSpans(): Promise<number> {
    const { rows: edges } = await pool.query<{ owner: string; height: number; expiring: string; activating: string }>(
      'SELECT owner, height, expiring, activating FROM name_count_edges',
    );
    const sums = new Map<
      string,
      { owner: string; width: number; span: number; expiring: bigint; activating: bigint }
    >();
    for (const e of edges)
      for (const width of [100, 10_000]) {
        const span = Math.floor(e.height / width);
        const key = JSON.stringify([e.owner, width, span]);
        const s = sums.get(key) ?? { owner: e.owner, width, span, expiring: 0n, activating: 0n };
        sums.set(key, {
          ...s,
          expiring: s.expiring + BigInt(e.expiring),
          activating: s.activating + BigInt(e.activating),
        });
      }
    const expected = [...sums.values()]
      .filter((s) => s.expiring !== 0n || s.activating !== 0n)
      .map((s) => ({ ...s, expiring: String(s.expiring), activating: String(s.activating) }))
      .sort((a, b) => a.owner.localeCompare(b.owner) || a.width - b.width || a.span - b.span);
    const { rows } = await pool.query(
      `SELECT owner, width, span, expiring, activating FROM name_count_spans ORDER BY owner COLLATE "C", width, span`,
    );
    expect(rows).to.deep.equal(expected);
    return rows.length;
  }

  it('adds inserted and updated edges of one upsert once each, and a row update its difference', async () => {
    await upsert([
      ['', 150, 1, 0],
      ['', 160, 0, 1],
      ['ak_a', 150, 1, 0],
      ['ak_a', 20_050, 2, 1],
    ]);
    expect(await expectSpans()).to.equal(6);
    // the same statement updates (150, 160) and inserts (170, 10 099): both events' rows reach the spans
    await upsert([
      ['', 150, 2, 0],
      ['', 160, 0, 3],
      ['', 170, 1, 0],
      ['', 10_099, 0, 1],
    ]);
    expect(await expectSpans()).to.equal(8);
    // an update of many rows, one moved to another height and one to another owner
    await pool.query("UPDATE name_count_edges SET expiring = expiring + 1 WHERE owner = ''");
    await pool.query("UPDATE name_count_edges SET height = 30000 WHERE owner = 'ak_a' AND height = 20050");
    await pool.query("UPDATE name_count_edges SET owner = 'ak_b' WHERE owner = 'ak_a' AND height = 150");
    expect(await expectSpans()).to.equal(8);
  });

  it('deletes a span whose edges fall to zero, by an upsert of negative counts or a delete', async () => {
    // 1045 subtracts a name's old edges, then deletes the edges left at zero
    await upsert([
      ['', 10_099, 0, -1],
      ['ak_b', 150, -1, 0],
    ]);
    expect(await pool.query("SELECT 1 FROM name_count_edges WHERE owner = 'ak_b'")).to.have.property('rowCount', 1);
    expect(await pool.query("SELECT 1 FROM name_count_spans WHERE owner = 'ak_b'")).to.have.property('rowCount', 0);
    await expectSpans();
    await pool.query('DELETE FROM name_count_edges WHERE expiring = 0 AND activating = 0');
    expect(await pool.query("SELECT 1 FROM name_count_edges WHERE owner = 'ak_b'")).to.have.property('rowCount', 0);
    await expectSpans();
    // an update to zero of a whole owner's edges
    await pool.query("UPDATE name_count_edges SET expiring = 0, activating = 0 WHERE owner = ''");
    expect(await pool.query("SELECT 1 FROM name_count_spans WHERE owner = ''")).to.have.property('rowCount', 0);
    await expectSpans();
    // edges cancelling out within one span leave no row; a delete of all empties the spans
    await upsert([
      ['ak_c', 40_001, 1, 0],
      ['ak_c', 40_002, -1, 0],
    ]);
    expect(await pool.query("SELECT 1 FROM name_count_spans WHERE owner = 'ak_c'")).to.have.property('rowCount', 0);
    await expectSpans();
    await pool.query('DELETE FROM name_count_edges');
    expect(await expectSpans()).to.equal(0);
  });

  it('writes the spans inside the statement that writes the edges, a rolled back one leaving them as they were', async () => {
    await upsert([['', 500, 1, 1]]);
    const before = await expectSpans();
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query("UPDATE name_count_edges SET expiring = 5 WHERE owner = ''");
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await expectSpans()).to.equal(before);
  });
});
