/**
 * @module A contract's bids in name auctions (`AENS.claim` as an internal call of a ContractCallTx) against the
 * devnode's state, on a generated chain whose registrar bids in the accounts' auctions: the node returns an outbid bid
 * to its bidder, a contract or an account, at the bid that outbids it (`fee_refund_name`), and every account's balance
 * after every height is the devnode's; migration 1164 on that load made what the build before the contracts' bids
 * stored derives it again as loaded (support/claims-repair.ts). (The contract's bids of a mined chain, refunded and locked as the node does with
 * the internal calls in their batch and after the batches, are checked on the contract-auctions chain with its name
 * auctions: names-contract-auctions.test.ts.) A contract's claim in a call no dry-run tells (after a GAMetaTx in its
 * micro block) locks its name fee unseen: the locked-coins account is read with the accounts such a call names, its
 * batch holding no name transaction, and the lock is an 'unexplained' change there.
 */
import { expect } from 'chai';
import { LOCKED_COINS_ACCOUNT } from '../../../src/chain/derived-ids.ts';
import { reprefix } from '../../../src/chain/encoding.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { keyPairFromSeed } from '../../../src/devnode/keys.ts';
import { minimumNameFee } from '../../../src/chain/aens.ts';
import { aeBalancesApart, devnodeBalances, unexplainedChanges } from '../../support/ae-balances-truth.ts';
import { gaAttachTx, gaMetaTx, innerSpend } from '../../support/ga-txs.ts';
import { startRegistrarBids } from './support/contract-auctions.ts';
import {
  mineGeneration,
  populatedWithNodeSettings,
  startHarness,
  verifyClean,
  type Harness,
} from './support/harness.ts';
import { deployRegistrar } from './support/registrar.ts';
import { FRESH, repair, rows, storeAsTheBuildBefore } from './support/claims-repair.ts';
import { keepAside, rowsApart } from './support/schema-rows.ts';

/** 13 characters or more: no auction, the name fee locked at the claim */
const UNTOLD = 'untoldclaimbycontract.chain';

describe('AE balances of a generated chain whose registrar bids in the accounts’ auctions (GenerateOptions.registrarBids)', function () {
  this.timeout(300_000);
  let h: Harness;
  let pool: Pool;
  let env: Record<string, string>;

  before(async () => {
    h = await startRegistrarBids();
    ({ env, pool } = await populatedWithNodeSettings(h));
  });

  after(async () => {
    await pool?.end();
    await h?.close();
  });

  it("returns each outbid bid at the bid outbidding it, a contract's (the devnode's call amount) and an account's alike", async () => {
    const { rows } = await pool.query<{ account_id: string; delta: string; outbid: string; at: string }>(
      `SELECT c.account_id, c.delta::text, c.tx_hash AS outbid, t.hash AS at
         FROM account_balance_changes c
         JOIN transactions t ON (t.height, t.micro_index, t.tx_index) = (c.height, c.micro_index, c.tx_index)
        WHERE c.kind = 'fee_refund_name'`,
    );
    const chain = h.devnode.chain;
    const typeOf = (hash: string): string => String(chain.txs.get(hash)!.tx.type);
    for (const r of rows) {
      // the outbid bid as the devnode holds it: a contract's is its call's amount (the registrar bids what it is sent)
      const outbid = chain.txs.get(r.outbid)!.tx;
      const [bidder, fee] =
        outbid.type === 'ContractCallTx'
          ? [reprefix(String(outbid.contract_id), 'ak'), outbid.amount]
          : [String(outbid.account_id), outbid.name_fee];
      expect({ account: r.account_id, delta: r.delta }).to.deep.equal({ account: bidder, delta: String(fee) });
    }
    const contracts = (key: 'outbid' | 'at'): number => rows.filter((r) => typeOf(r[key]) === 'ContractCallTx').length;
    expect(contracts('outbid'), "a contract's bid outbid").to.be.above(0);
    expect(contracts('at'), "an account's bid a contract outbid").to.be.above(0);
  });

  it("serves every account after every height as the devnode's state, 'unexplained' only where a call's internal calls are untold", async () => {
    const all = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
    expect(await aeBalancesApart(pool, h.devnode.chain, all)).to.deep.equal([]);
    const { rows } = await pool.query(
      `SELECT account_id, height FROM account_balance_changes c
        WHERE kind = 'unexplained' AND NOT EXISTS (SELECT 1 FROM contract_internal_call_gaps g WHERE g.height = c.height)`,
    );
    expect(rows).to.deep.equal([]);
  });

  it('verifies clean against the devnode (mdw -v --full)', async () => {
    // its scratch load in batches of 100 heights (verifyClean's), not the load's 10: the derived rows compared come
    // from two batchings
    await verifyClean(h, env);
  });

  // after the cases above: the load -v --full verified, repaired as an earlier build stored it (no load again for it)
  describe("migration 1164 on the chain stored before the names' fold and the contracts' bids", () => {
    let fresh: Record<string, unknown[]> = {};

    before(async () => {
      fresh = await rows(pool);
      await keepAside(h.db.url, 'mdw', FRESH);
      await storeAsTheBuildBefore(h, pool, env);
      expect(await rows(pool), 'the rows the build before left').to.not.deep.equal(fresh);
      await repair(h, pool, env);
    });

    it("derives the names, transfers, statistics and balances' changes as a fresh load did", async () => {
      expect(await rows(pool)).to.deep.equal(fresh);
    });

    it("serves every account after every height as the devnode's state", async () => {
      const all = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
      expect(await aeBalancesApart(pool, h.devnode.chain, all)).to.deep.equal([]);
    });

    it('derives every table as the fresh load did (the comparison of mdw -v --full)', async () => {
      expect(await rowsApart(h.db.url, 'mdw', FRESH)).to.deep.equal([]);
    });
  });
});

describe("AE balances of a contract's claim no dry-run tells (after a GAMetaTx in its micro block): the locked-coins account's lock", function () {
  this.timeout(300_000);
  let h: Harness;
  let pool: Pool;
  let env: Record<string, string>;
  /** the registrar's account (`ak_`) */
  let registrar = '';
  /** the generation holding the untold claim */
  let claimed = 0;

  before(async () => {
    h = await startHarness(3, 'balances-untold-claim', {}, { REWARD_RULES: 'devnode' });
    const chain = h.devnode.chain;
    const ga = keyPairFromSeed(Buffer.alloc(32, 97));
    const r = await deployRegistrar(h, [ga]);
    registrar = r.account;
    r.submit(gaAttachTx(ga));
    await mineGeneration(h);
    // the claim in a batch of its own (BATCH_SIZE 10: verify's scratch loads heights 10-19 as one), no name transaction
    // nor lock in it: nothing else makes a batch read the locked-coins account
    while (chain.height < 10) await h.devnode.mineKeyBlock();
    // the meta transaction first: the node's dry-run runs no micro block's calls after it, so the claim is untold
    r.submit(gaMetaTx(ga.address, 1n, innerSpend(ga.address, r.patron.address, 777n)));
    r.call('claim', [UNTOLD], minimumNameFee(UNTOLD));
    claimed = await mineGeneration(h);
    while (chain.height < 25) await h.devnode.mineKeyBlock();
    ({ env, pool } = await populatedWithNodeSettings(h));
  });

  after(async () => {
    await pool?.end();
    await h?.close();
  });

  it("stores the claim's call as one whose internal calls no dry-run told", async () => {
    const { rows } = await pool.query<{ height: number }>('SELECT height FROM contract_internal_call_gaps');
    expect(rows).to.deep.equal([{ height: claimed }]);
  });

  it("serves every account after every height as the devnode's state: the registrar's fee and the locked-coins account's lock 'unexplained' at the claim", async () => {
    const locked = (height: number): bigint => devnodeBalances(h.devnode.chain, height).get(LOCKED_COINS_ACCOUNT) ?? 0n;
    expect(locked(claimed) - locked(claimed - 1), "the claim's lock").to.equal(minimumNameFee(UNTOLD));
    const all = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
    expect(await aeBalancesApart(pool, h.devnode.chain, all)).to.deep.equal([]);
    expect(await unexplainedChanges(pool)).to.have.members([
      `${registrar} at ${claimed}`,
      `${LOCKED_COINS_ACCOUNT} at ${claimed}`,
    ]);
  });

  it('verifies clean against the devnode (mdw -v --full)', async () => {
    await verifyClean(h, env);
  });
});
