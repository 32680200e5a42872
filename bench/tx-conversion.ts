/**
 * @module How long migration 0085 (the data step that gives transactions stored as the node's JSON their binary form)
 * and 0086 (dropping the JSON, rewriting the table) take per million rows: a schema of the layout before 0084 gets
 * BENCH_TX_CONVERSION_ROWS transactions (default 200 000: a generated devnode chain's transactions, every type,
 * repeated at new positions), then the migrator runs as a populator's start would.
 *
 *   node bench/tx-conversion.ts
 */
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { parseJson, stringifyJson, type Json } from '../src/chain/json.ts';
import { migrate, MIGRATIONS_DIR } from '../src/db/migrator.ts';
import { createPool } from '../src/db/pool.ts';
import { generateChain } from '../src/devnode/index.ts';
import { txJson } from '../src/devnode/views.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';

const ROWS = Number(process.env.BENCH_TX_CONVERSION_ROWS ?? 200_000);
const SCHEMA = 'mdw';
const log = pino({ level: 'warn' });

const db = await createTestDatabase();
const dir = await mkdtemp(join(tmpdir(), 'mdw-tx-conversion-'));
try {
  // the layout before 0084
  await mkdir(join(dir, 'old'));
  for (const f of await readdir(MIGRATIONS_DIR))
    if (f.endsWith('.sql') && f < '0084') await copyFile(join(MIGRATIONS_DIR, f), join(dir, 'old', f));
  await migrate({ databaseUrl: db.url, schema: SCHEMA, dir: join(dir, 'old') }, log);
  const pool = createPool({ databaseUrl: db.url, schema: SCHEMA, max: 1 }, log);
  const { chain } = generateChain({ generations: 200, seed: 'tx-conversion' });
  const txs = [...chain.txs.values()].map((r) => parseJson(txJson(r)) as { [key: string]: Json });
  const perHeight = 100;
  const heights = Math.ceil(ROWS / perHeight);
  await pool.query(
    `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
     SELECT h, 'kh_' || h, 'kh_', 'kh_', 'ak_', 'ak_', h, '{}' FROM generate_series(0, $1 - 1) AS h`,
    [heights],
  );
  for (let from = 0; from < ROWS; from += 10_000) {
    const is = Array.from({ length: Math.min(10_000, ROWS - from) }, (_, k) => from + k);
    const of = (i: number) => txs[i % txs.length]!;
    await pool.query(
      `INSERT INTO transactions (hash, height, micro_block_hash, micro_index, tx_index, micro_time_ms, tx_type, fee, signatures, size, tx)
       SELECT 'th_' || i, i / $4, 'mh_', 0, i % $4, 0, x.type, 1, CASE WHEN x.sigs = '-' THEN NULL ELSE string_to_array(x.sigs, ' ') END,
              100, x.tx::jsonb
         FROM unnest($1::int[], $2::text[], $3::text[], $5::text[]) AS x(i, type, tx, sigs)`,
      [
        is,
        is.map((i) => String((of(i).tx as { type: string }).type)),
        is.map((i) => stringifyJson(of(i).tx ?? null)),
        perHeight,
        is.map((i) => {
          const s = of(i).signatures;
          return Array.isArray(s) ? s.join(' ') : '-';
        }),
      ],
    );
  }
  await pool.query('VACUUM ANALYZE transactions');
  await pool.end();
  const started = performance.now();
  await migrate({ databaseUrl: db.url, schema: SCHEMA }, log);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `0084-0087 over ${ROWS} transactions: ${seconds.toFixed(1)} s, ${((seconds * 1e6) / ROWS / 60).toFixed(1)} min per million rows`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
  await db.drop();
  await stopTestServer();
}
