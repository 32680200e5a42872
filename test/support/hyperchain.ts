/**
 * @module A test's hyperchain: a hyperchain devnode with a generated chain of whole epochs (holes, validator churn,
 * delegates moving, HCVoteTxs) and a fresh database, with the populator run to the node's top when asked (or the
 * database a copy of the run's populated one for the chain); and the
 * block rewards its consensus credited, per epoch and validator.
 */
import { expect } from 'chai';
import pg from 'pg';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config/middleware.ts';
import { stringifyJson, type Json } from '../../src/chain/json.ts';
import {
  genesisAccountsJson,
  HOLE_FLAG,
  startDevnode,
  type Devnode,
  type Hyperchain,
  type StakingRecord,
} from '../../src/devnode/index.ts';
import { isPinned } from '../../src/devnode/hyperchain/consensus.ts';
import { recordRewardFees } from '../../src/devnode/rules/reward-fees.ts';
import { verifyChain } from '../../src/indexer/maintenance/verify.ts';
import { populateToTop } from './populate.ts';
import { seededAccounts } from './seeded-accounts.ts';
import { createPopulatedDatabase, createTestDatabase } from './postgres.ts';
import { FULL_VERIFY_BATCH } from './verify-batch.ts';

/** How a test's hyperchain is made. */
export interface HyperchainOptions {
  /** whole epochs generated (plus `extra` heights of the next) */
  readonly epochs: number;
  readonly epochLength?: number;
  readonly extra?: number;
  readonly seed?: string;
  /** what MainStaking's `get_validator_state` answers (the devnode's `--staking-record`; default `response`) */
  readonly stakingRecord?: StakingRecord;
  /** the populator's BATCH_SIZE (default 10): a load in fewer batches pays each batch's derivations and commit fewer times */
  readonly batchSize?: number;
  /** settings every `config()` starts from (its overrides win), e.g. REWARD_RULES */
  readonly settings?: Readonly<Record<string, string>>;
  /**
   * the database comes with `mdw` populated to the node's top: a copy of the one the run populated for this chain and
   * these settings (createPopulatedDatabase), for a chain that other files load the same way. Its accounts are then
   * derived from the seed (a chain is the same chain in every file only so)
   */
  readonly populated?: boolean;
}

/**
 * The hyperchain that hyperchain-load.test.ts, relative-ttls.test.ts and oracle-refunds.test.ts load, populated once a
 * run (`populated`): 8 epochs of ten heights and three of the next, with holes, validator churn, pins, stakes past
 * 2^53, name claims (auctions among them) and updates, oracles registered and extended, queries refunded and a channel
 * solo-closed, which each file asserts present. The other two loaded chains of their own before (relative-ttls one of
 * 80 heights: ~2 CPU-s of its file's, the populator's and PostgreSQL's). Loaded in batches of 37 heights, which end
 * inside epochs and cross their boundaries, with REWARD_RULES=devnode: rules that would pay each key block's
 * beneficiary at once, so that a middleware crediting a hyperchain's blocks by the configured rules would do so at
 * every height (hyperchain-load.test.ts).
 */
export const SHARED_HYPERCHAIN: HyperchainOptions = {
  epochs: 8,
  extra: 3,
  seed: 'hyperchain',
  batchSize: 37,
  settings: { REWARD_RULES: 'devnode' },
  populated: true,
};

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
  const seed = options.seed ?? 'hyperchain';
  const hyperchain = { epochLength, ...(options.stakingRecord ? { stakingRecord: options.stakingRecord } : {}) };
  const devnode = await startDevnode(
    {
      port: 0,
      internalPort: 0,
      mine: false,
      microBlockIntervalMs: 0,
      hyperchain,
      ...(options.populated ? { accounts: seededAccounts(seed) } : {}),
      generate: {
        generations: options.epochs * epochLength + (options.extra ?? 0),
        seed,
        microBlocksPerGeneration: 1,
        txsPerMicroBlock: 4,
      },
    },
    pino({ level: 'silent' }),
  );
  const settings = (url: string, overrides: Record<string, string> = {}): Config =>
    loadConfig({
      NODE_URL: devnode.externalUrl,
      DATABASE_URL: url,
      DATABASE_SCHEMA: 'mdw',
      // 200 ms, not 50: the populators the cases leave running idle at under half the CPU (test/integration/v3/harness.ts)
      POLL_INTERVAL_MS: '200',
      BATCH_SIZE: String(options.batchSize ?? 10),
      FORK_WINDOW: '5',
      NODE_TIMEOUT_MS: '5000',
      FETCH_CONCURRENCY: '4',
      ...options.settings,
      ...overrides,
    });
  // the chain named by its top block, whose hash covers every block before it
  const key = {
    top: devnode.chain.topHash,
    genesis: genesisAccountsJson(devnode.chain),
    hyperchain,
    batchSize: options.batchSize,
    settings: options.settings,
  };
  const db = options.populated
    ? await createPopulatedDatabase('mdw', stringifyJson(key as Json)!, (url) => populateToTop(settings(url)), {
        verifyScratch: true,
      })
    : await createTestDatabase({ migrated: 'mdw', verifyScratch: true });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const config = (overrides: Record<string, string> = {}): Config => settings(db.url, overrides);
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

/**
 * expectVerifyClean runs `mdw -v --full` on `schema`: no line printed, no difference, every height checked (its scratch
 * loaded in batches of FULL_VERIFY_BATCH).
 */
export async function expectVerifyClean(hc: TestHyperchain, schema: string): Promise<void> {
  const lines: string[] = [];
  const cfg = hc.config({ ...FULL_VERIFY_BATCH, DATABASE_SCHEMA: schema });
  const report = await verifyChain({ cfg, log: pino({ level: 'silent' }), out: (l) => lines.push(l) }, { full: true });
  expect(lines).to.deep.equal([]);
  expect(report.differences).to.equal(0);
  expect(report.checked).to.equal(hc.devnode.height() + 1);
}

/**
 * devnodeRewards are the block rewards of each epoch whose rewards the node's top paid (at the end of the epoch after
 * it), per validator, summed as the devnode's consensus credits them (consensus.ts, not its contracts' state): each
 * key block that is not a hole gives its producer `fixed_coinbase` and the fees of the micro blocks before it, and a
 * pinned epoch's last leader the pin reward.
 */
export function devnodeRewards(hc: TestHyperchain): { epoch: number; validator: string; reward: string }[] {
  const chain = hc.devnode.chain;
  const { fixedCoinbase, pinningReward } = (chain.options.hyperchain as Hyperchain).config;
  const L = hc.epochLength;
  const sums = new Map<string, bigint>();
  const credit = (epoch: number, validator: string, amount: bigint): void => {
    const key = `${epoch} ${validator}`;
    sums.set(key, (sums.get(key) ?? 0n) + amount);
  };
  let carried = 0n; // the pin rewards carried over to the epoch: the base of each unpinned epoch right before
  // epoch e (heights (e-1)L+1..eL) is paid at the end of epoch e + 1
  for (let epoch = 1; (epoch + 1) * L <= chain.height; epoch++) {
    for (let h = (epoch - 1) * L + 1; h <= epoch * L; h++) {
      const header = chain.keyBlocks[h]!.header;
      if (((header.hcFlags ?? 0) & HOLE_FLAG) !== 0) continue;
      // the fees as the node counts them for a reward: its transactions' (inner ones' too) and their calls' gas
      const fees = chain.keyBlocks[h - 1]!.micro.flatMap((mb) => mb.txs).reduce((a, r) => a + recordRewardFees(r), 0n);
      credit(epoch, header.beneficiary, fixedCoinbase + fees);
    }
    // epoch 1's pin reward is none (init_epochs), each later one's the base and what was carried over to it
    const pinReward = epoch === 1 ? 0n : pinningReward + carried;
    if (isPinned(epoch)) credit(epoch, chain.keyBlocks[epoch * L]!.header.beneficiary, pinReward);
    carried = isPinned(epoch) ? 0n : pinningReward + carried;
  }
  return [...sums]
    .map(([key, reward]) => {
      const [epoch, validator] = key.split(' ') as [string, string];
      return { epoch: Number(epoch), validator, reward: String(reward) };
    })
    .sort(byEpochValidator);
}

/** byEpochValidator orders reward rows by epoch, then validator (as JavaScript compares strings). */
export const byEpochValidator = (
  a: { epoch: number; validator: string },
  b: { epoch: number; validator: string },
): number => a.epoch - b.epoch || (a.validator < b.validator ? -1 : a.validator > b.validator ? 1 : 0);
