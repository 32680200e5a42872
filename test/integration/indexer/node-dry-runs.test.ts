/**
 * @module The AEX-N dry-runs in the node set's slots (NodeClient.dryRun), against real devnodes behind counting
 * proxies: a dry-run waits for a slot like every request (a node bounded to M requests at once never queues one
 * beyond them), goes before the heights waiting, never goes to a node dropped for being on another fork, passes over
 * a node that just failed, and keeps dryRun's outcomes (results, PRUNED, REFUSED, transient after its rounds).
 */
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { expect } from 'chai';
import type { Devnode, DevnodeOptions } from '../../../src/devnode/index.ts';
import { encode } from '../../../src/chain/encoding.ts';
import type { FateTuple } from '../../../src/chain/fate.ts';
import { kindOfCode } from '../../../src/devnode/contracts/standards.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { fateCall, PRUNED, REFUSED, type DryRunCall } from '../../../src/node/dry-run.ts';
import { GAP, readInternalCalls } from '../../../src/indexer/derived/internal-calls.ts';
import { NodeError } from '../../../src/node/errors.ts';
import { NodeSet } from '../../../src/node/node-set.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { silent } from './support/harness.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';

const SEED = 'node-dry-runs';

/** workers is a node whose regulators (GETs, POSTs) run `n` requests each at once, with the node's queues */
const workers = (n: number): DevnodeOptions['regulators'] => ({
  httpRead: { workers: n, waiting: 100 },
  httpUpdate: { workers: n, waiting: 50 },
});
const GENERATIONS = 10;

describe('AEX-N dry-runs in the node set (NodeClient.dryRun)', function () {
  this.timeout(120_000);
  const devnodes: Devnode[] = [];
  const proxies: FaultProxy[] = [];

  /** a devnode of the test's chain, behind a proxy that counts what it is asked */
  const node = async (opts: DevnodeOptions = {}): Promise<{ devnode: Devnode; proxy: FaultProxy }> => {
    const devnode = await startGeneratedDevnode({ generations: GENERATIONS, seed: SEED }, { accounts: [], ...opts });
    devnodes.push(devnode);
    const proxy = await startFaultProxy(devnode.externalUrl);
    proxies.push(proxy);
    return { devnode, proxy };
  };
  after(async () => {
    for (const p of proxies) await p.close();
    for (const d of devnodes) await d.stop();
  });

  /** the first AEX-9 token of the chain: its meta_info() call and the meta info its ledger holds */
  const token = (devnode: Devnode): { call: DryRunCall[]; encoder: BytecodeContractCallEncoder; meta: unknown } => {
    const [id, contract] = [...devnode.chain.state.contracts.entries()].find(([, c]) => kindOfCode(c.code) === 'aex9')!;
    const encoder = new BytecodeContractCallEncoder(contract.code as `cb_${string}`);
    const meta = (devnode.chain.state.contractStore.get(`${id}/meta`) as FateTuple).items;
    return { call: [fateCall(id, encoder.encodeCall('meta_info', []))], encoder, meta };
  };
  const metaOf = async (
    asking: ReturnType<NodeClient['dryRun']>,
    encoder: BytecodeContractCallEncoder,
  ): Promise<unknown> => {
    const results = await asking;
    if (!Array.isArray(results) || !results[0]?.ok) throw new Error(`no results: ${JSON.stringify(results)}`);
    return encoder.decodeResult('meta_info', results[0].value as `cb_${string}`);
  };
  const posts = (proxy: FaultProxy): number => proxy.stats.paths.filter((p) => p.startsWith('POST ')).length;
  /** the devnode's counts of its paced listener: answers, and the ms requests waited for one of its slots */
  const pacing = async (devnode: Devnode): Promise<{ answers: number; queued_ms: number }> =>
    (await (await fetch(`${devnode.internalUrl}/v2/debug/dev/pacing`)).json()) as {
      answers: number;
      queued_ms: number;
    };
  const client = (url: string | string[] | NodeSet, attempts = 2): NodeClient =>
    new NodeClient({ url, timeoutMs: 10_000, attempts, backoffInitialMs: 5, backoffMaxMs: 10 }, silent);

  it('waits for a slot of a node that GETs fill, ahead of the heights waiting, and never queues at the node', async () => {
    // a node of one slot whose answers take 100 ms, and a client whose limit is that slot
    const L = 100;
    const { devnode, proxy } = await node({ latencyMs: L, regulators: workers(1) });
    const c = client(new NodeSet([proxy.url], { initial: 1, min: 1, max: 1 }));
    const { call, encoder, meta } = token(devnode);
    const held = c.generation(1);
    const waiting = [c.generation(4), c.generation(2), c.generation(3)];
    const dryRun = metaOf(c.dryRun(devnode.chain.top.hash, call), encoder);
    expect(c.nodes.inFlight, 'the slot is taken; the rest wait in the client').to.equal(1);
    await Promise.all([held, ...waiting]);
    expect(await dryRun).to.deep.equal(meta);
    expect(proxy.stats.paths).to.deep.equal([
      'GET /v2/generations/height/1',
      'POST /v2/dry-run',
      'GET /v2/generations/height/2',
      'GET /v2/generations/height/3',
      'GET /v2/generations/height/4',
    ]);
    // sent beside the GET, the dry-run would have waited its latency for the node's one slot
    const { answers, queued_ms: queued } = await pacing(devnode);
    expect(answers).to.equal(5);
    // a request sent past the slots waits a whole latency (L); a busy machine's late timers add a few ms, never L / 2
    expect(queued, 'ms the requests waited at the node').to.be.below(0.5 * L);
  });

  it('keeps several dry-runs and GETs within a node of two slots', async () => {
    // long enough that the few ms each of nine requests may wait for a late timer on a loaded machine (35 ms in all
    // once, at load 5) stay far below L / 2, while one request past the slots waits L
    const L = 200;
    const { devnode, proxy } = await node({ latencyMs: L, regulators: workers(2) });
    const c = client(new NodeSet([proxy.url], { initial: 2, min: 2, max: 2 }));
    const { call, encoder, meta } = token(devnode);
    const gets = [1, 2, 3, 4, 5, 6].map((h) => c.generation(h));
    const dryRuns = [1, 2, 3].map(() => metaOf(c.dryRun(undefined, call), encoder));
    await Promise.all(gets);
    expect(await Promise.all(dryRuns)).to.deep.equal([meta, meta, meta]);
    expect(posts(proxy)).to.equal(3);
    const { answers, queued_ms: queued } = await pacing(devnode);
    expect(answers).to.equal(9);
    // a request sent past the slots waits a whole latency (L); a busy machine's late timers add a few ms, never L / 2
    expect(queued, 'ms the requests waited at the node').to.be.below(0.5 * L);
  });

  it('ends a dry-run waiting for a slot when its client stops', async () => {
    // one slot, held for 3 s by a GET of another client of the set (as the populator's poll shares its set); the
    // stop must not wait for it
    const { devnode, proxy } = await node({ latencyMs: 3000, regulators: workers(1) });
    const stop = new AbortController();
    const nodes = new NodeSet([proxy.url], { initial: 1, min: 1, max: 1 });
    const held = client(nodes).generation(1);
    const c = new NodeClient({ url: nodes, timeoutMs: 10_000, attempts: 8, signal: stop.signal }, silent);
    const started = performance.now();
    const waiting = c.dryRun(undefined, token(devnode).call).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop.abort();
    const err = await waiting;
    expect(err).to.be.instanceOf(NodeError);
    expect(performance.now() - started, 'ms until the dry-run gave up').to.be.below(1500);
    expect(posts(proxy), 'it never reached the node').to.equal(0);
    await held;
  });

  it("leaves the node's limit to the GETs' round trips: a dry-run's time is the contracts' run", async () => {
    const { devnode, proxy } = await node({ latencyMs: 20, regulators: workers(2) });
    const { call } = token(devnode);
    const limit = { initial: 2, min: 1, max: 64 };
    // 22 requests two at a time, over more than one window of the limit (8 answers and 100 ms)
    const dryRuns = client(new NodeSet([proxy.url], limit));
    await Promise.all(Array.from({ length: 22 }, () => dryRuns.dryRun(undefined, call)));
    expect(dryRuns.nodes.limit(0)).to.equal(2);
    // as many GETs (of as many paths: one in flight is shared), answered near their baseline while the limit bounds
    // them: the limit grows
    const gets = client(new NodeSet([proxy.url], limit));
    const heights = Array.from({ length: GENERATIONS + 1 }, (_, h) => h);
    await Promise.all(heights.flatMap((h) => [gets.generation(h), gets.keyBlock(h)]));
    expect(gets.nodes.limit(0)).to.be.above(2);
  });

  it('sends no dry-run to a node dropped for being on another fork', async () => {
    // the first node forks off the top two generations; the second, the reference, mines one more
    const forked = await node();
    await forked.devnode.fork(2);
    const ahead = await node();
    await ahead.devnode.mineKeyBlock();
    const c = client([forked.proxy.url, ahead.proxy.url]);
    expect(await c.topHeight()).to.equal(GENERATIONS + 1);
    expect(c.nodes.healthy()).to.deep.equal([1]);
    const { call, encoder, meta } = token(ahead.devnode);
    // on top of a block both nodes hold: the dropped node could answer it, and has the most room
    const shared = ahead.devnode.chain.keyBlocks[GENERATIONS - 3]!.hash;
    expect(forked.devnode.chain.keyBlocks[GENERATIONS - 3]!.hash).to.equal(shared);
    const asked = await Promise.all([1, 2, 3, 4].map(() => metaOf(c.dryRun(shared, call), encoder)));
    expect(asked).to.deep.equal([meta, meta, meta, meta]);
    expect([posts(forked.proxy), posts(ahead.proxy)]).to.deep.equal([0, 4]);
  });

  it('passes over a node that just failed while another can serve, counting its answers and failures', async () => {
    const { devnode, proxy: first } = await node();
    const second = await startFaultProxy(devnode.externalUrl);
    proxies.push(second);
    const errors: NodeError[] = [];
    const answers: string[] = [];
    const c = new NodeClient(
      {
        url: [first.url, second.url],
        timeoutMs: 10_000,
        attempts: 2,
        onError: (e) => errors.push(e),
        onAnswer: (url) => answers.push(url),
      },
      silent,
    );
    const { call, encoder, meta } = token(devnode);
    first.set('5xx');
    // the first node (the most room, first in order) answers 503: the same round goes on to the second
    expect(await metaOf(c.dryRun(undefined, call), encoder)).to.deep.equal(meta);
    expect(errors.map((e) => e.nodeStatus)).to.deep.equal([503]);
    first.set('none');
    // cooling for a second: the next dry-runs go to the second node though the first answers again
    const asked = await Promise.all([1, 2, 3].map(() => metaOf(c.dryRun(undefined, call), encoder)));
    expect(asked).to.deep.equal([meta, meta, meta]);
    expect([posts(first), posts(second)]).to.deep.equal([1, 4]);
    // the metrics' view (mdw_node_requests_total, mdw_node_request_errors_total): five answers, one failure
    expect(answers).to.deep.equal([first.url, ...Array<string>(4).fill(second.url)]);
    expect(errors).to.have.length(1);
  });

  it("keeps dryRun's outcomes: PRUNED, REFUSED, and a transient error after its rounds", async () => {
    // a pruning node, behind two proxies: two nodes that both keep no state below height 6
    const { devnode, proxy: first } = await node({ gcHeight: 6 });
    const second = await startFaultProxy(devnode.externalUrl);
    proxies.push(second);
    const c = client([first.url, second.url], 3);
    const { call, encoder, meta } = token(devnode);
    const old = devnode.chain.keyBlocks[2]!.hash;
    expect(await c.dryRun(old, call), 'every node said the state was garbage-collected').to.equal(PRUNED);
    expect([posts(first), posts(second)], 'each asked once, no round again').to.deep.equal([1, 1]);
    // the int_calls area records such a call as a gap with the node's reason, never as a call without internal calls
    const mined = [...devnode.chain.txs.values()].find((r) => r.tx.type === 'ContractCallTx' && r.blockHeight < 6)!;
    const at = { height: mined.blockHeight, microIndex: 0, txIndex: 0 };
    const replayable = {
      ...at,
      txType: 'ContractCallTx',
      innerType: null,
      gas: '100',
      size: 100,
      contractId: String(mined.tx.contract_id),
      returnType: 'ok',
    };
    const found = await readInternalCalls(c, [{ ...replayable, signed: mined.signedBytes, prevHash: old }]);
    expect(found).to.deep.equal({ calls: [], gaps: [{ ...at, reason: GAP.pruned }] });
    // a well-formed hash no node knows (a malformed one is the node's 500, a crash of its handler)
    const unknown = encode('kh', Buffer.alloc(32, 7));
    expect(await c.dryRun(unknown, call), 'every node refused the block').to.equal(REFUSED);
    expect(await metaOf(c.dryRun(devnode.chain.top.hash, call), encoder)).to.deep.equal(meta);
    // one node pruned, the other failing: asked again for the client's 3 rounds, then a transient error
    second.set('5xx');
    const before = [posts(first), posts(second)];
    const err = await c.dryRun(old, call).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(NodeError);
    expect((err as NodeError).transient).to.equal(true);
    expect([posts(first) - before[0]!, posts(second) - before[1]!]).to.deep.equal([3, 3]);
  });
});
