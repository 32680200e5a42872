/**
 * @module Database bytes per transaction (issue 15): the populator loads a devnode chain into an empty schema, then
 * every table's and index's size is printed per transaction, once as loaded and once after `REINDEX` of the two
 * largest tables (what docs/operations.md advises after a load: their B-trees are filled in each account's order and
 * left about half full). Both chains of docs/benchmarks.md, one after the other.
 *
 *   node bench/db-size.ts   (BENCH_DB_SIZE_GENERATIONS=2000 for the default chain, BENCH_DB_SIZE_MAINNET_LIKE=500
 *                            for the mainnet-like one; 0 skips a chain)
 */
import pino from 'pino';
import prom from 'prom-client';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrator.ts';
import { createPool } from '../src/db/pool.ts';
import { startPopulator } from '../src/indexer/populator.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { databaseSize, sizeLines } from './db-size.lib.ts';
import { killChildrenOnExit, startDevnodeProcess } from './http.lib.ts';

const CHAINS = [
  { name: 'default', generations: Number(process.env.BENCH_DB_SIZE_GENERATIONS ?? 2000), flags: [] },
  {
    name: 'mainnet-like',
    generations: Number(process.env.BENCH_DB_SIZE_MAINNET_LIKE ?? 500),
    flags: ['--mainnet-like'],
  },
];
const SCHEMA = 'mdw';
const log = pino({ level: 'warn' });

async function measure(chain: (typeof CHAINS)[number]): Promise<void> {
  const devnode = await startDevnodeProcess([
    '--generate',
    String(chain.generations),
    '--seed',
    'bench',
    ...chain.flags,
  ]);
  const db = await createTestDatabase();
  const pool = createPool({ databaseUrl: db.url, schema: SCHEMA, max: 1 }, log);
  try {
    await migrate({ databaseUrl: db.url, schema: SCHEMA }, log);
    const cfg = loadConfig({ DATABASE_URL: db.url, DATABASE_SCHEMA: SCHEMA, NODE_URL: devnode.url });
    const populator = await startPopulator({ cfg, log, registry: new prom.Registry() });
    await populator.synced();
    await populator.stop();
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM transactions');
    const transactions = Number(rows[0]!.n);
    await pool.query('VACUUM ANALYZE');
    console.log(`${chain.name} chain: ${chain.generations + 1} generations, ${transactions} transactions`);
    for (const line of sizeLines(await databaseSize(db.url, SCHEMA, transactions), transactions)) console.log(line);
    await pool.query('REINDEX TABLE account_transactions');
    await pool.query('REINDEX TABLE transactions');
    console.log('after REINDEX of account_transactions and transactions:');
    for (const line of sizeLines(await databaseSize(db.url, SCHEMA, transactions), transactions).slice(0, 3))
      console.log(line);
  } finally {
    await pool.end();
    await db.drop();
    await devnode.stop();
  }
}

killChildrenOnExit();
for (const chain of CHAINS) if (chain.generations > 0) await measure(chain);
await stopTestServer();
