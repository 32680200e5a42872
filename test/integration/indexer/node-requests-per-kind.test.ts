/**
 * @module What a sync asks the node, by kind (issue 88 item 2): a contract transaction's call info is read from the
 * replay that runs it (its `call_obj`), never asked again by its hash, and each replay is asked once (the batch's
 * internal calls take the fetch's answer); the stored chain is the node's all the same (`mdw -v --full` clean).
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { isJsonObject, parseJson } from '../../../src/chain/json.ts';
import { microBlockHashes } from '../../../src/indexer/sync/fetch.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { LASTING_ROUNDS } from '../../../src/node/dry-run.ts';
import type { JsonObject } from '../../../src/indexer/rows/rows.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { silent, startHarness, verifyClean, type Harness } from './support/harness.ts';

const SCHEMA = 'kinds';
const CONTRACT = new Set(['ContractCallTx', 'ContractCreateTx']);

describe('a sync’s node requests by kind', function () {
  this.timeout(180_000);
  let h: Harness;
  let proxy: FaultProxy;

  before(async () => {
    // half the transactions token traffic: AEX-9 transfers (no internal call), DEX swaps (internal calls)
    h = await startHarness(40, 'node-requests-per-kind', { tokenShare: 0.5, txsPerMicroBlock: 6 });
    proxy = await startFaultProxy(h.devnode.externalUrl);
  });
  after(async () => {
    await proxy?.close();
    await h?.close();
  });

  it('reads each call info a replay holds from it, asks each replay once, and stores the node’s chain', async () => {
    const dryRuns: string[] = [];
    proxy.rewrite(/dry-run/, (body) => {
      dryRuns.push(body);
      return body;
    });
    const populator = await startPopulator({
      cfg: h.config({ DATABASE_SCHEMA: SCHEMA, NODE_URL: proxy.url }),
      log: silent,
      registry: new prom.Registry(),
    });
    try {
      await populator.synced();
    } finally {
      await populator.stop();
    }
    const paths = proxy.stats.paths;
    // the node's chain, read apart: each micro block's transactions by the block before it (a replay's `top`)
    const node = new NodeClient({ url: h.devnode.externalUrl, timeoutMs: 10_000 }, silent);
    const blocks = new Map<string, JsonObject[]>();
    for (let height = 0; height <= h.devnode.height(); height++)
      for (const hash of microBlockHashes(await node.generation(height), height))
        blocks.set(String((await node.microBlockHeader(hash)).prev_hash), await node.microBlockTransactions(hash));
    const isContract = (s: JsonObject): boolean => isJsonObject(s.tx) && CONTRACT.has(String(s.tx.type));
    const contractTxs = [...blocks.values()].flat().filter(isContract);

    const asked = new Map<string, number>();
    for (const body of dryRuns.filter((b) => (parseJson(b) as JsonObject).tx_events === true))
      asked.set(body, (asked.get(body) ?? 0) + 1);
    expect(asked.size, 'replays').to.be.greaterThan(0);
    // each once; one the node fails in every round (500: a call that creates a contract) once per round, not again
    expect(
      [...asked.values()].filter((n) => n !== 1 && n !== LASTING_ROUNDS),
      'replays asked again',
    ).to.deep.equal([]);
    const replays = [...asked].flatMap(([body, n]) => (n === 1 ? [body] : []));
    const ran = new Set<string>();
    for (const body of replays) {
      const { top, txs } = parseJson(body) as { top: string; txs: unknown[] };
      for (const s of blocks.get(top)!.slice(0, txs.length)) if (isContract(s)) ran.add(String(s.hash));
    }
    const infos = paths.flatMap((p) => /^GET \/v[23]\/transactions\/(th_\w+)\/info$/.exec(p)?.[1] ?? []);
    expect(infos.length - new Set(infos).size, 'infos asked twice').to.equal(0);
    // the cut: no contract transaction a replay ran has its info asked by its hash
    expect(
      [...ran].filter((hash) => infos.includes(hash)),
      'infos a replay held',
    ).to.deep.equal([]);
    // most of them: a replay per call that may make internal calls, one for the rest of a block
    expect(ran.size, 'contract transactions whose info a replay held').to.be.greaterThan(contractTxs.length / 2);
    // and every other one is asked
    expect(contractTxs.filter((s) => !ran.has(String(s.hash)) && !infos.includes(String(s.hash)))).to.deep.equal([]);
    // fewer requests: the replays stand for more infos than they are
    expect(replays.length, 'replays').to.be.lessThan(ran.size);
    await verifyClean(h, { DATABASE_SCHEMA: SCHEMA });
  });
});
