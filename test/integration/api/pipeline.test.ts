import { expect } from 'chai';
import { AeSdk, MemoryAccount, Middleware, Node } from '@aeternity/aepp-sdk';
import type prom from 'prom-client';
import supertest from 'supertest';
import { plainGet } from '../../support/app-request.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { innerTx, nameReferences, referencedIds } from '../../../src/chain/tx-fields.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { startDevnode, type Devnode } from '../../../src/devnode/index.ts';
import { silentLog } from './harness.ts';
import { encodedTxFaults } from '../../support/encoded-tx.ts';
import { startPipeline, type PipelineStack } from './pipeline-stack.ts';

type Generation = { key_block: { hash: string; height: number }; micro_blocks: string[] };

/**
 * The gateway over the real pipeline: every cached answer equals the node's in /v2 and /v3, aepp-sdk's clients given
 * only the gateway's URL (`new Node(url)`, `AeSdk` on it, `new Middleware(url + '/mdw')`) work, and where we answer in
 * the node's place (malformed input, reads we do not hold, unknown paths) the answer is the devnode's own.
 */
describe('the gateway over the real pipeline (devnode → populator → database → API)', function () {
  this.timeout(120_000);
  let devnode: Devnode;
  let stack: PipelineStack;
  let pool: Pool;
  let request: ReturnType<typeof supertest>;
  let registry: prom.Registry;
  /** the gateway's URL, for the SDK's clients */
  let url: string;
  /**
   * the comparisons ask ~8,000 times: uncompressed over node:http (plainGet), fetch's streams and gzip cost a third
   * of the file's CPU; what is compared is the answer's content
   */
  const plainJson = async (base: string, path: string): Promise<{ status: number; json: unknown }> => {
    const { status, text } = await plainGet(`${base}${path}`);
    return { status, json: parseJson(text) };
  };
  const nodeGet = (path: string): Promise<{ status: number; json: unknown }> => plainJson(devnode.externalUrl, path);
  /** apiGet asks the gateway on its port, as the SDK does */
  const apiGet = (path: string): Promise<{ status: number; json: unknown }> => plainJson(url, path);

  /** answer is a request's status and exact body (parsed losslessly when it is JSON) from `base`. */
  const answer = async (base: string, path: string): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${base}${path}`);
    const text = await res.text();
    return { status: res.status, body: text === '' ? '' : parseJson(text) };
  };
  /** synced waits until the populator stored the devnode's top. */
  const synced = async (): Promise<void> => {
    for (let i = 0; i < 300; i++) {
      const { rows } = await pool.query<{ top: number }>('SELECT max(height) AS top FROM key_blocks');
      if (rows[0]?.top === devnode.height()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the populator did not catch up');
  };

  before(async () => {
    // 32 generations: every one of the 22 transaction types the mix makes is in them (the last, ChannelCloseMutualTx,
    // at 31), so each type's cached answer is compared; 40 compared 8 more generations of the same types
    devnode = await startDevnode(
      { port: 0, internalPort: 0, microBlockIntervalMs: 0, generate: { generations: 32, seed: 'api-pipeline' } },
      silentLog,
    );
    stack = await startPipeline(devnode, 'mdw');
    ({ pool, registry, url } = stack);
    request = supertest(url);
  });
  after(async () => {
    await stack?.stop();
    await devnode?.stop();
  });

  // the node's /v2 and its /v3 (with and without int-as-string), each compared with the devnode's answer there
  for (const v of ['v2', 'v3'] as const)
    it(`answers every generation, key block, micro block and transaction exactly as the node's /${v} does, from the database`, async () => {
      /** same compares the gateway's answer with the node's and returns the node's plain body (the first asked) */
      const same = async (path: string): Promise<unknown> => {
        let plain: unknown;
        for (const query of v === 'v3' ? ['', '?int-as-string=true'] : ['']) {
          const node = await nodeGet(`${path}${query}`);
          expect(await apiGet(`${path}${query}`), `${path}${query}`).to.deep.equal(node);
          plain ??= node.json;
        }
        return plain;
      };
      const top = devnode.height();
      let txCount = 0;
      const types = new Set<string>();
      for (let h = 0; h <= top; h++) {
        const { key_block: kb, micro_blocks: micro } = (await same(`/${v}/generations/height/${h}`)) as Generation;
        for (const path of [`/${v}/key-blocks/height/${h}`, `/${v}/key-blocks/hash/${kb.hash}`]) await same(path);
        for (const mh of micro) {
          for (const suffix of ['header', 'transactions/count']) await same(`/${v}/micro-blocks/hash/${mh}/${suffix}`);
          // the gateway's list equals the node's: its transactions are the cached ones
          const { transactions } = (await same(`/${v}/micro-blocks/hash/${mh}/transactions`)) as {
            transactions: { [key: string]: Json }[];
          };
          for (const [i, t] of transactions.entries()) {
            // the whole signed transaction, as a 7.x node sends it: the cached one's decodes to this very object
            expect(encodedTxFaults(t)).to.deep.equal([]);
            await same(`/${v}/transactions/${String(t.hash)}`);
            await same(`/${v}/micro-blocks/hash/${mh}/transactions/index/${i + 1}`);
            types.add(String((t.tx as { type: Json }).type));
            txCount++;
          }
        }
      }
      expect(txCount).to.be.above(0);
      expect(types.size, `transaction types compared: ${[...types].join(' ')}`).to.equal(22);
      expect(await apiGet(`/${v}/key-blocks/current/height`)).to.deep.equal({ status: 200, json: { height: top } });
      const metrics = await registry.getSingleMetricAsString('mdw_api_cache_answers_total');
      expect(metrics).to.not.match(/result="forward"/);
      expect(metrics).to.match(/result="hit"\} [1-9]/);
    });

  it('lists per account exactly the transactions that reference it or a name pointing at it, newest first', async () => {
    const byAccount = new Map<string, string[]>();
    // the pointers of each name as the chain goes (an update replaces them, a claim or revoke clears them)
    const pointers = new Map<string, Map<string, string>>();
    const follow = (tx: { [k: string]: Json }): void => {
      if (tx.type === 'NameUpdateTx' && Array.isArray(tx.pointers)) {
        pointers.set(
          String(tx.name_id),
          new Map(
            tx.pointers.map((p) => {
              const { key, id } = p as { key: string; id: string };
              return [key, id];
            }),
          ),
        );
      }
      if (tx.type === 'NameRevokeTx') pointers.delete(String(tx.name_id));
      const inner = innerTx(tx);
      if (inner) follow(inner);
    };
    for (let h = 0; h <= devnode.height(); h++) {
      const { micro_blocks: micro } = (await nodeGet(`/v2/generations/height/${h}`)).json as Generation;
      for (const mh of micro) {
        const { transactions } = (await nodeGet(`/v2/micro-blocks/hash/${mh}/transactions`)).json as {
          transactions: { hash: string; tx: { [k: string]: Json } }[];
        };
        for (const t of transactions) {
          const accounts = new Set(referencedIds(t.tx).keys());
          for (const ref of nameReferences(t.tx)) {
            const id = pointers.get(ref.nameHash)?.get(ref.key);
            if (id) accounts.add(`${ref.prefix}_${id.slice(3)}`);
          }
          for (const account of accounts) byAccount.set(account, [t.hash, ...(byAccount.get(account) ?? [])]);
          follow(t.tx);
        }
      }
    }
    const accounts = [...byAccount.keys()].filter((a) => a.startsWith('ak_')).slice(0, 5);
    expect(accounts.length).to.be.above(0);
    for (const account of accounts) {
      const expected = byAccount.get(account)!;
      await request.get(`/middleware/transactions/account/${account}/count`).expect(200, { count: expected.length });
      const listed = (await request.get(`/middleware/transactions/account/${account}?limit=1000`).expect(200)).body as {
        hash: string;
      }[];
      expect(
        listed.map((t) => t.hash),
        account,
      ).to.deep.equal(expected);
    }
  });

  it("sends a spend through AeSdk on new Node(gatewayUrl), and reads it back from the node's /v3 and our cache", async () => {
    const node = new Node(url, { retryCount: 0 });
    const status = await node.getStatus();
    expect(status.nodeVersion).to.match(/^7\./);
    expect(await node.getCurrentKeyBlockHeight()).to.deep.equal({ height: devnode.height() });
    const alice = new MemoryAccount(devnode.accounts[0]!.secretKey as `sk_${string}`);
    const recipient = MemoryAccount.generate().address;
    const sdk = new AeSdk({ nodes: [{ name: 'gateway', instance: node }], accounts: [alice] });
    const { hash } = await sdk.spend(4321, recipient, { waitMined: false });
    await devnode.mineKeyBlock();
    const mined = await node.getTransactionByHash(hash);
    expect(mined.blockHeight).to.equal(devnode.height() - 1);
    expect((await node.getAccountByPubkey(recipient)).balance).to.equal(4321n);
    await synced();
    // now from the database: the node's /v3 answer, digit for digit
    const cached = await answer(url, `/v3/transactions/${hash}`);
    expect(cached).to.deep.equal(await answer(devnode.externalUrl, `/v3/transactions/${hash}`));
    expect((await node.getTransactionByHash(hash)).blockHash).to.equal(mined.blockHash);
  });

  it("gives new Middleware(gatewayUrl + '/mdw') ae_mdw's API", async () => {
    const status = await new Middleware(`${url}/mdw`).getStatus();
    expect(status.mdwHeight).to.be.at.least(1);
    expect(status.nodeHeight).to.equal(devnode.height());
  });

  it("answers malformed /v3 requests, reads it does not hold and unknown paths as the node's own /v3 does", async () => {
    const top = devnode.height();
    const kh = String(((await answer(devnode.externalUrl, '/v3/key-blocks/height/1')).body as { hash: string }).hash);
    const firstMicro = devnode.chain.keyBlocks.find((k) => k.micro.length > 0)!.micro[0]!.hash;
    // what the node's /v3 router cannot parse it answers an empty 500 (a real 7.2.2 node did); bad input is a 4xx
    // here: the middleware answers these as the node's /v2 does, 400 validation_error naming the parameter
    for (const [path, parameter, data] of [
      ['/v3/key-blocks/height/abc', 'height', 'abc'],
      ['/v3/key-blocks/height/1?int-as-string=yes', 'int-as-string', 'yes'],
      ['/v3/key-blocks/height/abc?int-as-string=yes', 'int-as-string', 'yes'],
      ['/v3/generations/height/x1', 'height', 'x1'],
    ] as const) {
      expect(await answer(devnode.externalUrl, path), path).to.deep.equal({ status: 500, body: '' });
      expect(await answer(url, path), path).to.deep.equal({
        status: 400,
        body: { reason: 'validation_error', parameter, info: { error: 'wrong_type', data } },
      });
    }
    const paths = [
      '/v3/key-blocks/current/height?int-as-string',
      '/v3/transactions/th_bad',
      `/v3/micro-blocks/hash/${firstMicro}/transactions/index/0`,
      `/v3/micro-blocks/hash/${firstMicro}/transactions/index/-1`,
      `/v3/micro-blocks/hash/${firstMicro}/transactions/index/abc`,
      `/v3/micro-blocks/hash/${firstMicro}/transactions/index/999`,
      `/v2/micro-blocks/hash/${firstMicro}/transactions/index/999`,
      `/v3/micro-blocks/hash/${kh}/transactions/index/1`,
      `/v3/key-blocks/hash/${kh.replace(/^kh_/, 'mh_')}`,
      `/v3/micro-blocks/hash/${kh}/header`,
      `/v3/key-blocks/height/${top + 50}`,
      `/v3/generations/height/${top + 50}`,
      '/v3/no-such-path',
      '/v3/key-blocks/height/1/nothing',
      '/v2/no-such-path',
    ];
    for (const path of paths) {
      expect(await answer(url, path), path).to.deep.equal(await answer(devnode.externalUrl, path));
    }
  });
});
