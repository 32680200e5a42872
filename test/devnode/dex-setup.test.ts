/** @module Issue 44: `mdw dev`'s devnode has a DEX of its own, whose factory the middleware's DEX_FACTORY names. */
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { expect } from 'chai';
import {
  BYTECODE,
  deployDex,
  parseHardForkSchedule,
  parseSecretKey,
  type DevnodeDex,
} from '../../src/devnode/index.ts';
import { startTestNode, type TestNode } from './harness.ts';

describe('deployDex (the devnode DEX of mdw dev)', () => {
  let t: TestNode;
  let dex: DevnodeDex;

  before(async () => {
    t = await startTestNode();
    dex = deployDex(t.node.chain, parseSecretKey(t.accounts[0]!.secretKey))!;
    expect((await t.postInternal('/v2/debug/dev/mine', { key_blocks: 1 })).status).to.equal(200);
  });
  after(() => t?.node.stop());

  it('deploys wrapped AE, a factory and a router as the node shows them, at the ids it returns', async () => {
    for (const [id, kind] of [
      [dex.wrappedAe, 'wae'],
      [dex.factory, 'factory'],
      [dex.router, 'router'],
    ] as const) {
      const code = await t.get(`/v2/contracts/${id}/code`);
      expect(code.status, kind).to.equal(200);
      expect(code.body.bytecode, kind).to.equal(BYTECODE[kind]);
    }
  });

  it("wires the router to the factory (read by a dry-run, decoded by the SDK's calldata library)", async () => {
    const router = new BytecodeContractCallEncoder(BYTECODE.router as `cb_${string}`);
    const read = async (fn: string): Promise<unknown> => {
      const reply = await t.post('/v2/dry-run', {
        txs: [{ call_req: { contract: dex.router, calldata: router.encodeCall(fn, []), abi_version: 3 } }],
      });
      expect(reply.status, reply.text).to.equal(200);
      const [result] = reply.body.results as { result: string; call_obj: { return_value: string } }[];
      expect(result!.result, reply.text).to.equal('ok');
      return router.decodeResult(fn, result!.call_obj.return_value as `cb_${string}`);
    };
    expect(await read('factory')).to.equal(dex.factory);
  });

  it("answers a dry-run with tx_events of a call that creates a pair 500, as the node's serialiser crashes", async () => {
    const factory = new BytecodeContractCallEncoder(BYTECODE.factory as `cb_${string}`);
    const none = { '0': [] };
    const create = {
      call_req: {
        contract: dex.factory,
        calldata: factory.encodeCall('create_pair', [dex.wrappedAe, dex.router, none, none]),
        abi_version: 3,
        context: { stateful: true },
      },
    };
    // the node records the created contract (Call.clone) with no transaction: its handler crashes on it
    const crashed = await t.post('/v2/dry-run', { txs: [create], tx_events: true });
    expect(crashed.status).to.equal(500);
    expect(crashed.body).to.deep.equal({ reason: 'Internal server error' });
    // no events asked, or not the last item's: the node serialises none of them and answers
    const plain = await t.post('/v2/dry-run', { txs: [create] });
    expect(plain.status, plain.text).to.equal(200);
    const [created] = plain.body.results as { result: string; call_obj: { return_value: string } }[];
    expect(factory.decodeResult('create_pair', created!.call_obj.return_value as `cb_${string}`)).to.match(/^ct_/);
    // the stateful call took the dry-run caller's nonce 1, as a ContractCallTx does: the next call is its nonce 2
    const calldata = factory.encodeCall('all_pairs_length', []);
    const read = { call_req: { contract: dex.factory, calldata, abi_version: 3, nonce: 2 } };
    const after = await t.post('/v2/dry-run', { txs: [create, read], tx_events: true });
    expect(after.status, after.text).to.equal(200);
    expect(after.body.tx_events).to.deep.equal([]);
    const [, length] = after.body.results as { call_obj: { return_value: string } }[];
    expect(factory.decodeResult('all_pairs_length', length!.call_obj.return_value as `cb_${string}`)).to.equal(1n);
  });

  it('gives a dry-run with tx_events of a call that creates a pair up at the time limit (400) when it runs past it, as the node kills the run before it would crash serialising', async () => {
    const factory = new BytecodeContractCallEncoder(BYTECODE.factory as `cb_${string}`);
    const none = { '0': [] };
    const calldata = factory.encodeCall('create_pair', [dex.wrappedAe, dex.router, none, none]);
    const create = { call_req: { contract: dex.factory, calldata, abi_version: 3, context: { stateful: true } } };
    t.node.overTimeLimitCall(dex.factory, calldata);
    const reply = await t.post('/v2/dry-run', { txs: [create], tx_events: true });
    expect([reply.status, reply.body]).to.deep.equal([400, { reason: 'Bad request: dry-run exceeded time limit' }]);
  });

  it('deploys nothing where the protocol at genesis takes no contracts (mdw dev --hard-forks from Roma)', async () => {
    const roma = await startTestNode({ hardForks: parseHardForkSchedule(JSON.stringify({ 1: 0, 6: 5 })) });
    try {
      expect(deployDex(roma.node.chain, parseSecretKey(roma.accounts[0]!.secretKey))).to.equal(undefined);
      expect((await roma.getInternal('/v2/debug/transactions/pending')).body).to.deep.equal({ transactions: [] });
    } finally {
      await roma.node.stop();
    }
  });
});
