/** @module The loader's dependencies as a populator on a main chain has them, for tests that drive batches by hand. */
import type { Config } from '../../../../src/config/middleware.ts';
import { migrate } from '../../../../src/db/schema/migrator.ts';
import { createWritePool, type Pool } from '../../../../src/db/connection/pool.ts';
import { contractReaders } from '../../../../src/indexer/contracts/aexn-detector.ts';
import { transferRulesOf } from '../../../../src/indexer/derived/internal-transfers.ts';
import type { LoaderDeps } from '../../../../src/indexer/sync/loader.ts';
import type { NodeClient } from '../../../../src/node/client.ts';
import { silent } from './harness.ts';

/** migratedPool migrates `cfg`'s schema and opens a write pool of `size` on it. */
export async function migratedPool(cfg: Config, name: string, size: number): Promise<Pool> {
  await migrate({ databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema }, silent);
  return createWritePool(cfg, name, silent, size);
}

/** loaderDeps loads through `node`; the contract readers (code, dry-runs) ask `readers`, by default the same node. */
export async function loaderDeps(cfg: Config, pool: Pool, node: NodeClient, readers = node): Promise<LoaderDeps> {
  return {
    pool,
    node,
    ...contractReaders(cfg, pool, readers),
    schema: cfg.databaseSchema,
    concurrency: 4,
    log: silent,
    transferRules: await transferRulesOf(cfg, { hyperchain: false }),
  };
}
