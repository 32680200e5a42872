/** @module Test harness for the indexer: a devnode, a database, a config pointing at both, waiting helpers. */
import { expect } from 'chai';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import pg from 'pg';
import { writeNodeFiles } from '../../../../src/cli/dev/node-files.ts';
import { loadConfig, type Config } from '../../../../src/config/middleware.ts';
import { createPool, type Pool } from '../../../../src/db/connection/pool.ts';
import type { Devnode, DevnodeOptions } from '../../../../src/devnode/index.ts';
import type { GenerateOptions } from '../../../../src/devnode/generator.ts';
import { createTestDatabase } from '../../../support/postgres.ts';
import { deriveBackfills, populateToTop } from '../../../support/populate.ts';
import { verifyChain } from '../../../../src/indexer/maintenance/verify.ts';
import { startGeneratedDevnode } from '../../../support/devnode.ts';
import { wrappedAe } from '../../../support/aex9-truth.ts';
import { FULL_VERIFY_BATCH } from '../../../support/verify-batch.ts';

export const silent = pino({ level: 'silent' });

export interface Harness {
  readonly devnode: Devnode;
  readonly db: { url: string; drop(): Promise<void> };
  config(overrides?: Record<string, string>): Config;
  /** query runs one statement on the given schema. */
  query<T extends pg.QueryResultRow>(schema: string, sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * startHarness starts a generated devnode (mining only on demand) and creates a fresh database, its schema `mdw`
 * migrated (a copy of the server's template: the populator finds every migration applied, as after its own migrating,
 * and records the identity), and its `-v --full` scratch schema too; `generate` adds to the chain's shape (e.g. its share of token transactions); `env` adds
 * to every config (e.g. REWARD_RULES=devnode, the devnode's own rewards, for a chain long enough that the default
 * mainnet rules, paying 180 blocks late, pay any); `node` configures the devnode (its endpoint gates, its pruning).
 */
export async function startHarness(
  generations: number,
  seed: string,
  generate: Partial<GenerateOptions> = {},
  env: Record<string, string> = {},
  node: Omit<DevnodeOptions, 'generate'> = {},
): Promise<Harness> {
  const devnode = await startGeneratedDevnode(
    {
      generations,
      microBlocksPerGeneration: 2,
      txsPerMicroBlock: 4,
      seed,
      ...generate,
    },
    node,
  );
  // its `-v --full` scratch (mdw_verify) migrated too, as a first `-v --full` leaves it: most files verify `mdw`
  const db = await createTestDatabase({ migrated: 'mdw', verifyScratch: true });
  // the chain's wrapped AE named, as on a configured network: unnamed, its deposits are not counted, and the
  // state check of `-v --full` (verifyClean) rightly finds its holders' balances wrong (issue 58)
  const wae = wrappedAe(devnode.chain);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  return {
    devnode,
    db,
    config: (overrides = {}) =>
      loadConfig({
        NODE_URL: devnode.externalUrl,
        DATABASE_URL: db.url,
        DATABASE_SCHEMA: 'mdw',
        // 200 ms, not 50: the populators the cases leave running idle at under half the CPU (test/integration/v3/harness.ts)
        POLL_INTERVAL_MS: '200',
        BATCH_SIZE: '10',
        FORK_WINDOW: '5',
        NODE_TIMEOUT_MS: '2000',
        FETCH_CONCURRENCY: '4',
        ...(wae === '' ? {} : { DEX_WRAPPED_AE: wae }),
        ...env,
        ...overrides,
      }),
    async query<T extends pg.QueryResultRow>(schema: string, sql: string, params: unknown[] = []) {
      await client.query(`SET search_path TO "${schema}"`);
      return (await client.query<T>(sql, params)).rows;
    },
    async close() {
      await client.end();
      await devnode.stop();
      await db.drop();
    },
  };
}

/**
 * nodeSettings writes the devnode's genesis accounts and hard-fork files, as an operator gives the node's, and returns
 * the populator's settings naming them and the node's internal API (its dry-runs): with them every account's history
 * starts at its genesis balance.
 */
export async function nodeSettings(h: Harness): Promise<Record<string, string>> {
  const { genesisAccountsFile, forkFiles } = await writeNodeFiles(
    await mkdtemp(join(tmpdir(), 'mdw-genesis-')),
    h.devnode.chain,
  );
  return { GENESIS_ACCOUNTS_FILE: genesisAccountsFile, ...forkFiles, NODE_INTERNAL_URL: h.devnode.internalUrl };
}

/**
 * populatedWithNodeSettings populates `schema` (the populator migrates one not there yet) to the devnode's top with
 * nodeSettings, and opens a pool on it (the caller ends it): `env`, the settings and the schema, for the checks that
 * must follow the same (verifyClean).
 */
export async function populatedWithNodeSettings(
  h: Harness,
  schema = 'mdw',
): Promise<{ env: Record<string, string>; pool: Pool }> {
  const env = { ...(await nodeSettings(h)), DATABASE_SCHEMA: schema };
  await populateToTop(h.config(env));
  return { env, pool: createPool({ databaseUrl: h.db.url, schema, max: 2 }, silent) };
}

/** mineGeneration mines the pending transactions into a micro block and a key block after it: the micro block's height. */
export async function mineGeneration(h: Harness): Promise<number> {
  await h.devnode.mineMicroBlock();
  const height = h.devnode.chain.height;
  await h.devnode.mineKeyBlock();
  return height;
}

/** waitFor polls `check` until it returns true, failing after `timeoutMs` with `what` in the message. */
export { waitFor } from '../../../support/wait.ts';

/** storedTopHash is the hash of the highest stored key block in `schema` (undefined when empty). */
export async function storedTopHash(h: Harness, schema: string): Promise<{ height: number; hash: string } | undefined> {
  return (
    await h.query<{ height: number; hash: string }>(
      schema,
      'SELECT height, hash FROM key_blocks ORDER BY height DESC LIMIT 1',
    )
  )[0];
}

/** deriveAgain runs a populator until the derived areas a migration queued (`derive_backfill`) are derived again. */
export async function deriveAgain(h: Harness, pool: Pool, env: Record<string, string> = {}): Promise<void> {
  await deriveBackfills(h.config(env), pool);
}

/**
 * verifyClean checks every stored height against the node, full JSON included: no difference at all (`env`: the
 * populator's own settings, which the derivation compared follows, e.g. its genesis accounts file). Its scratch load
 * runs in batches of FULL_VERIFY_BATCH unless `env` says otherwise.
 */

export async function verifyClean(h: Harness, env: Record<string, string> = {}): Promise<void> {
  const lines: string[] = [];
  const cfg = h.config({ ...FULL_VERIFY_BATCH, ...env });
  const report = await verifyChain({ cfg, log: silent, out: (l) => lines.push(l) }, { full: true });
  expect(lines).to.deep.equal([]);
  expect(report.differences).to.equal(0);
  expect(report.checked).to.equal(h.devnode.height() + 1);
}
