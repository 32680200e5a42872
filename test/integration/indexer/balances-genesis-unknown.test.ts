/**
 * @module Issue 89 item 9, report 2: without the node's genesis accounts (no GENESIS_ACCOUNTS_FILE), an account's
 * genesis balance is inferred in the first range that touches it. It was the account's whole difference at the range's
 * end: a payment an untold call (wrapped by a PayingForTx or GAMetaTx, no dry-run told its Chain.spend) made into it
 * was taken for genesis money, and every height before that call was served above the node (`-v --full`: `db
 * 7000000020000000000000 node 7000000000000000000000`), silently (no difference counted). The node's state after the
 * range's first block tells the opening; the rest is located as any difference.
 */
import { expect } from 'chai';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { LOCKED_COINS_ACCOUNT } from '../../../src/chain/derived-ids.ts';
import { aeBalancesApart, devnodeBalances } from '../../support/ae-balances-truth.ts';
import { populateToTop } from '../../support/populate.ts';
import { silent, startHarness, type Harness } from './support/harness.ts';

describe('AE balance history without the genesis accounts known (issue 89, report 2)', function () {
  this.timeout(300_000);
  let h: Harness;
  let pool: Pool;

  before(async () => {
    // the default mix (every type, wrapped calls among them): at this seed a wrapped call of height 200 pays an
    // account no transaction named before, in the catch-up's one stretch from height 0
    h = await startHarness(200, 'r2b', {}, { REWARD_RULES: 'devnode' });
    await populateToTop(h.config({ NODE_INTERNAL_URL: h.devnode.internalUrl }));
    pool = createPool({ databaseUrl: h.db.url, schema: 'mdw', max: 2 }, silent);
  });

  after(async () => {
    await pool?.end();
    await h?.close();
  });

  it("stores each genesis balance as the node's, and what untold calls paid where they paid it", async () => {
    const genesis = devnodeBalances(h.devnode.chain, 0);
    const openings = await pool.query<{ account_id: string; delta: string }>(
      "SELECT account_id, delta::text FROM account_balance_changes WHERE kind = 'accounts_roma'",
    );
    expect(openings.rowCount).to.be.above(0);
    for (const o of openings.rows) expect(o.delta, o.account_id).to.equal(String(genesis.get(o.account_id)));
    const located = await pool.query(
      "SELECT 1 FROM account_balance_changes WHERE kind = 'unexplained' AND account_id <> $1 AND delta > 0",
      [LOCKED_COINS_ACCOUNT],
    );
    expect(located.rowCount, 'payments the rules cannot tell, located').to.be.above(0);
  });

  it("serves every account it stored, after every height, as the node's state has it", async () => {
    const stored = new Set(
      (await pool.query<{ account_id: string }>('SELECT DISTINCT account_id FROM account_balance_changes')).rows.map(
        (r) => r.account_id,
      ),
    );
    const heights = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
    // an account no stored transaction touched has no history (its genesis balance is not known): left out
    const apart = (await aeBalancesApart(pool, h.devnode.chain, heights)).filter((l) => stored.has(l.split(' ')[0]!));
    expect(apart).to.deep.equal([]);
  });
});
