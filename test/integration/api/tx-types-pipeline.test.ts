/**
 * @module Issue 39 end to end: a devnode chain holding ChannelSetDelegatesTx, HCVoteTx and a type no node has
 * (DevnodeMadeUpTx) loads with every derived area derived, each type stored, counted by the statistics and found by its
 * filter under its own name, every transaction served as the node sent it, and `mdw -v --full` finds nothing.
 */
import { expect } from 'chai';
import { Protocol } from '../../../src/chain/aens.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import type { Devnode } from '../../../src/devnode/index.ts';
import { MADE_UP_TX_TYPE } from '../../../src/devnode/rules/made-up-tx.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { waitFor } from '../../support/wait.ts';
import { silentLog } from './harness.ts';
import { startPipeline, type PipelineStack } from './pipeline-stack.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';

/** the height Arcus starts at, half way up the generated chain */
const ARCUS_AT = 30;
const NEW_TYPES = ['ChannelSetDelegatesTx', 'HCVoteTx', MADE_UP_TX_TYPE];

describe('new and unknown transaction types through the pipeline (issue 39)', function () {
  this.timeout(180_000);
  let devnode: Devnode;
  let stack: PipelineStack;
  /** the outer transactions on chain per type, as the devnode holds them */
  const onChain = new Map<string, string[]>();

  const get = async (base: string, path: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, body: parseJson(await res.text()) };
  };

  before(async () => {
    devnode = await startGeneratedDevnode(
      {
        generations: 60,
        microBlocksPerGeneration: 2,
        txsPerMicroBlock: 5,
        seed: 'tx-types',
        madeUpTxs: true,
        hcVotes: true,
      },
      {
        // issue 39's chain crosses Ceres → Arcus with the new types on both sides
        hardForks: [
          { version: Protocol.CERES, height: 0 },
          { version: Protocol.ARCUS, height: ARCUS_AT },
        ],
      },
      silentLog,
    );
    expect(devnode.chain.keyBlocks.at(-1)!.header.version, 'the chain runs Arcus at its top').to.equal(Protocol.ARCUS);
    for (const r of devnode.chain.txs.values()) {
      if (r.blockHeight < 0) continue;
      const type = String(r.tx.type);
      onChain.set(type, [...(onChain.get(type) ?? []), r.hash]);
    }
    stack = await startPipeline(devnode, 'mdw');
    // every derived area derived: nothing left to derive, nothing failing
    await waitFor(
      'the derived areas to be derived',
      async () => (await stack.pool.query('SELECT 1 FROM derive_backfill')).rowCount === 0,
      120_000,
    );
  });
  after(async () => {
    await stack?.stop();
    await devnode?.stop();
  });

  it('holds each new type on the generated chain', () => {
    for (const type of NEW_TYPES) expect(onChain.get(type)?.length ?? 0, type).to.be.greaterThan(0);
  });

  it('stores every type under its own name and counts each in the statistics, exactly', async () => {
    const stored = await stack.pool.query<{ name: string; n: number }>(
      'SELECT tx_type_name(tx_type) AS name, count(*)::int AS n FROM transactions GROUP BY 1',
    );
    const expected = Object.fromEntries([...onChain].map(([t, hashes]) => [t, hashes.length]));
    expect(Object.fromEntries(stored.rows.map((r) => [r.name, r.n]))).to.deep.equal(expected);
    const series = await stack.pool.query<{ series: string; n: string }>(
      `SELECT series, sum(count)::text AS n FROM stats_series_counts WHERE series LIKE 'transactions:%' GROUP BY series`,
    );
    expect(
      Object.fromEntries(series.rows.map((r) => [r.series.slice('transactions:'.length), Number(r.n)])),
    ).to.deep.equal(expected);
  });

  it('finds each type by its filter in /mdw/v3, and only that type', async () => {
    for (const [filter, type] of [
      ['channel_set_delegates', 'ChannelSetDelegatesTx'],
      ['hc_vote', 'HCVoteTx'],
      ['HCVoteTx', 'HCVoteTx'],
      [MADE_UP_TX_TYPE, MADE_UP_TX_TYPE],
    ] as const) {
      const count = await get(stack.url, `/mdw/v3/transactions/count?type=${filter}`);
      expect(count, filter).to.deep.equal({ status: 200, body: onChain.get(type)!.length });
      const total = await get(stack.url, `/mdw/v3/stats/transactions/total?tx_type=${filter}`);
      expect(total, `${filter} in the statistics`).to.deep.equal({ status: 200, body: onChain.get(type)!.length });
      const page = await get(stack.url, `/mdw/v3/transactions?type=${filter}&limit=100`);
      const items = (page.body as { data: { hash: string; tx: { type: string } }[] }).data;
      expect(
        items.map((t) => t.tx.type).every((t) => t === type),
        filter,
      ).to.equal(true);
      expect(items.map((t) => t.hash).sort(), filter).to.deep.equal([...onChain.get(type)!].sort());
    }
    // an account's activities list each of its transactions of the new types as `<type>Event`
    for (const type of NEW_TYPES) {
      const r = devnode.chain.txs.get(onChain.get(type)![0]!)!;
      const account = String(r.tx.voter_id ?? r.tx.owner_id ?? r.tx.from_id);
      const activities = await get(stack.url, `/mdw/v3/accounts/${account}/activities?type=transactions&limit=100`);
      const found = (activities.body as { data: { type: string; payload: { hash: string } }[] }).data.find(
        (a) => a.payload.hash === r.hash,
      );
      expect(found?.type, `${type} in the activities of ${account}`).to.equal(`${type}Event`);
    }
    // a name that is no type is refused, one that no chain has found nowhere
    expect((await get(stack.url, '/mdw/v3/transactions/count?type=not-a-type')).status).to.equal(400);
    expect(await get(stack.url, '/mdw/v3/transactions/count?type=NeverSeenTx')).to.deep.equal({ status: 200, body: 0 });
  });

  it('serves each transaction of the new types from the database as the node does, big integers exact', async () => {
    const forwarded = async (): Promise<string> =>
      (await stack.registry.getSingleMetricAsString('mdw_api_cache_answers_total'))
        .split('\n')
        .filter((l) => l.includes('result="forward"'))
        .join();
    const before = await forwarded();
    for (const type of NEW_TYPES)
      for (const hash of onChain.get(type)!.slice(0, 3)) {
        const path = `/v3/transactions/${hash}`;
        const micro = devnode.chain.txs.get(hash)!.blockHash!;
        for (const p of [path, `/v2/transactions/${hash}`, `/v3/micro-blocks/hash/${micro}/transactions`])
          expect(await get(stack.url, p), `${type} ${p}`).to.deep.equal(await get(devnode.externalUrl, p));
        const mdw = (await get(stack.url, `/mdw/v3/transactions/${hash}`)).body as { tx: Json };
        expect(mdw.tx, `${type} ${hash} in /mdw/v3`).to.deep.include(
          ((await get(devnode.externalUrl, path)).body as { tx: { [k: string]: Json } }).tx,
        );
      }
    expect(await forwarded(), 'answered from the database, none forwarded to the node').to.equal(before);
  });

  it('shows no failed area, and mdw -v --full finds nothing', async () => {
    const status = await get(stack.url, '/mdw/v3/status');
    expect((status.body as { mdw_failed_areas: Json }).mdw_failed_areas).to.deep.equal([]);
    const lines: string[] = [];
    const report = await verifyChain({ cfg: stack.cfg, log: silentLog, out: (l) => lines.push(l) }, { full: true });
    expect(lines).to.deep.equal([]);
    expect(report.differences).to.equal(0);
  });
});
