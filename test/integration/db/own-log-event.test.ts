/**
 * @module Migrations 1151 and 1153: call_logs_own_event, the test of a contract's own log entries (a containment since
 * 1151, without the test of the log's type since 1153), answers as 1015's definition did (the oracle here, created
 * under another name) for every shape of log, and is inlined by PostgreSQL, in the partial index contract_calls_own_log
 * as in the contract logs' query, which still walks that index.
 */
import { expect } from 'chai';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';

describe("a contract's own-event test, inlined (migration 1151)", () => {
  let db: Awaited<ReturnType<typeof createMigratedDatabase>>;
  let pool: Pool;

  before(async () => {
    db = await createMigratedDatabase('mdw', 1);
    pool = db.pool;
    // 1015's definition, the oracle
    await pool.query(`CREATE FUNCTION pg_temp.own_event_1015(call_info jsonb, called text) RETURNS boolean
      LANGUAGE sql IMMUTABLE AS $$
        SELECT EXISTS (SELECT 1
                         FROM jsonb_array_elements(CASE WHEN jsonb_typeof(call_info->'log') = 'array'
                                                        THEN call_info->'log' ELSE '[]' END) e(entry)
                        WHERE e.entry->>'address' = called)
      $$`);
  });
  after(async () => {
    await db?.drop();
  });

  const entry = (address: unknown): Record<string, unknown> => ({ address, data: 'cb_', topics: ['1'] });
  const LOGS: readonly [callInfo: unknown, called: string | null][] = [
    [{ log: [entry('ct_own')] }, 'ct_own'],
    [{ log: [entry('ct_other'), entry('ct_own')] }, 'ct_own'],
    [{ log: [entry('ct_other')] }, 'ct_own'],
    [{ log: [entry('ct_Own')] }, 'ct_own'],
    [{ log: [] }, 'ct_own'],
    [{ log: [{ data: 'ct_own' }] }, 'ct_own'],
    [{ log: ['ct_own'] }, 'ct_own'],
    [{ log: [[entry('ct_own')]] }, 'ct_own'],
    [{ log: entry('ct_own') }, 'ct_own'],
    [{ log: 'ct_own' }, 'ct_own'],
    [{ return_type: 'ok' }, 'ct_own'],
    [null, 'ct_own'],
    [{ log: [entry('ct_"quoted\\')] }, 'ct_"quoted\\'],
    [{ log: [entry('ct_own')] }, null],
    [{ log: [entry(null)] }, null],
  ];

  it("answers as 1015's definition for every shape of log, false where that was", async () => {
    const { rows } = await pool.query<{ now: boolean | null; then: boolean | null }>(
      `SELECT call_logs_own_event(c, called) AS now, pg_temp.own_event_1015(c, called) AS then
         FROM unnest($1::jsonb[], $2::text[]) AS t(c, called)`,
      [LOGS.map(([c]) => (c === null ? null : JSON.stringify(c))), LOGS.map(([, called]) => called)],
    );
    expect(rows.map((r) => r.now)).to.deep.equal(rows.map((r) => r.then));
    expect(rows.filter((r) => r.now).length).to.equal(3);
  });

  it("is inlined, and the contract logs' filter still walks contract_calls_own_log", async () => {
    await pool.query(
      `INSERT INTO contract_calls (tx_hash, height, micro_index, tx_index, contract_id, caller_id, call_info)
       SELECT 'th_' || i, i, 0, 0, 'ct_' || (i % 50), 'ak_caller',
              jsonb_build_object('log', jsonb_build_array(jsonb_build_object('address', 'ct_' || (i % 7))))
         FROM generate_series(1, 5000) i`,
    );
    await pool.query('ANALYZE contract_calls');
    const plan = async (sql: string): Promise<string> =>
      (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (VERBOSE, COSTS OFF) ${sql}`)).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
    const own = `SELECT c.height FROM contract_calls c
                  WHERE c.contract_id = 'ct_3' AND call_logs_own_event(c.call_info, c.contract_id)
                  ORDER BY c.height, c.micro_index, c.tx_index`;
    const walked = await plan(own);
    expect(walked).to.not.include('call_logs_own_event');
    expect(walked).to.include('contract_calls_own_log');
    // ct_3's calls whose log names ct_3: i % 50 = 3 and i % 7 = 3, i ≡ 3 (mod 350)
    const { rows } = await pool.query<{ height: number }>(own);
    expect(rows.map((r) => r.height)).to.deep.equal(Array.from({ length: 15 }, (_, k) => 3 + 350 * k));
  });
});
