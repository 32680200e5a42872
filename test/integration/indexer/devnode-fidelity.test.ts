/**
 * @module The devnode's generated chain through the middleware: every transaction type indexed and
 * verified (`mdw -v --full`'s check) clean, inner transactions listed under their accounts, and
 * every name the node knows answered alike by the node's `/v2/names` and `/middleware/names`.
 */
import { expect } from 'chai';
import { idKey } from '../../../src/chain/id-key.ts';
import prom from 'prom-client';
import supertest from 'supertest';
import { createApp } from '../../../src/api/app.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { nonceAccount } from '../../../src/devnode/rules/apply.ts';
import type { TxFields } from '../../../src/devnode/tx-codec.ts';
import { populateToTop } from '../../support/populate.ts';
import { startHarness, silent, verifyClean, type Harness } from './support/harness.ts';
import { compareNames } from './support/names.ts';

describe('the devnode generated chain through the middleware (devnode + populator + PostgreSQL)', function () {
  this.timeout(300_000);
  let h: Harness;
  let pool: Pool;
  let request: ReturnType<typeof supertest>;

  before(async () => {
    // 120 generations of this seed hold all 25 transaction types (asserted below), 45 wrapped ones and 30 live names
    h = await startHarness(120, 'devnode-fidelity');
    // loaded and stopped: no case mines, and a populator left following would poll the node all the file long
    await populateToTop(h.config());
    pool = createPool({ databaseUrl: h.db.url, schema: 'mdw', max: 4 }, silent);
    request = supertest(
      createApp({ cfg: h.config(), log: silent, pool, registry: new prom.Registry(), version: 't' }).callback(),
    );
  });
  after(async () => {
    await pool?.end();
    await h?.close();
  });

  it('indexes every transaction type and verifies clean against the node, full JSON included', async () => {
    const stored = await h.query<{ type: string }>(
      'mdw',
      'SELECT DISTINCT tx_type_name(tx_type) AS type FROM transactions',
    );
    const types = new Set([...h.devnode.chain.txs.values()].map((r) => String(r.tx.type)));
    expect(types.size).to.be.greaterThanOrEqual(25);
    expect(stored.map((r) => r.type).sort()).to.deep.equal([...types].sort());
    // its scratch load in batches of 100 heights (verifyClean's), not the load's 10: the derived rows compared come
    // from two batchings
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
        const rows = await h.query(
          'mdw',
          `SELECT 1 FROM account_transactions a
            JOIN transactions t ON t.height = a.height AND t.micro_index = a.micro_index AND t.tx_index = a.tx_index
           WHERE a.account = (SELECT num FROM account_ids WHERE key = $1) AND t.hash = $2`,
          [idKey(String(account)), r.hash],
        );
        expect(rows, `${r.tx.type} ${r.hash} under ${String(account)}`).to.have.length.greaterThan(0);
      }
    }
  });

  it('answers every name as the node does: expiry, owner and pointers, and no name in auction as active', async () => {
    expect(await compareNames(h.devnode.externalUrl, request)).to.be.greaterThan(10);
  });
});
