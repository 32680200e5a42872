/** @module Mining modes (on demand, pool manager), fork injection and big integers over HTTP. */
import { expect } from 'chai';
import { encode } from '../../src/chain/encoding.ts';
import { startTestNode, type TestNode } from './harness.ts';

const UINT64_MAX = 2n ** 64n - 1n;

describe('devnode mining and forks over HTTP', () => {
  let t: TestNode | undefined;
  afterEach(async () => {
    await t?.node.stop();
    t = undefined;
  });

  it('serves the pool-manager flow: a candidate without nonce and pow, then a completed block', async () => {
    t = await startTestNode({ mine: false });
    const candidate = await t.get('/v2/key-blocks/pending');
    expect(candidate.status).to.equal(200);
    expect(candidate.body).to.not.have.any.keys('nonce', 'pow');
    expect(candidate.body).to.include({
      height: 1,
      prev_key_hash: (await t.get('/v2/key-blocks/current/hash')).body.hash,
    });

    const pow = Array.from({ length: 42 }, (_, i) => i * 1000);
    const missingPow = await t.postInternal('/v2/key-blocks', { ...candidate.body, nonce: 1 });
    expect(missingPow).to.include({ status: 400 }).and.to.have.deep.property('body', { reason: 'Invalid block' });
    const stale = await t.postInternal('/v2/key-blocks', { ...candidate.body, height: 5, nonce: 1, pow });
    expect(stale).to.include({ status: 400 }).and.to.have.deep.property('body', { reason: 'Block rejected' });

    const accepted = await t.postInternal('/v2/key-blocks', { ...candidate.body, nonce: UINT64_MAX, pow });
    expect(accepted).to.include({ status: 200 }).and.to.have.deep.property('body', {});
    const top = await t.get('/v2/key-blocks/current');
    expect(top.body).to.include({ height: 1, nonce: UINT64_MAX });
    expect(top.text).to.include('"nonce":18446744073709551615');
    expect(top.body.pow).to.deep.equal(pow);
    expect((await t.get('/v2/status')).body).to.include({ top_block_height: 1, top_key_block_hash: top.body.hash });
  });

  it('keeps pending transactions across a pool-mined key block and a fork', async () => {
    t = await startTestNode({ mine: false });
    await t.node.mineKeyBlock();
    const [from, to] = t.accounts as [(typeof t.accounts)[0], (typeof t.accounts)[0]];
    const candidate = (await t.get('/v2/key-blocks/pending')).body;
    const spend = await t.submit(
      'transactions/spend',
      { sender_id: from.address, recipient_id: to.address, amount: 5, fee: 1 },
      from,
    );
    expect(spend.status, spend.text).to.equal(200);
    const pow = Array.from({ length: 42 }, () => 7);
    expect((await t.postInternal('/v2/key-blocks', { ...candidate, nonce: 3, pow })).status).to.equal(200);
    expect(
      (await t.getInternal('/v2/debug/transactions/pending')).body.transactions.map((x: { hash: string }) => x.hash),
    ).to.deep.equal([spend.body.tx_hash]);
    await t.node.fork(1);
    expect((await t.getInternal('/v2/debug/transactions/pending')).body.transactions).to.have.length(1);
    await t.node.mineMicroBlock();
    expect((await t.get(`/v2/transactions/${spend.body.tx_hash}`)).body.block_height).to.equal(2);
  });

  it('mines on its own: pending transactions land in a micro block, key blocks follow the interval', async () => {
    t = await startTestNode({ keyBlockIntervalMs: 40, microBlockIntervalMs: 10 });
    const [from, to] = t.accounts as [(typeof t.accounts)[0], (typeof t.accounts)[0]];
    const spend = await t.submit(
      'transactions/spend',
      { sender_id: from.address, recipient_id: to.address, amount: 1, fee: 1 },
      from,
    );
    expect(spend.status, spend.text).to.equal(200);
    const deadline = Date.now() + 5000;
    while (
      Date.now() < deadline &&
      (t.node.height() < 3 || (await t.get(`/v2/transactions/${spend.body.tx_hash}`)).body.block_height < 0)
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(t.node.height()).to.be.at.least(3);
    const mined = await t.get(`/v2/transactions/${spend.body.tx_hash}`);
    expect(mined.body.block_hash).to.match(/^mh_/);
    expect((await t.get(`/v2/micro-blocks/hash/${mined.body.block_hash}/transactions/count`)).body).to.deep.equal({
      count: 1,
    });
  });

  it('does not mine key blocks in pool-manager mode even with an interval', async () => {
    t = await startTestNode({ mine: false, keyBlockIntervalMs: 10 });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(t.node.height()).to.equal(0);
  });

  it('says it is a devnode in /v2/status', async () => {
    t = await startTestNode();
    const status = await t.get('/v2/status');
    expect(status.body.node_version).to.match(/^devnode-/);
    expect(status.body).to.include({ network_id: 'ae_devnet', syncing: false, top_block_height: 0 });
    const api = await t.get('/api');
    expect(api.body.info.title).to.match(/devnode/);
    expect(api.body.paths).to.have.property('/generations/height/{height}');
    expect((await t.getInternal('/api')).body.paths).to.have.property('/debug/dev/fork');
  });

  it('keeps amounts beyond 2^53 exact through submit, state and JSON', async () => {
    t = await startTestNode();
    const [from, to] = t.accounts as [(typeof t.accounts)[0], (typeof t.accounts)[0]];
    const amount = 2n ** 70n + 12345n;
    const spend = await t.submit(
      'transactions/spend',
      { sender_id: from.address, recipient_id: to.address, amount, fee: 1, payload: 'hi' },
      from,
    );
    expect(spend.status, spend.text).to.equal(200);
    await t.node.mineKeyBlock();
    const tx = await t.get(`/v2/transactions/${spend.body.tx_hash}`);
    expect(tx.text).to.include(`"amount":${amount}`);
    expect(tx.body.tx.payload).to.equal(encode('ba', Buffer.from('hi')));
    expect(tx.body.block_height).to.equal(0);
    expect((await t.get(`/v2/accounts/${to.address}`)).text).to.include(`"balance":${10n ** 25n + amount}`);
  });

  it('replaces the top generations on POST /v2/debug/dev/fork, keeping the transactions', async () => {
    t = await startTestNode({ generate: { generations: 12, seed: 'fork-test' } });
    const before = await Promise.all(Array.from({ length: 13 }, (_, h) => t!.get(`/v2/generations/height/${h}`)));
    const movedMicro = before[11]!.body.micro_blocks[0];
    const movedTxs = (await t.get(`/v2/micro-blocks/hash/${movedMicro}/transactions`)).body.transactions;
    // every answer the fork changes, asked (and so rendered and cached) before it
    const answers = async (node: TestNode): Promise<string[]> => {
      const texts: string[] = [];
      for (let h = 8; h <= 12; h++) {
        const generation = await node.get(`/v2/generations/height/${h}`);
        texts.push(generation.text);
        for (const mh of generation.body.micro_blocks as string[]) {
          texts.push((await node.get(`/v2/micro-blocks/hash/${mh}/header`)).text);
          const txs = await node.get(`/v2/micro-blocks/hash/${mh}/transactions`);
          texts.push(txs.text);
          for (const tx of txs.body.transactions) {
            texts.push((await node.get(`/v2/transactions/${tx.hash}`)).text);
            texts.push((await node.get(`/v2/transactions/${tx.hash}/info`)).text);
          }
        }
      }
      return texts;
    };
    const beforeTexts = await answers(t);
    expect(beforeTexts.filter((text) => text.startsWith('{"call_info"'))).to.not.have.lengthOf(0);

    const fork = await t.postInternal('/v2/debug/dev/fork', { depth: 3 });
    expect(fork.status, fork.text).to.equal(200);
    const after = await Promise.all(Array.from({ length: 13 }, (_, h) => t!.get(`/v2/generations/height/${h}`)));
    for (let h = 0; h <= 9; h++) expect(after[h]!.body.key_block.hash).to.equal(before[h]!.body.key_block.hash);
    for (let h = 10; h <= 12; h++) {
      expect(after[h]!.body.key_block.hash).to.not.equal(before[h]!.body.key_block.hash);
      expect(after[h]!.body.key_block.height).to.equal(h);
    }
    expect(after[10]!.body.key_block.prev_key_hash).to.equal(after[9]!.body.key_block.hash);
    expect((await t.get(`/v2/micro-blocks/hash/${movedMicro}/header`)).body).to.deep.equal({
      reason: 'Block not found',
      error_code: 'block_not_found',
    });
    const moved = await t.get(`/v2/transactions/${movedTxs[0].hash}`);
    expect(moved.body.block_height).to.equal(11);
    expect(moved.body.block_hash).to.equal(after[11]!.body.micro_blocks[0]);
    expect(t.node.height()).to.equal(12);

    const twin = await startTestNode({ generate: { generations: 12, seed: 'fork-test' } });
    try {
      await twin.postInternal('/v2/debug/dev/fork', { depth: 3 });
      expect((await twin.get('/v2/generations/height/12')).body).to.deep.equal(after[12]!.body);
      // the answers cached before the fork were dropped with it: byte for byte what a devnode that never served
      // them before renders
      const afterTexts = await answers(t);
      expect(afterTexts).to.not.deep.equal(beforeTexts);
      expect(afterTexts).to.deep.equal(await answers(twin));
    } finally {
      await twin.node.stop();
    }
  });

  it('mines on request through POST /v2/debug/dev/mine', async () => {
    t = await startTestNode();
    const [from, to] = t.accounts as [(typeof t.accounts)[0], (typeof t.accounts)[0]];
    const spend = await t.submit(
      'transactions/spend',
      { sender_id: from.address, recipient_id: to.address, amount: 5, fee: 1 },
      from,
    );
    expect((await t.postInternal('/v2/debug/dev/mine', { key_blocks: 0 })).body).to.include({ height: 0 });
    expect((await t.get(`/v2/transactions/${spend.body.tx_hash}`)).body.block_height).to.equal(0);
    expect((await t.postInternal('/v2/debug/dev/mine', { key_blocks: 3 })).body).to.include({ height: 3 });
    expect((await t.postInternal('/v2/debug/dev/mine', { key_blocks: -1 })).status).to.equal(400);
  });

  it('rejects fork depths it cannot do with a 400 reason', async () => {
    t = await startTestNode();
    await t.node.mineKeyBlock();
    for (const body of [{ depth: 0 }, { depth: 2 }, { depth: 'x' }, {}]) {
      const res = await t.postInternal('/v2/debug/dev/fork', body);
      expect(res.status).to.equal(400);
      expect(res.body.reason).to.equal('validation_error');
    }
  });
});
