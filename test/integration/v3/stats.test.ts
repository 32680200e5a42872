/**
 * @module /v3/stats through the SDK's Middleware client over a generated devnode chain of two UTC
 * days: every series and per-generation statistic equals a recount from the devnode's chain (or,
 * for accounts, from the stored transactions), before and after forks replace the top generations.
 */
import { expect } from 'chai';
import { KEY_TAGS } from '../../../src/chain/id-key.ts';
import { KEY_BLOCK_REWARD } from '../../../src/devnode/rules/fees.ts';
import type { Json } from '../../../src/chain/json.ts';
import { innerTx } from '../../../src/chain/tx-fields.ts';
import { withTransaction } from '../../../src/db/connection/pool.ts';
import { storedKeyBlockTargets } from '../../../src/db/writes/derive-backfill.ts';
import { deriveStatsOfStored } from '../../../src/indexer/derived/stats.ts';
import { startV3, walkPages, type ChainTruth, type V3UnderTest } from './harness.ts';

type Item = Record<string, unknown>;

type Obj = { [key: string]: Json };

const DAY_MS = 86_400_000;
const isoDay = (ms: number): string => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/** The tx and each inner tx it wraps: all take effect. */
function effective(tx: Obj): Obj[] {
  const out = [tx];
  for (let t = innerTx(tx); t; t = innerTx(t)) out.push(t);
  return out;
}

/** What a recount of the devnode's chain gives. */
interface Recount {
  /** transactions per UTC day (all, and per node type) */
  txsPerDay: Map<string, number>;
  txsPerDayOfType: (type: string) => Map<string, number>;
  keyBlocksPerDay: Map<string, number>;
  microBlocksPerDay: Map<string, number>;
  /** per height: effective tx types counted, last tx hash at or below */
  perHeight: { types: Map<string, number>; lastTx: string | null }[];
}

function recount(chain: ChainTruth): Recount {
  const add = (m: Map<string, number>, k: string, n = 1): void => void m.set(k, (m.get(k) ?? 0) + n);
  const txsPerDay = new Map<string, number>();
  const keyBlocksPerDay = new Map<string, number>();
  const microBlocksPerDay = new Map<string, number>();
  const microTime = new Map<string, number>();
  for (const kb of chain.keyBlocks) add(keyBlocksPerDay, isoDay(Number(kb.time)));
  for (const micros of chain.microBlocks.values())
    for (const mb of micros) {
      add(microBlocksPerDay, isoDay(Number(mb.time)));
      microTime.set(String(mb.hash), Number(mb.time));
    }
  const perHeight = chain.keyBlocks.map(() => ({
    types: new Map<string, number>(),
    lastTx: null as string | null,
  }));
  let lastTx: string | null = null;
  for (const tx of chain.transactions) {
    add(txsPerDay, isoDay(microTime.get(tx.blockHash)!));
    const h = perHeight[tx.height]!;
    const body = tx.signed.tx as Obj;
    for (const t of effective(body)) add(h.types, String(t.type));
  }
  for (const [height, h] of perHeight.entries()) {
    const last = chain.transactions.filter((t) => t.height === height).at(-1);
    if (last) lastTx = last.hash;
    h.lastTx = lastTx;
  }
  return {
    txsPerDay,
    txsPerDayOfType(type) {
      const m = new Map<string, number>();
      for (const tx of chain.transactions)
        if ((tx.signed.tx as Obj).type === type) add(m, isoDay(microTime.get(tx.blockHash)!));
      return m;
    },
    keyBlocksPerDay,
    microBlocksPerDay,
    perHeight,
  };
}

/** counts turns SDK Stat items into day → count (dropping zero days, which the recount does not list). */
function counts(items: Item[]): Map<string, number> {
  return new Map(items.filter((s) => Number(s.count) !== 0).map((s) => [String(s.startDate), Number(s.count)]));
}

describe('/v3/stats through the SDK Middleware client (devnode → populator → server)', function () {
  this.timeout(600_000);
  let v3: V3UnderTest;
  let chain: ChainTruth;
  let r: Recount;
  before(async () => {
    // 130 generations, twelve minutes apart from 2026-01-01: two UTC days (the second from height 120, which the
    // deep fork below replaces); one micro block of four transactions each, every kind the cases count among them
    // (the last, ChannelSettleTx, at 120; checkSeries and checkGenerations guard some). Three-minute spacing took 500
    // generations for two days, four times the loads for the same checks
    v3 = await startV3(130, 'v3-stats', () => ({}), {
      shape: { microBlocksPerGeneration: 1, txsPerMicroBlock: 4, keyBlockSpacingMs: 12 * 60_000 },
    });
    chain = await v3.truth();
    r = recount(chain);
  });
  after(async () => {
    await v3?.close();
  });

  /** checkSeries compares the per-day series with the recount. */
  async function checkSeries(): Promise<void> {
    // every day from the first block's to the last one's, in order (a later block may be mined today)
    const times = [...chain.keyBlocks, ...[...chain.microBlocks.values()].flat()].map((b) => Number(b.time));
    const [firstDay, lastDay] = [Math.min(...times), Math.max(...times)].map((t) => Math.floor(t / DAY_MS));
    const allDays = Array.from({ length: lastDay! - firstDay! + 1 }, (_, i) => isoDay((firstDay! + i) * DAY_MS));
    const days = await walkPages(
      await v3.mdw.getTransactionsStats({ intervalBy: 'day', limit: 100, direction: 'forward' }),
    );
    expect(days.map((d) => d.startDate)).to.deep.equal(allDays);
    expect([...r.txsPerDay.keys()].slice(0, 2), 'transactions on both generated days').to.deep.equal([
      '2026-01-01',
      '2026-01-02',
    ]);
    expect(days.map((d) => d.endDate)).to.deep.equal([...allDays.slice(1), isoDay((lastDay! + 1) * DAY_MS)]);
    expect(counts(days)).to.deep.equal(r.txsPerDay);
    const lastPage = await v3.mdw.getTransactionsStats({ limit: 1 });
    expect((lastPage.data as unknown as Item[]).map((d) => d.startDate)).to.deep.equal([allDays.at(-1)]);
    for (const type of ['SpendTx', 'ContractCallTx', 'NameClaimTx']) {
      const snake = type
        .replace(/Tx$/, '')
        .replace(/([a-z])([A-Z])/g, '$1_$2')
        .toLowerCase();
      const byType = await walkPages(await v3.mdw.getTransactionsStats({ txType: snake, limit: 100 }));
      expect(r.txsPerDayOfType(type).size, `the chain has ${type}s`).to.be.greaterThan(0);
      expect(counts(byType), type).to.deep.equal(r.txsPerDayOfType(type));
    }
    const key = await walkPages(await v3.mdw.getBlocksStats({ type: 'key', limit: 100 }));
    expect(counts(key)).to.deep.equal(r.keyBlocksPerDay);
    const micro = await walkPages(await v3.mdw.getBlocksStats({ type: 'micro', limit: 100 }));
    expect(counts(micro)).to.deep.equal(r.microBlocksPerDay);
    const both = await walkPages(await v3.mdw.getBlocksStats({ limit: 100 }));
    for (const s of both)
      expect(Number(s.count)).to.equal(
        (r.keyBlocksPerDay.get(String(s.startDate)) ?? 0) + (r.microBlocksPerDay.get(String(s.startDate)) ?? 0),
      );
    // weeks start on Thursdays (days since 1970-01-01, a Thursday, by 7), months on the 1st
    const regroup = (start: (day: Date) => string): Map<string, number> => {
      const m = new Map<string, number>();
      for (const [day, n] of r.txsPerDay) m.set(start(new Date(day)), (m.get(start(new Date(day))) ?? 0) + n);
      return m;
    };
    const weekStart = (d: Date): string => isoDay(Math.floor(d.getTime() / DAY_MS / 7) * 7 * DAY_MS);
    const monthStart = (d: Date): string => `${d.toISOString().slice(0, 7)}-01`;
    expect(weekStart(new Date('2026-01-07')), 'the week of 2026-01-01').to.equal('2026-01-01');
    expect(weekStart(new Date('2026-01-08'))).to.equal('2026-01-08');
    const weeks = await walkPages(await v3.mdw.getTransactionsStats({ intervalBy: 'week', limit: 100 }));
    expect(counts(weeks)).to.deep.equal(regroup(weekStart));
    const months = await walkPages(await v3.mdw.getTransactionsStats({ intervalBy: 'month', limit: 100 }));
    expect(counts(months)).to.deep.equal(regroup(monthStart));
    const total = chain.transactions.length;
    const onFirstDay = (await v3.get('/mdw/v3/stats/transactions/total?max_start_date=2026-01-01')).body;
    expect(onFirstDay).to.equal(r.txsPerDay.get('2026-01-01'));
    expect((await v3.get('/mdw/v3/stats/transactions/total')).body).to.equal(total);
  }

  /** checkGenerations compares deltas and totals at sampled heights with the recount. */
  async function checkGenerations(): Promise<void> {
    const top = chain.keyBlocks.length - 1;
    const deltas = await walkPages(await v3.mdw.getDeltaStats({ limit: 100 }));
    expect(deltas.map((d) => d.height)).to.deep.equal(Array.from({ length: top }, (_, i) => top - i));
    const totals = await walkPages(await v3.mdw.getTotalStats({ limit: 100, direction: 'forward' }));
    expect(totals.map((t) => t.height)).to.deep.equal(Array.from({ length: top }, (_, i) => i + 1));
    const sum = { contracts: 0, opened: 0, closed: 0, reward: 0n, oracles: 0 };
    // the supply starts with what the devnode's genesis accounts hold
    const genesis = v3.devnode.chain.options.genesisAccounts.reduce((total, a) => total + a.balance, 0n);
    expect(genesis > 0n, 'genesis balances').to.equal(true);
    const perHeight = r.perHeight;
    for (let h = 1; h <= top; h++) {
      const n = (type: string): number => perHeight[h]!.types.get(type) ?? 0;
      const d = deltas[top - h]!;
      const t = totals[h - 1]!;
      // totals at h are those through h - 1
      expect(Number(t.contracts), `contracts before ${h}`).to.equal(sum.contracts);
      expect(t.sumBlockReward, `rewards before ${h}`).to.equal(sum.reward);
      expect(t.totalTokenSupply, `supply before ${h}`).to.equal(genesis + sum.reward);
      expect(Number(t.openChannels), `channels before ${h}`).to.equal(sum.opened - sum.closed);
      // the devnode pays each key block's beneficiary at once and burns fees (the harness's REWARD_RULES=devnode)
      const reward = KEY_BLOCK_REWARD;
      expect(d.blockReward, `reward ${h}`).to.equal(reward);
      expect(Number(d.contractsCreated), `contracts ${h}`).to.equal(n('ContractCreateTx') + n('GAAttachTx'));
      expect(Number(d.channelsOpened), `opened ${h}`).to.equal(n('ChannelCreateTx'));
      expect(Number(d.channelsClosed), `closed ${h}`).to.equal(n('ChannelCloseMutualTx') + n('ChannelSettleTx'));
      expect(Number(d.namesRevoked), `revoked ${h}`).to.equal(n('NameRevokeTx'));
      expect(Number(d.oraclesRegistered), `oracles ${h}`).to.equal(n('OracleRegisterTx'));
      expect(d.lastTxHash ?? null, `last tx ${h}`).to.equal(perHeight[h]!.lastTx);
      sum.contracts += n('ContractCreateTx') + n('GAAttachTx');
      sum.opened += n('ChannelCreateTx');
      sum.closed += n('ChannelCloseMutualTx') + n('ChannelSettleTx');
      sum.reward += reward;
    }
    expect(sum.contracts, 'the chain creates contracts').to.be.greaterThan(0);
    // the key blocks' own reward is the generation's
    const kb = (await v3.get(`/mdw/v3/key-blocks/${top}`)).body as Obj;
    expect(kb.beneficiary_reward).to.equal(deltas[0]!.blockReward);
    // all rewards go to the devnode's beneficiary
    const miners = (await v3.mdw.getMinerStats()).data as unknown as Item[];
    expect(miners.map((m) => m.miner)).to.deep.equal([...new Set(chain.keyBlocks.slice(1).map((k) => k.beneficiary))]);
    expect(miners[0]!.totalReward).to.equal(sum.reward);
    // and each key block counts once for its rewarded miner, per day
    const top1 = (await v3.get('/mdw/v3/stats/miners/top?limit=100')).body as { data: Obj[] };
    expect(new Map(top1.data.map((m) => [m.start_date, m.blocks_mined]))).to.deep.equal(
      new Map(
        [...r.keyBlocksPerDay].map(([day, n]) => [day, day === isoDay(Number(chain.keyBlocks[0]!.time)) ? n - 1 : n]),
      ),
    );
    expect(top1.data.every((m) => m.miner === miners[0]!.miner)).to.equal(true);
    // the highest tps and its generation as the generations' rows give them (the first by tps, descending, then
    // height), where /v3/stats reads the top generation's best through it (migration 1155)
    const { rows: best } = await v3.pool.query<{ tps: string; hash: string }>(
      `SELECT g.tps::text AS tps, k.hash
         FROM stats_generations g JOIN key_blocks k ON k.height = g.height ORDER BY g.tps DESC, g.height LIMIT 1`,
    );
    const stats = (await v3.get('/mdw/v3/stats')).body as Obj;
    expect([stats.max_transactions_per_second, stats.max_transactions_per_second_block_hash]).to.deep.equal([
      Number(best[0]!.tps),
      best[0]!.hash,
    ]);
  }

  /** checkAccounts compares account series with a recount of the stored transactions' account ids. */
  async function checkAccounts(): Promise<void> {
    const { rows } = await v3.pool.query<{ day: string; active: number }>(
      `SELECT to_char(to_timestamp(t.micro_time_ms / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
              count(DISTINCT a.account)::int AS active
         FROM account_transactions a JOIN transactions t ON (t.height, t.micro_index, t.tx_index) = (a.height, a.micro_index, a.tx_index)
         JOIN account_ids i ON i.num = a.account
        WHERE get_byte(i.key, 0) = ${KEY_TAGS.ak} GROUP BY 1`,
    );
    const active = await walkPages(await v3.mdw.getActiveAccountsStats({ limit: 100 }));
    expect(counts(active)).to.deep.equal(new Map(rows.map((x) => [x.day, x.active])));
    const firsts = await v3.pool.query<{ n: number }>(
      `SELECT count(DISTINCT a.account)::int AS n FROM account_transactions a JOIN account_ids i ON i.num = a.account
        WHERE get_byte(i.key, 0) = ${KEY_TAGS.ak}`,
    );
    const total = await walkPages(await v3.mdw.getTotalAccountsStats({ limit: 100 }));
    expect(total.reduce((s, x) => s + Number(x.count), 0)).to.equal(firsts.rows[0]!.n);
    const deltas = await walkPages(await v3.mdw.getDeltaStats({ limit: 100 }));
    expect(deltas.reduce((s, x) => s + Number(x.accounts), 0)).to.equal(firsts.rows[0]!.n);
  }

  /** checkAex9 compares the AEX-9 transfers series with the stored token events (Transfer, Mint, Burn). */
  async function checkAex9(): Promise<void> {
    const { rows } = await v3.pool.query<{ day: string; n: number }>(
      `SELECT to_char(to_timestamp(t.micro_time_ms / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n
         FROM (SELECT tx_hash FROM aex9_transfers
               UNION ALL SELECT tx_hash FROM aex9_events WHERE kind IN ('mint', 'burn')) e
         JOIN transactions t ON t.hash = e.tx_hash GROUP BY 1`,
    );
    expect(rows.length, 'the chain moves AEX-9 tokens').to.be.greaterThan(0);
    const series = await walkPages(await v3.mdw.getAex9TransfersStats({ limit: 100 }));
    expect(counts(series)).to.deep.equal(new Map(rows.map((x) => [x.day, x.n])));
  }

  it('counts transactions and blocks per day, week and month as the chain holds them', checkSeries);

  it('counts AEX-9 transfers, mints and burns per day as the stored token events hold them', checkAex9);

  it('states each generation as the chain recounts it, and totals as running sums before it', checkGenerations);

  it('counts active and new accounts per day as the stored transactions hold them', checkAccounts);

  it('averages difficulty and hashrate per key block (the devnode mines at difficulty 2^24)', async () => {
    const difficulty = (await v3.mdw.getDifficultyStats({ limit: 100 })).data as unknown as Item[];
    expect(difficulty.map((s) => Number(s.count))).to.deep.equal([16_777_216, 16_777_216]);
    const hashrate = (await v3.mdw.getHashrateStats({ limit: 100 })).data as unknown as Item[];
    expect(hashrate.map((s) => Number(s.count))).to.deep.equal([4, 4]);
  });

  it('answers /v3/stats and rejects bad parameters as ae_mdw does', async () => {
    const stats = (await v3.get('/mdw/v3/stats')).body as Obj;
    expect(stats.miners_count).to.equal(1);
    expect(String(stats.max_transactions_per_second_block_hash)).to.match(/^kh_/);
    expect((await v3.get('/mdw/v3/stats/transactions?interval_by=year')).body).to.deep.equal({
      error: 'invalid query: year',
    });
    expect((await v3.get('/mdw/v3/stats/transactions?tx_type=nope')).body).to.deep.equal({
      error: 'invalid transaction type: nope',
    });
    expect((await v3.get('/mdw/v3/stats/blocks?min_start_date=2026-02-30')).status).to.equal(400);
    expect((await v3.get('/mdw/v3/stats/names?foo=1')).body).to.deep.equal({ error: 'invalid query: foo=1' });
    expect((await v3.get('/mdw/v3/stats/transactions?limit=1001')).status).to.equal(400);
    // a gen: scope narrows a series to its key blocks' days (the first ten generations: the first day)
    expect((await v3.get('/mdw/v3/stats/transactions/total?scope=gen:0-10')).body).to.equal(
      r.txsPerDay.get('2026-01-01'),
    );
    const scoped = (await v3.get('/mdw/v3/stats/transactions?scope=gen:0-10')).body as { data: Obj[] };
    expect(scoped.data.map((d) => d.start_date)).to.deep.equal(['2026-01-01']);
    expect((await v3.get('/mdw/v3/stats/transactions?scope=txi:1-2')).status).to.equal(400);
    const first = (await v3.get('/mdw/v3/stats/delta')).body as Obj;
    expect(first.next).to.equal(`/v3/stats/delta?cursor=${chain.keyBlocks.length - 11}&limit=10`);
  });

  it('derives a -H batch of stored heights with gaps again to the same rows (its heights, not their range)', async () => {
    const tables = ['stats_generations', 'stats_series_counts', 'stats_accounts', 'stats_active_accounts'];
    const snapshot = (): Promise<string[]> =>
      Promise.all(
        [...tables, 'stats_intervals', 'stats_miners'].map(
          async (t) =>
            (
              await v3.pool.query<{ md5: string }>(
                `SELECT md5(string_agg(x::text, ',' ORDER BY x::text)) AS md5 FROM ${t} x`,
              )
            ).rows[0]!.md5,
        ),
      );
    const before = await snapshot();
    // every third height of 90..125 (across the day boundary at 120): the rows of the heights between stay as they are
    const targets = (await storedKeyBlockTargets(v3.pool, 90, 125)).filter((b) => b.height % 3 === 0);
    await withTransaction(v3.pool, (client) => deriveStatsOfStored(client, targets));
    expect(await snapshot()).to.deep.equal(before);
  });

  it('stays equal to the recount after forks replace the top generations while the populator runs', async () => {
    // a shallow fork, then a deep one followed by new generations and another fork before the
    // populator has caught up
    const rounds: (() => Promise<void>)[] = [
      () => v3.devnode.fork(3),
      async () => {
        await v3.devnode.fork(40);
        for (let i = 0; i < 5; i++) {
          await v3.spend(v3.devnode.accounts[1]!.publicKey, 1000 + i);
          await v3.devnode.mineKeyBlock();
        }
        await v3.devnode.fork(2);
      },
    ];
    for (const round of rounds) {
      await round();
      await v3.devnode.mineKeyBlock();
      await v3.synced();
      chain = await v3.truth();
      r = recount(chain);
      await checkSeries();
      await checkGenerations();
      await checkAccounts();
      await checkAex9();
    }
  });
});
