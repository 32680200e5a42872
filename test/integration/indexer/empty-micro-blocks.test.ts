/**
 * @module The populator on a chain with empty micro blocks, as a node in dev mode emits them: it reads each one's
 * header and no transactions (its txs_hash says it holds none), and stores the same chain (`-v --full` clean).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { expect } from 'chai';
import prom from 'prom-client';
import { EMPTY_TXS_HASH } from '../../../src/chain/txs-hash.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { startHarness, silent, verifyClean, type Harness } from './support/harness.ts';

describe('a chain with empty micro blocks', function () {
  this.timeout(120_000);
  let h: Harness;
  /** the populator's GETs of micro blocks while it loaded, by path (as undici sent them) */
  const asked = new Map<string, number>();
  const count = (message: unknown): void => {
    const path = (message as { request: { path: string } }).request.path.replace(/^\/v[23]/, '');
    if (path.startsWith('/micro-blocks/')) asked.set(path, (asked.get(path) ?? 0) + 1);
  };
  const empty: string[] = [];
  const full: string[] = [];

  before(async () => {
    h = await startHarness(6, 'empty-micro');
    const chain = h.devnode.chain;
    // a generation of one empty micro block (as each of the recorded node's), and one of two
    for (const n of [1, 2]) {
      chain.mineKeyBlock();
      for (let i = 0; i < n; i++) empty.push(chain.sealEmptyMicroBlock().hash);
    }
    chain.mineKeyBlock();
    for (const kb of chain.keyBlocks) for (const mb of kb.micro) if (!empty.includes(mb.hash)) full.push(mb.hash);
    subscribe('undici:request:create', count);
    const populator = await startPopulator({ cfg: h.config(), log: silent, registry: new prom.Registry() });
    try {
      await populator.synced();
    } finally {
      unsubscribe('undici:request:create', count);
      await populator.stop();
    }
  });
  after(() => h?.close());

  it("has the empty tree's root as an empty block's txs_hash, as the recorded node", async () => {
    for (const mh of empty) {
      const res = await fetch(`${h.devnode.externalUrl}/v3/micro-blocks/hash/${mh}/header`);
      expect(((await res.json()) as { txs_hash: string }).txs_hash).to.equal(EMPTY_TXS_HASH);
    }
  });

  it("reads every micro block's header, and the transactions of those that hold some only", () => {
    expect(full.length).to.be.above(5);
    for (const mh of [...empty, ...full]) expect(asked.get(`/micro-blocks/hash/${mh}/header`), mh).to.equal(1);
    for (const mh of empty) expect(asked.get(`/micro-blocks/hash/${mh}/transactions`) ?? 0, mh).to.equal(0);
    for (const mh of full) expect(asked.get(`/micro-blocks/hash/${mh}/transactions`), mh).to.equal(1);
  });

  it('stores the chain as the node has it (`-v --full` clean), the empty blocks with no transaction', async () => {
    await verifyClean(h);
    const rows = await h.query<{ tx_count: number; n: number }>(
      'mdw',
      `SELECT tx_count, (SELECT count(*)::int FROM transactions t WHERE (t.height, t.micro_index) = (m.height, m.micro_index))
       AS n FROM micro_blocks m WHERE hash = ANY($1)`,
      [empty],
    );
    expect(rows).to.deep.equal(empty.map(() => ({ tx_count: 0, n: 0 })));
  });
});
