/**
 * @module A test's hyperchain: a hyperchain devnode with a generated chain of whole epochs (holes, validator churn,
 * delegates moving, HCVoteTxs) and a fresh database, with the populator run to the node's top when asked.
 */
import { expect } from 'chai';
import pg from 'pg';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config.ts';
import { startDevnode, type Devnode } from '../../src/devnode/index.ts';
import { verifyChain } from '../../src/indexer/maintenance/verify.ts';
import { populateToTop } from './populate.ts';
import { createTestDatabase } from './postgres.ts';

/** How a test's hyperchain is made. */
export interface HyperchainOptions {
  /** whole epochs generated (plus `extra` heights of the next) */
  readonly epochs: number;
  readonly epochLength?: number;
  readonly extra?: number;
  readonly seed?: string;
}

/** A running hyperchain devnode, a database and a config pointing at both. */
export interface TestHyperchain {
  readonly devnode: Devnode;
  readonly epochLength: number;
  config(overrides?: Record<string, string>): Config;
  /** populate runs the populator into `schema` (default `mdw`) until it stored the node's top. */
  populate(schema?: string): Promise<void>;
  /** query runs one statement on `schema`. */
  query<T extends pg.QueryResultRow>(schema: string, sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** startHyperchain starts a hyperchain devnode that mines only on demand and creates a fresh database. */
export async function startHyperchain(options: HyperchainOptions): Promise<TestHyperchain> {
  const epochLength = options.epochLength ?? 10;
  const devnode = await startDevnode(
    {
      port: 0,
      internalPort: 0,
      mine: false,
      microBlockIntervalMs: 0,
      hyperchain: { epochLength },
      generate: {
        generations: options.epochs * epochLength + (options.extra ?? 0),
        seed: options.seed ?? 'hyperchain',
        microBlocksPerGeneration: 1,
        txsPerMicroBlock: 4,
      },
    },
    pino({ level: 'silent' }),
  );
  const db = await createTestDatabase();
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const config = (overrides: Record<string, string> = {}): Config =>
    loadConfig({
      NODE_URL: devnode.externalUrl,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw',
      POLL_INTERVAL_MS: '50',
      BATCH_SIZE: '10',
      FORK_WINDOW: '5',
      NODE_TIMEOUT_MS: '5000',
      FETCH_CONCURRENCY: '4',
      ...overrides,
    });
  return {
    devnode,
    epochLength,
    config,
    populate: (schema = 'mdw') => populateToTop(config({ DATABASE_SCHEMA: schema })),
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

/** expectVerifyClean runs `mdw -v --full` on `schema`: no line printed, no difference, every height checked. */
export async function expectVerifyClean(hc: TestHyperchain, schema: string): Promise<void> {
  const lines: string[] = [];
  const cfg = hc.config({ DATABASE_SCHEMA: schema });
  const report = await verifyChain({ cfg, log: pino({ level: 'silent' }), out: (l) => lines.push(l) }, { full: true });
  expect(lines).to.deep.equal([]);
  expect(report.differences).to.equal(0);
  expect(report.checked).to.equal(hc.devnode.height() + 1);
}
