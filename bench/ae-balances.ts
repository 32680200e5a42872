/**
 * @module The AE balance routes' reads at the size of the busiest mainnet account (issue 76): an account with
 * BENCH_AE_BALANCES_ROWS changes (default 1 000 000, a tenth of mainnet's busiest has about that many transactions)
 * among as many changes of 10 000 other accounts, over 1 000 000 heights, written into account_balance_changes of a
 * migrated schema; then, one after another, the balance at BENCH_AE_BALANCES_SAMPLES random heights (the statement
 * of `/v3/accounts/{id}/balance?height=`) and a page of 100 changes from as many random cursors (`…/balance/history`),
 * each way. Prints p50 and p99 of each (the statement's time in the process: no HTTP), and the table's bytes per row.
 *
 *   node bench/ae-balances.ts   (a minute or two; BENCH_AE_BALANCES_ROWS=100000 for a quick look)
 */
import pino from 'pino';
import { migrate } from '../src/db/schema/migrator.ts';
import { createPool } from '../src/db/connection/pool.ts';
import { changesPage, lastChangeAt, WHOLE_GENERATION } from '../src/db/queries/balance-changes.ts';
import { encode } from '../src/chain/encoding.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { percentile } from './http.lib.ts';
import { writeResult } from './results.lib.ts';

const ROWS = Number(process.env.BENCH_AE_BALANCES_ROWS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_AE_BALANCES_SAMPLES ?? 500);
const HEIGHTS = 1_000_000;
const SCHEMA = 'mdw';
const log = pino({ level: 'warn' });

const hot = encode('ak', Buffer.alloc(32, 1));
const db = await createTestDatabase();
const pool = createPool({ databaseUrl: db.url, schema: SCHEMA, max: 1 }, log);
try {
  await migrate({ databaseUrl: db.url, schema: SCHEMA }, log);
  // the hot account's changes spread over the heights, and as many of 10 000 others between them (the index's
  // neighbours), each with a key block's time; a change's time reads its block's
  await pool.query(
    `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
     SELECT h, 'kh_' || h, 'kh_' || (h - 1), 'kh_' || (h - 1), $1, $1, 1543373685748 + h * 180000::bigint, '{}'
       FROM generate_series(0, $2 - 1) h`,
    [hot, HEIGHTS],
  );
  await pool.query(
    `INSERT INTO account_balance_changes (account_id, height, micro_index, tx_index, seq, kind, tx_hash, delta, balance)
     SELECT $1, (i::bigint * $3 / $2)::int, -1, i % 7, 0, 'SpendTx', 'th_' || i, -1000, 10::numeric ^ 30 - i * 1000
       FROM generate_series(0, $2 - 1) i
     UNION ALL
     SELECT 'ak_other' || (i % 10000), (i::bigint * $3 / $2)::int, -1, 0, 0, 'SpendTx', 'th_o' || i, 1, i
       FROM generate_series(0, $2 - 1) i`,
    [hot, ROWS, HEIGHTS],
  );
  await pool.query('VACUUM ANALYZE account_balance_changes');
  const { rows: size } = await pool.query<{ bytes: string }>(
    `SELECT pg_total_relation_size('account_balance_changes')::text AS bytes`,
  );
  const bytesPerRow = Number(size[0]!.bytes) / (2 * ROWS);
  const time = async (run: () => Promise<unknown>): Promise<number[]> => {
    const ms: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const start = performance.now();
      await run();
      ms.push(performance.now() - start);
    }
    return ms.sort((a, b) => a - b);
  };
  const height = (): number => Math.floor(Math.random() * HEIGHTS);
  const cursor = (): { height: number; microIndex: number; txIndex: number; seq: number } => ({
    height: height(),
    microIndex: -1,
    txIndex: 6,
    seq: 0,
  });
  const all = { first: 0, last: HEIGHTS };
  const results = {
    balanceAtHeight: await time(() => lastChangeAt(pool, hot, { height: height(), microIndex: WHOLE_GENERATION })),
    historyBackward: await time(() =>
      changesPage(pool, { account: hot, heights: all }, { walk: 'backward', from: cursor(), n: 101 }),
    ),
    historyForward: await time(() =>
      changesPage(pool, { account: hot, heights: all }, { walk: 'forward', from: cursor(), n: 101 }),
    ),
  };
  const figures = Object.fromEntries(
    Object.entries(results).map(([name, ms]) => [name, { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99) }]),
  );
  console.log(`account_balance_changes: ${2 * ROWS} rows, ${bytesPerRow.toFixed(0)} bytes per row (table and indexes)`);
  for (const [name, f] of Object.entries(figures)) console.log(`${name}: p50 ${f.p50} ms, p99 ${f.p99} ms`);
  writeResult('ae-balances', { benchmark: 'ae-balances', rows: ROWS, samples: SAMPLES, bytesPerRow, ...figures });
} finally {
  await pool.end();
  await db.drop();
  await stopTestServer();
}
