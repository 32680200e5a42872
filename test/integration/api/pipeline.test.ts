import { expect } from 'chai';
import prom from 'prom-client';
import supertest from 'supertest';
import { createApp } from '../../../src/api/app.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { innerTx, nameReferences, referencedIds } from '../../../src/chain/tx-fields.ts';
import { loadConfig } from '../../../src/config.ts';
import { createPool, type Pool } from '../../../src/db/pool.ts';
import { startDevnode, type Devnode } from '../../../src/devnode/index.ts';
import { startPopulator, type Populator } from '../../../src/indexer/populator.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { silentLog } from './harness.ts';

type Generation = { key_block: { hash: string; height: number }; micro_blocks: string[] };

describe('cached node answers (/v2, /v3) built by the real pipeline (devnode → populator → database → API)', function () {
  this.timeout(120_000);
  let devnode: Devnode;
  let populator: Populator;
  let pool: Pool;
  let drop: () => Promise<void>;
  let request: ReturnType<typeof supertest>;
  let registry: prom.Registry;
  const nodeGet = async (path: string): Promise<{ status: number; json: unknown }> => {
    const res = await fetch(`${devnode.externalUrl}${path}`);
    return { status: res.status, json: parseJson(await res.text()) };
  };
  const apiGet = async (path: string): Promise<{ status: number; json: unknown }> => {
    const res = await request.get(path);
    return { status: res.status, json: parseJson(res.text) };
  };

  before(async () => {
    devnode = await startDevnode(
      { port: 0, internalPort: 0, microBlockIntervalMs: 0, generate: { generations: 40, seed: 'api-pipeline' } },
      silentLog,
    );
    const db = await createTestDatabase();
    drop = db.drop;
    const cfg = loadConfig({
      DATABASE_URL: db.url,
      NODE_URL: devnode.externalUrl,
      POLL_INTERVAL_MS: '100',
      DATABASE_SCHEMA: 'mdw_g1',
    });
    populator = await startPopulator({ cfg, log: silentLog, registry: new prom.Registry() });
    await populator.synced();
    pool = createPool({ databaseUrl: db.url, schema: 'mdw_g1', max: 4 }, silentLog);
    registry = new prom.Registry();
    request = supertest(createApp({ cfg, log: silentLog, pool, registry, version: 't' }).callback());
  });
  after(async () => {
    await populator?.stop();
    await pool?.end();
    await devnode?.stop();
    await drop?.();
  });

  // the node's /v2 and its /v3, each compared with the devnode's answer in the same version
  for (const v of ['v2', 'v3'] as const)
    it(`answers every generation, key block, micro block and transaction exactly as the node's /${v} does, from the database`, async () => {
      const top = devnode.height();
      let txCount = 0;
      for (let h = 0; h <= top; h++) {
        const gen = await nodeGet(`/${v}/generations/height/${h}`);
        expect(await apiGet(`/${v}/generations/height/${h}`), `generation ${h}`).to.deep.equal(gen);
        const { key_block: kb, micro_blocks: micro } = gen.json as Generation;
        for (const path of [`/${v}/key-blocks/height/${h}`, `/${v}/key-blocks/hash/${kb.hash}`]) {
          expect(await apiGet(path), path).to.deep.equal(await nodeGet(path));
        }
        for (const mh of micro) {
          for (const suffix of ['header', 'transactions', 'transactions/count']) {
            const path = `/${v}/micro-blocks/hash/${mh}/${suffix}`;
            expect(await apiGet(path), path).to.deep.equal(await nodeGet(path));
          }
          const { transactions } = (await nodeGet(`/${v}/micro-blocks/hash/${mh}/transactions`)).json as {
            transactions: { hash: string }[];
          };
          for (const t of transactions) {
            expect(await apiGet(`/${v}/transactions/${t.hash}`)).to.deep.equal(
              await nodeGet(`/${v}/transactions/${t.hash}`),
            );
            txCount++;
          }
        }
      }
      expect(txCount).to.be.above(0);
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
});
