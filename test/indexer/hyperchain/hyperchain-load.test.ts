/**
 * @module The populator on a hyperchain (issue 45 item 2): a generated chain of 8 epochs (holes, validator churn,
 * delegates moving, HCVoteTxs, micro blocks before their key blocks) loads with `-v --full` clean, and its epochs,
 * schedule, validators, delegates and pins equal the devnode's own state; after a populator killed mid-epoch and
 * resumed, and after a fork across an epoch boundary, too. No key block's beneficiary is credited a block reward, by
 * the node or the middleware, and those a version from before stored are derived away at the start. A chain that is
 * not a hyperchain is recorded as not one.
 */
import { expect } from 'chai';
import pino from 'pino';
import prom from 'prom-client';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { idKey } from '../../../src/chain/id-key.ts';
import * as reads from '../../../src/db/queries/hyperchain.ts';
import {
  expectVerifyClean,
  SHARED_HYPERCHAIN,
  startHyperchain,
  type TestHyperchain,
} from '../../support/hyperchain.ts';
import { startHarness } from '../../integration/indexer/support/harness.ts';
import { populateToTop } from '../../support/populate.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { waitFor } from '../../support/wait.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';
import { expectDevnodeState } from './oracle.ts';

const silent = pino({ level: 'silent' });
const CHILD = fileURLToPath(new URL('../../integration/indexer/support/populate-child.ts', import.meta.url));
/**
 * The chain's epochs of ten heights, and three heights of the next (SHARED_HYPERCHAIN), with holes, validator churn,
 * pins and stakes past 2^53 (the first case asserts them). The loads run with REWARD_RULES=devnode: rules that would
 * pay each key block's beneficiary at once (no delay), so a middleware that credited a hyperchain's blocks by the
 * configured rules would do so at every height; the mainnet rules' delay of 180 made the chain pass height 180 for the
 * same check. That the default (unset) rules give way too is chain-transfer-rules.test.ts's.
 */
const EPOCHS = SHARED_HYPERCHAIN.epochs;
const TOP = EPOCHS * 10 + 3;
/** where the third case plants the block rewards a version from before issue 45 stored (a reward and a dev share) */
const PLANTED = EPOCHS * 10 - 10;
const TABLES = ['hc_chain', 'hc_epochs', 'hc_schedule', 'hc_produced', 'hc_validators', 'hc_delegates', 'hc_pins'];

/** tableRows is every row of each hyperchain table but its recording time, in a fixed order. */
async function tableRows(hc: TestHyperchain, schema: string): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  // in a total order (each row's whole text): rows equal in their first columns (a validator's delegates) come in
  // the order they were written, which a reload (-H) of some heights changes
  const whole = (r: object): string => JSON.stringify(r);
  for (const t of TABLES)
    rows[t] = (await hc.query(schema, `SELECT * FROM ${t}`))
      .map(({ recorded_at: _, ...r }) => r)
      .sort((a, b) => (whole(a) < whole(b) ? -1 : whole(a) > whole(b) ? 1 : 0));
  return rows;
}

/**
 * nodeBalance is an account's exact balance in the node's state after key block `height` (0 when it has none): as a
 * string, for a JSON number past 2^53 loses the aettos a refund or a fee moves.
 */
async function nodeBalance(hc: TestHyperchain, account: string, height: number): Promise<bigint> {
  const res = await fetch(`${hc.devnode.externalUrl}/v3/accounts/${account}/height/${height}?int-as-string=true`);
  if (res.status === 404) return 0n;
  const body = (await res.json()) as { balance: string };
  return BigInt(body.balance);
}

/**
 * quietLeaderHeights lists, for each account that produced a key block, the heights where a reward for one of its
 * blocks could be paid (by any rules) and no stored transaction names it and no transfer of a transaction pays it (at
 * the height, the one before or after, wherever the node orders a generation's micro blocks), with the transfers the
 * middleware stores at the key block for it: the node's balance of the account changes from the height before by
 * those alone (an oracle query's refund at the key block included).
 */
async function quietLeaderHeights(
  hc: TestHyperchain,
  schema: string,
): Promise<{ account: string; height: number; credited: bigint }[]> {
  const leaders = await hc.query<{ beneficiary: string }>(schema, 'SELECT DISTINCT beneficiary FROM key_blocks');
  const out: { account: string; height: number; credited: bigint }[] = [];
  for (const { beneficiary } of leaders) {
    const rows = await hc.query<{ height: number; credited: string }>(
      schema,
      `SELECT k.height, (SELECT coalesce(sum(amount), 0)::text FROM internal_transfers t
                          WHERE t.height = k.height AND t.micro_index = -1 AND t.account_id = $1) AS credited
         FROM key_blocks k
        WHERE k.height > 0
          -- where a block reward would land by the devnode's rules: its own key block, at once
          AND k.beneficiary = $1
          AND NOT EXISTS (SELECT 1 FROM account_transactions a JOIN account_ids i ON i.num = a.account
                           WHERE i.key = $2 AND a.height BETWEEN k.height - 1 AND k.height + 1)
          AND NOT EXISTS (SELECT 1 FROM internal_transfers t
                           WHERE t.account_id = $1 AND t.height BETWEEN k.height - 1 AND k.height + 1
                             AND t.micro_index >= 0)
        ORDER BY k.height`,
      [beneficiary, idKey(beneficiary)],
    );
    for (const r of rows) out.push({ account: beneficiary, height: r.height, credited: BigInt(r.credited) });
  }
  return out;
}

describe('populator on a hyperchain', function () {
  this.timeout(600_000);
  let hc: TestHyperchain;

  before(async () => {
    // populated once a run, for relative-ttls.test.ts too, in batches of 37 heights that end inside epochs and cross
    // their boundaries (3 batches where 10 made 9: the chain is loaded four times here, each cheaper)
    hc = await startHyperchain(SHARED_HYPERCHAIN);
  });
  after(async () => {
    await hc?.close();
  });

  it(`loads ${EPOCHS} epochs with -v --full clean, and every hyperchain row equals the devnode state`, async () => {
    expect(hc.devnode.height()).to.equal(TOP);
    await expectVerifyClean(hc, 'mdw');
    const [chain] = await hc.query<{ hyperchain: boolean; staking: string }>('mdw', 'SELECT * FROM hc_chain');
    expect(chain).to.include({ hyperchain: true, staking: hc.devnode.chain.options.hyperchain!.staking });
    await expectDevnodeState(hc, 'mdw');
    // the generator made holes, validator churn and stakes past 2^53: the tables hold them
    const [facts] = await hc.query<{ holes: number; sets: number; big: boolean }>(
      'mdw',
      `SELECT (SELECT count(*)::int FROM hc_produced WHERE hole) AS holes,
              (SELECT count(DISTINCT v)::int FROM (SELECT string_agg(validator, ',' ORDER BY position) AS v
                                                     FROM hc_validators GROUP BY epoch) s) AS sets,
              (SELECT bool_or(stake > 9007199254740993) FROM hc_delegates) AS big`,
    );
    expect(facts!.holes).to.be.above(0);
    expect(facts!.sets).to.be.above(1);
    expect(facts!.big).to.equal(true);
  });

  it('credits no block reward: the node pays its key blocks into the contracts, and the middleware says so (issue 45)', async () => {
    // REWARD_RULES=devnode would pay each key block's beneficiary 100 AE at once: a hyperchain's rules are chosen
    const rewards = await hc.query<{ n: number }>(
      'mdw',
      `SELECT (SELECT count(*)::int FROM internal_transfers WHERE kind IN ('reward_block', 'reward_dev'))
            + (SELECT count(*)::int FROM stats_miner_rewards) AS n`,
    );
    expect(rewards).to.deep.equal([{ n: 0 }]);
    // where nothing but its key blocks touches a leader, the node's balance of it moves by what the middleware stores
    const quiet = await quietLeaderHeights(hc, 'mdw');
    const produced = await hc.query<{ height: number; beneficiary: string }>(
      'mdw',
      'SELECT height, beneficiary FROM key_blocks',
    );
    const producer = new Map(produced.map((r) => [r.height, r.beneficiary]));
    // the check covers heights that leaders produced themselves
    expect(quiet.filter((q) => producer.get(q.height) === q.account)).to.not.deep.equal([]);
    const moved: typeof quiet = [];
    for (const q of quiet) {
      const before = await nodeBalance(hc, q.account, q.height - 1);
      moved.push({ ...q, credited: (await nodeBalance(hc, q.account, q.height)) - before });
    }
    const claimed = new Map(quiet.map((q) => [`${q.account}@${q.height}`, q.credited]));
    expect(moved.filter((m) => m.credited !== claimed.get(`${m.account}@${m.height}`))).to.deep.equal([]);
  });

  it('derives away at the start the block rewards a version from before issue 45 stored, and -v saw them', async () => {
    const [leader] = await hc.query<{ beneficiary: string }>(
      'mdw',
      'SELECT beneficiary FROM key_blocks WHERE height = $1',
      [PLANTED],
    );
    const miner = leader!.beneficiary;
    await hc.query(
      'mdw',
      `INSERT INTO internal_transfers (height, micro_index, tx_index, kind, account_id, amount)
       VALUES ($2, -1, -1, 'reward_block', $1, 1000), ($2 + 1, -1, -1, 'reward_dev', $1, 7)`,
      [miner, PLANTED],
    );
    await hc.query('mdw', 'INSERT INTO stats_miner_rewards (height, miner, reward) VALUES ($2, $1, 1000)', [
      miner,
      PLANTED,
    ]);
    const lines: string[] = [];
    const report = await verifyChain({ cfg: hc.config(), log: silent, out: (l) => lines.push(l) }, {});
    expect(report.differences).to.be.above(0);
    expect(lines.some((l) => l.startsWith('derived internal_transfers: row only in the database'))).to.equal(true);
    const mended = async (): Promise<boolean> => {
      const [left] = await hc.query<{ n: number }>(
        'mdw',
        `SELECT (SELECT count(*)::int FROM derive_backfill)
              + (SELECT count(*)::int FROM internal_transfers WHERE kind IN ('reward_block', 'reward_dev'))
              + (SELECT count(*)::int FROM stats_miner_rewards) AS n`,
      );
      return left!.n === 0;
    };
    const populator = await startPopulator({ cfg: hc.config(), log: silent, registry: new prom.Registry() });
    try {
      await waitFor('the stored block rewards derived away', mended, 120_000);
    } finally {
      await populator.stop();
    }
    // the -H case's -v --full, over the mended chain (and the fork's), finds no difference but the one it plants
  });

  it('reads epochs, the schedule, validators and delegates page by page both ways, exact (db/queries/hyperchain.ts)', async () => {
    const pool: Pool = createPool({ databaseUrl: hc.config().databaseUrl, schema: 'mdw', max: 2 }, silent);
    try {
      const hyperchain = hc.devnode.chain.options.hyperchain!;
      expect(await reads.hyperchainRecord(pool)).to.deep.equal({
        hyperchain: true,
        contracts: { staking: hyperchain.staking, election: hyperchain.election, rewards: hyperchain.staking },
      });
      expect(await reads.isHyperchain(pool)).to.equal(true);
      // the top (83) is in the epoch after the last whole one (211-220), whose row came with the end of that one
      expect(await reads.currentEpoch(pool)).to.equal(EPOCHS + 1);
      expect(await reads.epochHeights(pool, { first: 3, last: 4 })).to.deep.equal({ first: 21, last: 40 });
      expect(await reads.epochHeights(pool, { first: 90, last: 99 })).to.equal(undefined);

      const all = { first: 1, last: 1000 };
      const newest = await reads.epochsPage(pool, all, { walk: 'backward', from: undefined, n: 3 });
      expect(newest.map((e) => e.epoch)).to.deep.equal([EPOCHS + 1, EPOCHS, EPOCHS - 1]);
      const next = await reads.epochsPage(pool, all, { walk: 'backward', from: EPOCHS - 2, n: 3 });
      expect(next.map((e) => e.epoch)).to.deep.equal([EPOCHS - 2, EPOCHS - 3, EPOCHS - 4]);
      const forward = await reads.epochsPage(pool, { first: 2, last: 4 }, { walk: 'forward', from: 3, n: 10 });
      expect(forward.map((e) => e.epoch)).to.deep.equal([3, 4]);
      // the running epoch's last leader is the top height's; an ended one's its last height's
      const schedule = await pool.query<{ height: number; leader: string }>('SELECT height, leader FROM hc_schedule');
      const leaderAt = new Map(schedule.rows.map((r) => [r.height, r.leader]));
      expect(newest[0]!.lastLeader).to.equal(leaderAt.get(TOP));
      expect(newest[1]!.lastLeader).to.equal(leaderAt.get(EPOCHS * 10));
      const stakes = await pool.query<{ validator: string; stake: string }>(
        'SELECT validator, stake::text AS stake FROM hc_validators WHERE epoch = $1 ORDER BY position',
        [EPOCHS],
      );
      expect(newest[1]!.validators).to.deep.equal(stakes.rows.map((r) => ({ ...r, stake: BigInt(r.stake) })));
      expect(newest[1]!.validators.some((v) => v.stake > 2n ** 53n)).to.equal(true);
      expect(await reads.epochAt(pool, EPOCHS)).to.deep.equal(newest[1]);

      const span = { first: EPOCHS * 10 - 5, last: EPOCHS * 10 + 10 };
      const heights = await reads.schedulePage(pool, span, { walk: 'backward', from: TOP + 1, n: 4 });
      expect(heights.map((h) => [h.height, h.producer === null])).to.deep.equal([
        [TOP + 1, true],
        [TOP, false],
        [TOP - 1, false],
        [TOP - 2, false],
      ]);
      expect(await reads.scheduleAt(pool, (EPOCHS + 1) * 10)).to.include({
        epoch: EPOCHS + 1,
        producer: null,
        hole: null,
      });
      const hole = await pool.query<{ height: number }>('SELECT height FROM hc_produced WHERE hole LIMIT 1');
      expect(await reads.scheduleAt(pool, hole.rows[0]!.height)).to.include({ hole: true });

      const lastTwo = { first: EPOCHS - 1, last: EPOCHS };
      const validators = await reads.validatorsPage(
        pool,
        { epochs: lastTwo },
        { walk: 'backward', from: undefined, n: 100 },
      );
      const byBytes = (a: reads.ValidatorRow, b: reads.ValidatorRow): number =>
        b.epoch - a.epoch || Buffer.compare(Buffer.from(b.validator), Buffer.from(a.validator));
      expect(validators).to.deep.equal([...validators].sort(byBytes));
      expect(new Set(validators.map((v) => v.epoch))).to.deep.equal(new Set([EPOCHS, EPOCHS - 1]));
      const [first, second] = validators;
      const from = { epoch: second!.epoch, account: second!.validator };
      const resumed = await reads.validatorsPage(pool, { epochs: lastTwo }, { walk: 'backward', from, n: 1 });
      expect(resumed).to.deep.equal([second]);
      const mine = await reads.validatorsPage(
        pool,
        { epochs: all, validator: first!.validator },
        { walk: 'forward', from: undefined, n: 1000 },
      );
      expect(new Set(mine.map((v) => v.validator))).to.deep.equal(new Set([first!.validator]));
      expect(await reads.validatorAt(pool, first!.validator, first!.epoch)).to.deep.equal(first);
      expect(await reads.lastValidatorEpoch(pool, first!.validator)).to.equal(EPOCHS + 1);
      const pins = await pool.query<{ leader: string; epoch: number; reward: string }>('SELECT * FROM hc_pins');
      const pinner = pins.rows[0]!;
      const withPins = (
        await reads.validatorsPage(
          pool,
          { epochs: all, validator: pinner.leader },
          { walk: 'forward', from: undefined, n: 1 },
        )
      )[0]!;
      expect(withPins.pinningHistory.get(pinner.epoch)).to.equal(BigInt(pinner.reward));

      const delegates = await reads.delegatesPage(
        pool,
        { validator: first!.validator, epochs: all },
        { walk: 'forward', from: undefined, n: 1000 },
      );
      const sum = delegates.filter((d) => d.epoch === first!.epoch).reduce((a, d) => a + d.stake, 0n);
      expect(sum).to.equal(first!.stake);
      const back = await reads.delegatesPage(
        pool,
        { validator: first!.validator, epochs: all },
        { walk: 'backward', from: { epoch: delegates.at(-2)!.epoch, account: delegates.at(-2)!.delegate }, n: 2 },
      );
      expect(back).to.deep.equal([delegates.at(-2), delegates.at(-3)]);
    } finally {
      await pool.end();
    }
  });

  it('resumes a populator killed (SIGKILL) mid-epoch with the same rows as an uninterrupted load', async () => {
    // a database of its own, copied from the migrated template as the first one: the child's start migrates nothing
    const db = await createMigratedDatabase('mdw', 1);
    const killed: TestHyperchain = { ...hc, query: async (_, sql, params) => (await db.pool.query(sql, params)).rows };
    try {
      const env = {
        NODE_URL: hc.devnode.externalUrl,
        DATABASE_URL: db.url,
        DATABASE_SCHEMA: 'mdw',
        BATCH_SIZE: '7',
        POLL_INTERVAL_MS: '50',
        LOG_LEVEL: 'silent',
        REWARD_RULES: 'devnode',
        // the modules' compiled code the run keeps (hooks.ts): compiled again, a start cost a second of CPU more
        NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
      };
      const child = spawn(process.execPath, [CHILD], { env, stdio: ['ignore', 'ignore', 'inherit'] });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const stored = async (): Promise<number> =>
        (
          await killed
            .query<{ top: number | null }>('mdw', 'SELECT max(height) AS top FROM key_blocks')
            .catch(() => [{ top: null }])
        )[0]?.top ?? -1;
      // batches of 7 heights end mid-epoch (at 48, 55, 62, …): the kill comes in one of them
      await waitFor('the populator past height 45', async () => (await stored()) >= 45, 120_000);
      child.kill('SIGKILL');
      await exited;
      const top = await stored();
      expect(top).to.be.below(hc.devnode.height());
      // what the kill left: whole heights, each with its key block's row, and the epochs whose boundary is stored
      const [left] = await killed.query<{ produced: number; epochs: number }>(
        'mdw',
        'SELECT (SELECT count(*)::int FROM hc_produced) AS produced, (SELECT count(*)::int FROM hc_epochs) AS epochs',
      );
      expect(left).to.deep.equal({ produced: top + 1, epochs: Math.floor(top / 10) + 1 });
      await populateToTop(hc.config({ DATABASE_URL: db.url }));
      expect(await tableRows(killed, 'mdw')).to.deep.equal(await tableRows(hc, 'mdw'));
      await expectDevnodeState(killed, 'mdw');
    } finally {
      await db.drop();
    }
  });

  it('follows a fork across an epoch boundary: the replaced epoch rows go, the new chain is loaded', async () => {
    // heights 76-83 replaced: the end of the last whole epoch at 80 (which fixes the next) among them; a new top shows it
    await hc.devnode.fork(8);
    await hc.devnode.mineKeyBlock();
    await hc.populate();
    await expectDevnodeState(hc, 'mdw');
    // the next case's -v --full checks the forked chain's every row (a third full load of the chain, when this case
    // ran one of its own): it finds no difference but the one that case plants
  });

  it('-H reloads heights by the same rules (no block reward, issue 45), and -v --full then finds a hyperchain row that differs from the node, digit for digit, and nothing else', async () => {
    // across the boundary of epochs EPOCHS - 2 and EPOCHS - 1
    const heights = Array.from({ length: 12 }, (_, i) => (EPOCHS - 3) * 10 + i);
    const done = await reloadHeights({ cfg: hc.config(), log: silent }, heights);
    expect(done.reloaded).to.equal(12);
    const [rewards] = await hc.query<{ n: number }>(
      'mdw',
      "SELECT count(*)::int AS n FROM internal_transfers WHERE kind IN ('reward_block', 'reward_dev')",
    );
    expect(rewards).to.deep.equal({ n: 0 });
    // one pass over the reloaded, mended and forked chain: the planted stake is its only difference
    const where = `epoch = ${EPOCHS - 1} AND position = 0`;
    await hc.query('mdw', `UPDATE hc_validators SET stake = stake + 1 WHERE ${where}`);
    try {
      const lines: string[] = [];
      const cfg = hc.config(FULL_VERIFY_BATCH);
      const report = await verifyChain({ cfg, log: silent, out: (l) => lines.push(l) }, { full: true });
      expect(report.checked).to.equal(hc.devnode.height() + 1);
      expect(report.differences).to.equal(2);
      expect(lines.map((l) => l.replace(/: \{.*/, ''))).to.deep.equal([
        'derived hc_validators: row only in the database',
        'derived hc_validators: row only re-derived from the node',
      ]);
    } finally {
      await hc.query('mdw', `UPDATE hc_validators SET stake = stake - 1 WHERE ${where}`);
    }
  });

  it('records a chain that is not a hyperchain as not one, with no hyperchain rows', async () => {
    const h = await startHarness(12, 'not-a-hyperchain');
    try {
      await populateToTop(h.config());
      expect(await h.query('mdw', 'SELECT hyperchain, staking, election, rewards FROM hc_chain')).to.deep.equal([
        { hyperchain: false, staking: null, election: null, rewards: null },
      ]);
      expect(await h.query('mdw', 'SELECT count(*)::int AS n FROM hc_produced')).to.deep.equal([{ n: 0 }]);
      // nothing to derive: the hyperchain area is never pending on another chain
      expect(await h.query('mdw', "SELECT area FROM derive_backfill WHERE area = 'hyperchain'")).to.deep.equal([]);
    } finally {
      await h.close();
    }
  });
});
