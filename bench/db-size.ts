/**
 * @module Database bytes per transaction (issue 15): the populator loads a devnode chain into an empty schema, then
 * every table's and index's size is printed per transaction (the tables under 1 % together), once as loaded and once
 * after `REINDEX` of the two largest tables (what docs/operations.md advises after a load: their B-trees are filled
 * in each account's order and left part full), with the CPU time per transaction the populator and PostgreSQL spent
 * loading and the projection for mainnet's transactions. Both chains of docs/benchmarks.md, one after the other.
 *
 *   node bench/db-size.ts   (BENCH_DB_SIZE_GENERATIONS=2000 for the default chain, BENCH_DB_SIZE_MAINNET_LIKE=500
 *                            for the mainnet-like one; 0 skips a chain)
 */
import pino from 'pino';
import prom from 'prom-client';
import { loadConfig } from '../src/config/middleware.ts';
import { migrate } from '../src/db/schema/migrator.ts';
import { createPool } from '../src/db/connection/pool.ts';
import { startPopulator } from '../src/indexer/sync/populator.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { databaseSize, sizeLines } from './db-size.lib.ts';
import { killChildrenOnExit, nodeFilesArgs, startDevnodeProcess } from './http.lib.ts';
import { postgresCpuReader } from './process-cpu.lib.ts';
import { MAINNET } from '../src/devnode/traffic/mainnet-like.ts';

const CHAINS = [
  { name: 'default', generations: Number(process.env.BENCH_DB_SIZE_GENERATIONS ?? 2000), flags: [] },
  {
    name: 'mainnet-like',
    generations: Number(process.env.BENCH_DB_SIZE_MAINNET_LIKE ?? 500),
    flags: ['--mainnet-like'],
  },
];
const SCHEMA = 'mdw';
/** the tables whose B-trees a load leaves half full (docs/operations.md "Packing the indexes after a load") */
const REINDEXED = ['account_transactions', 'transactions'];
const log = pino({ level: 'warn' });

async function measure(chain: (typeof CHAINS)[number]): Promise<void> {
  const devnode = await startDevnodeProcess([
    '--generate',
    String(chain.generations),
    '--seed',
    'bench',
    ...chain.flags,
    ...nodeFilesArgs(),
  ]);
  const db = await createTestDatabase();
  const pool = createPool({ databaseUrl: db.url, schema: SCHEMA, max: 1 }, log);
  try {
    await migrate({ databaseUrl: db.url, schema: SCHEMA }, log);
    // configured as a deployment on the devnode's chain (its reward rules and genesis accounts, DevnodeChild)
    const cfg = loadConfig({
      ...devnode.deployment,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: SCHEMA,
      NODE_URL: devnode.url,
    });
    const postgresCpu = await postgresCpuReader(db.url);
    const [ownBefore, postgresBefore] = [process.cpuUsage(), postgresCpu()];
    const populator = await startPopulator({ cfg, log, registry: new prom.Registry() });
    await populator.synced();
    await populator.stop();
    const own = process.cpuUsage(ownBefore);
    const cpu = { populator: (own.user + own.system) / 1e6, postgres: postgresCpu() - postgresBefore };
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM transactions');
    const transactions = Number(rows[0]!.n);
    await pool.query('VACUUM ANALYZE');
    const µs = (seconds: number): string => `${((seconds / transactions) * 1e6).toFixed(0)} µs`;
    console.log(`${chain.name} chain: ${chain.generations + 1} generations, ${transactions} transactions`);
    // CPU time (not wall time), which other jobs on the machine disturb less; still only a ratio within one run means much
    console.log(`CPU per tx while loading: populator ${µs(cpu.populator)}, PostgreSQL ${µs(cpu.postgres)}`);
    const loaded = await databaseSize(db.url, SCHEMA, transactions);
    for (const line of sizeLines(loaded, transactions, ['account_ids'])) console.log(line);
    for (const table of REINDEXED) await pool.query(`REINDEX TABLE ${table}`);
    console.log('after REINDEX of account_transactions and transactions:');
    const rebuilt = sizeLines(await databaseSize(db.url, SCHEMA, transactions), transactions, REINDEXED);
    for (const line of rebuilt.filter((l, i) => i === 0 || REINDEXED.some((t) => l.startsWith(`  ${t} `))))
      console.log(line);
    const rebuiltBytes = (await databaseSize(db.url, SCHEMA, transactions)).bytesPerTx;
    const gb = (perTx: number): string => `${((perTx * MAINNET.transactions) / 1e9).toFixed(0)} GB`;
    console.log(
      `mainnet's ${MAINNET.transactions} transactions at this chain's bytes per transaction: ${gb(loaded.bytesPerTx)} ` +
        `as loaded, ${gb(rebuiltBytes)} rebuilt (target ${gb(1536)})`,
    );
  } finally {
    await pool.end();
    await db.drop();
    await devnode.stop();
  }
}

killChildrenOnExit();
for (const chain of CHAINS) if (chain.generations > 0) await measure(chain);
await stopTestServer();
