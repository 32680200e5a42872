/**
 * @module Snapshot benchmark (issue 88): the chain of P % of mainnet (bench/scale-chain.lib.ts: `mdw devnode --scale
 * P` loaded by the real populator, its database kept for later runs) exported by `mdw snapshot export` while a
 * populator follows the node, then imported by `mdw snapshot import` into another schema, each phase timed: the
 * checksums, the migrations, the COPYs and the index builds (summed over the restore's connections) and the rows' wall
 * time up to the commit, ANALYZE, and the comparison with the node (the sampled heights and accounts, at once). Prints
 * the sizes (the schema, the snapshot, the imported schema ÷ its source) and each phase per transaction, the figures a
 * projection to a larger chain scales. Targets (issue 88): at 10 % the export and the import each ≤ 10 min, the
 * imported schema ≤ 1.2 × its source. Writes bench/results/snapshot.json.
 *
 *   make bench ONLY=snapshot                           (1 % of mainnet: about 660 000 transactions)
 *   BENCH_SNAPSHOT_SCALE=10 make bench ONLY=snapshot   (the issue's size: generating and loading the chain take
 *     hours here the first time, generating it again half an hour each run; 18.5 GB of database, 2.4 GB of snapshot)
 *   BENCH_SNAPSHOT_CONNECTIONS=1 …                     (the restore's connections; default the import's, 4)
 *   BENCH_SNAPSHOT_DATABASE_URL=… BENCH_SNAPSHOT_SCHEMA=… BENCH_SNAPSHOT_NODE_URL=… make bench ONLY=snapshot
 *     (a synced schema that is already there, and its node: exported without a populator of the bench's, imported
 *     into `<schema>_snapshot_bench`, which is dropped after)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import prom from 'prom-client';
import { createLogger } from '../src/base/log.ts';
import { loadConfig } from '../src/config/middleware.ts';
import { dropSchema } from '../src/db/schema/admin.ts';
import { exportSnapshot } from '../src/indexer/maintenance/snapshot-export.ts';
import { importSnapshot, RESTORE_CONNECTIONS } from '../src/indexer/maintenance/snapshot-import.ts';
import { startPopulator } from '../src/indexer/sync/populator.ts';
import { databaseSize } from './db-size.lib.ts';
import { writeResult } from './results.lib.ts';
import { scaleChain } from './scale-chain.lib.ts';

const SEED = 'bench-scale';
const PERCENT = Number(process.env.BENCH_SNAPSHOT_SCALE ?? 1);
const CONNECTIONS = Number(process.env.BENCH_SNAPSHOT_CONNECTIONS ?? RESTORE_CONNECTIONS);
/** the import's sample, its defaults (`mdw snapshot import`'s --heights and --accounts) */
const SAMPLE = { heights: 100, accounts: 100 };
/** issue 88's targets, at 10 % of mainnet */
const TARGET_SECONDS = 600;
const TARGET_SIZE_RATIO = 1.2;
/** the import's node timeout against the bench's devnode (see `target`) */
const DEVNODE_TIMEOUT_MS = 600_000;

const log = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined }).log;

/** The chain measured: its database, schema and node, and whether the bench follows it with a populator of its own. */
interface Measured {
  readonly env: Readonly<Record<string, string>>;
  readonly follow: boolean;
  readonly label: string;
  stop(): Promise<void>;
}

async function measured(): Promise<Measured> {
  const {
    BENCH_SNAPSHOT_DATABASE_URL: url,
    BENCH_SNAPSHOT_SCHEMA: schema,
    BENCH_SNAPSHOT_NODE_URL: node,
  } = process.env;
  if (url && schema && node)
    return {
      env: { DATABASE_URL: url, DATABASE_SCHEMA: schema, NODE_URL: node },
      follow: false,
      label: `schema ${schema}`,
      stop: async () => {},
    };
  const chain = await scaleChain(PERCENT, SEED);
  console.log(
    `chain of ${PERCENT} % of mainnet: ${chain.facts.top} generations, ${chain.facts.transactions} transactions` +
      (chain.loadedNow
        ? `; generated in ${chain.generatedSeconds.toFixed(0)} s, loaded in ${chain.facts.loadSeconds.toFixed(0)} s`
        : `; generated in ${chain.generatedSeconds.toFixed(0)} s, its database kept from an earlier run`),
  );
  return { env: chain.env, follow: true, label: `${PERCENT} % of mainnet`, stop: () => chain.stop() };
}

const seconds = (ms: number): number => Math.round(ms / 100) / 10;
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;

const chain = await measured();
const work = await mkdtemp(join(tmpdir(), 'mdw-bench-snapshot-'));
const dir = join(work, 'snap');
const source = loadConfig(chain.env);
// The devnode answers an account at a past block by replaying the chain from its nearest checkpoint (up to 2 048 key
// blocks at 10 %), one request at a time, where a node reads its state trees: the import's sampled check waits for it
// rather than time out at a node's 10 s, and its time is printed apart, as the devnode's.
const target = loadConfig({
  ...chain.env,
  DATABASE_SCHEMA: `${source.databaseSchema}_snapshot_bench`,
  ...(chain.follow && { NODE_TIMEOUT_MS: String(DEVNODE_TIMEOUT_MS) }),
});
try {
  // a run stopped before its end left its imported schema
  await dropSchema(target.databaseUrl, target.databaseSchema);
  const populator = chain.follow
    ? await startPopulator({ cfg: source, log, registry: new prom.Registry() })
    : undefined;
  let started = performance.now();
  const manifest = await exportSnapshot({ cfg: source, log }, dir).finally(() => populator?.stop());
  const exportMs = performance.now() - started;
  const transactions = manifest.parts.find((p) => p.table === 'transactions')?.rows ?? 0;
  const schemaBytes = (await databaseSize(source.databaseUrl, source.databaseSchema, transactions)).bytes;
  const snapshotBytes = manifest.parts.reduce((n, p) => n + p.bytes, 0);
  const rawBytes = manifest.parts.reduce((n, p) => n + p.rawBytes, 0);
  const rows = manifest.parts.reduce((n, p) => n + p.rows, 0);

  const lines: string[] = [];
  started = performance.now();
  const report = await importSnapshot({ cfg: target, log, out: (l) => lines.push(l) }, dir, SAMPLE, CONNECTIONS);
  const importMs = performance.now() - started;
  const importedBytes = (await databaseSize(target.databaseUrl, target.databaseSchema, transactions)).bytes;
  const { ms, phases } = report;

  const perTx = (phaseMs: number): string => `${((phaseMs * 1000) / transactions).toFixed(1)} µs/tx`;
  console.log(
    [
      `snapshot of ${chain.label}: top ${manifest.top.height}, ${transactions} transactions, ${rows} rows in ` +
        `${manifest.parts.length} tables`,
      `  the schema: ${mb(schemaBytes)}; the snapshot: ${mb(snapshotBytes)} (${(snapshotBytes / schemaBytes).toFixed(3)} ` +
        `of the schema; ${mb(rawBytes)} of COPY text)`,
      `  export${chain.follow ? ', a populator following' : ''}: ${seconds(exportMs)} s (${perTx(exportMs)}; target ≤ ${TARGET_SECONDS} s at 10 %)`,
      `  import over ${CONNECTIONS} connection(s): ${seconds(importMs)} s, ${seconds(importMs - ms.check)} s before ` +
        `the node check (target ≤ ${TARGET_SECONDS} s at 10 %)`,
      `    checksums ${seconds(ms.verify)} s (${perTx(ms.verify)})`,
      `    migrations ${seconds(phases.migrate)} s`,
      `    the rows, COPY to commit: ${seconds(phases.rows)} s (${perTx(phases.rows)}): COPY ${seconds(phases.copy)} s ` +
        `(${perTx(phases.copy)}) and index builds ${seconds(phases.indexes)} s (${perTx(phases.indexes)}), summed ` +
        'over the connections',
      `    ANALYZE ${seconds(phases.analyze)} s (${perTx(phases.analyze)})`,
      `    node check ${seconds(ms.check)} s: ${report.heightsChecked} heights ${seconds(phases.heights)} s, ` +
        `${report.accountsChecked} accounts ${seconds(phases.accounts)} s (at once); ${report.differences} ` +
        `difference(s)${chain.follow ? '; the devnode replays to each past block asked' : ''}`,
      ...lines.map((l) => `      ${l}`),
      `  the imported schema: ${mb(importedBytes)}, ${(importedBytes / schemaBytes).toFixed(3)} of its source ` +
        `(target ≤ ${TARGET_SIZE_RATIO})`,
    ].join('\n'),
  );
  writeResult('snapshot', {
    chain: chain.label,
    top: manifest.top.height,
    transactions,
    rows,
    connections: CONNECTIONS,
    bytes: { schema: schemaBytes, snapshot: snapshotBytes, copyText: rawBytes, imported: importedBytes },
    ms: { export: exportMs, import: importMs, checksums: ms.verify, ...phases, check: ms.check },
    differences: report.differences,
    lines,
  });
  if (report.differences > 0) process.exitCode = 1;
} finally {
  await dropSchema(target.databaseUrl, target.databaseSchema);
  await rm(work, { recursive: true, force: true });
  await chain.stop();
}
