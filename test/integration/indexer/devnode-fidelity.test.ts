/**
 * @module The devnode's generated chain through the middleware: every transaction type indexed and
 * verified (`mdw -v --full`'s check) clean, inner transactions listed under their accounts, and
 * every name the node knows answered alike by the node's `/v2/names` and `/middleware/names`.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import supertest from 'supertest';
import { createApp } from '../../../src/api/app.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { createPool, type Pool } from '../../../src/db/pool.ts';
import { startPopulator, type Populator } from '../../../src/indexer/populator.ts';
import { nonceAccount } from '../../../src/devnode/rules.ts';
import type { TxFields } from '../../../src/devnode/tx-codec.ts';
import { startHarness, silent, verifyClean, type Harness } from './support/harness.ts';

type NameAnswer = { name_hash: string; name: string; owner: string; expires_at: number; pointers: Json };

/**
 * compareNames checks, for every name the middleware knows, that the node and the middleware agree:
 * a name the node serves has the same id, owner, expiry and pointers and is listed active; a name
 * the node does not serve (in auction, expired, revoked) is not active in the middleware.
 */
export async function compareNames(h: Harness, request: ReturnType<typeof supertest>): Promise<number> {
  const all = (await request.get('/middleware/names?limit=1000').expect(200)).body as NameAnswer[];
  const active = new Set(
    ((await request.get('/middleware/names/active?limit=1000').expect(200)).body as NameAnswer[]).map((n) => n.name),
  );
  let served = 0;
  for (const entry of all) {
    const res = await fetch(`${h.devnode.externalUrl}/v2/names/${entry.name}`);
    const node = parseJson(await res.text()) as { id: string; ttl: number; owner: string; pointers: Json };
    if (res.status === 404) {
      expect(active.has(entry.name), `${entry.name} is not served by the node but active in the middleware`).to.equal(
        false,
      );
      continue;
    }
    served++;
    expect(res.status).to.equal(200);
    expect(active.has(entry.name), `${entry.name} is served by the node but not active in the middleware`).to.equal(
      true,
    );
    const search = (await request.get(`/middleware/names/${entry.name}?limit=1000`).expect(200)).body as NameAnswer[];
    const mdw = search.find((n) => n.name === entry.name)!;
    expect(
      { id: mdw.name_hash, ttl: mdw.expires_at, owner: mdw.owner, pointers: mdw.pointers },
      entry.name,
    ).to.deep.equal({ id: node.id, ttl: node.ttl, owner: node.owner, pointers: node.pointers });
  }
  return served;
}

describe('the devnode generated chain through the middleware (devnode + populator + PostgreSQL)', function () {
  this.timeout(300_000);
  let h: Harness;
  let populator: Populator;
  let pool: Pool;
  let request: ReturnType<typeof supertest>;

  before(async () => {
    h = await startHarness(300, 'devnode-fidelity');
    populator = await startPopulator({ cfg: h.config(), log: silent, registry: new prom.Registry() });
    await populator.synced();
    pool = createPool({ databaseUrl: h.db.url, schema: 'mdw', max: 4 }, silent);
    request = supertest(
      createApp({ cfg: h.config(), log: silent, pool, registry: new prom.Registry(), version: 't' }).callback(),
    );
  });
  after(async () => {
    await populator?.stop();
    await pool?.end();
    await h?.close();
  });

  it('indexes every transaction type and verifies clean against the node, full JSON included', async () => {
    const stored = await h.query<{ type: string }>('mdw', 'SELECT DISTINCT tx_type AS type FROM transactions');
    const types = new Set([...h.devnode.chain.txs.values()].map((r) => String(r.tx.type)));
    expect(types.size).to.be.greaterThanOrEqual(24);
    expect(stored.map((r) => r.type).sort()).to.deep.equal([...types].sort());
    await verifyClean(h);
  });

  it("lists a GAMetaTx and a PayingForTx under their inner transaction's accounts", async () => {
    const wrapped = [...h.devnode.chain.txs.values()].filter(
      (r) => r.tx.type === 'GAMetaTx' || r.tx.type === 'PayingForTx',
    );
    expect(wrapped.length).to.be.greaterThan(10);
    for (const r of wrapped) {
      const inner = (r.tx.tx as { tx: TxFields }).tx;
      const accounts = [nonceAccount(inner), inner.recipient_id].filter((a) => typeof a === 'string');
      for (const account of accounts) {
        const rows = await h.query('mdw', 'SELECT 1 FROM account_transactions WHERE account = $1 AND tx_hash = $2', [
          account,
          r.hash,
        ]);
        expect(rows, `${r.tx.type} ${r.hash} under ${String(account)}`).to.have.length.greaterThan(0);
      }
    }
  });

  it('answers every name as the node does: expiry, owner and pointers, and no name in auction as active', async () => {
    expect(await compareNames(h, request)).to.be.greaterThan(10);
  });
});
