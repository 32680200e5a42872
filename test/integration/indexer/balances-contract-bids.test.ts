/**
 * @module A contract's bids in name auctions (`AENS.claim` as an internal call of a ContractCallTx) against the
 * devnode's state: the node returns an outbid bid to its bidder, a contract or an account, at the bid that outbids it
 * (`fee_refund_name`), and locks the winning bid in the locked-coins account (`ak_1111…273Yts`) at the key block
 * after the auction's end (`fee_lock_name`), a contract's as an account's. The chain below has the
 * registrar contract outbid an account's claim in one auction and be outbid by another account's NameClaimTx, win an
 * auction it outbid an account in, and win one it opened alone: with the internal calls derived in their batch, and after
 * the batches (the backfill derives them and the transfers' refunds and locks again), the chain mined once and loaded
 * into two schemas of one database (`mdw -v --full` verifies the first; the second's tables are compared with it, as
 * `-v --full` compares its scratch load, a fresh load, with the verified schema). A contract's claim in a call no
 * dry-run tells (after a GAMetaTx in its micro block) locks its name fee unseen: the locked-coins account is read with
 * the accounts such a call names, its batch holding no name transaction, and the lock is an 'unexplained' change there.
 */
import { expect } from 'chai';
import { LOCKED_COINS_ACCOUNT } from '../../../src/chain/derived-ids.ts';
import { reprefix } from '../../../src/chain/encoding.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { keyPairFromSeed, type KeyPair } from '../../../src/devnode/keys.ts';
import { minimumNameFee } from '../../../src/devnode/rules/names.ts';
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
import { itChecksTheLoad, LOADS, populatedAs } from './support/two-loads.ts';

/** the names: 9 to 12 characters go to auction (480 heights from Ceres) */
const [OUTBID, WON, ALONE] = ['outbidcon.chain', 'wonbycont.chain', 'alonecont.chain'];
/** 13 characters or more: no auction, the name fee locked at the claim */
const UNTOLD = 'untoldclaimbycontract.chain';

interface ChangeRow {
  readonly account_id: string;
  readonly height: number;
  readonly micro_index: number;
  readonly kind: string;
  readonly tx_hash: string | null;
  readonly delta: string;
}

describe("AE balances of a contract's bids in name auctions: refunds and locks as the node makes them", function () {
  this.timeout(300_000);
  let h: Harness;
  let [opener, bidder]: KeyPair[] = [];
  /** the registrar's account (`ak_`) */
  let registrar = '';
  /** each bid's fee, transaction hash and height */
  const bids = new Map<string, { fee: bigint; hash: string; height: number }>();
  /** each auction's end */
  const ends = new Map<string, number>();

  before(async () => {
    h = await startHarness(3, 'balances-contract-bids', {}, { REWARD_RULES: 'devnode' });
    const chain = h.devnode.chain;
    [opener, bidder] = [95, 96].map((n) => keyPairFromSeed(Buffer.alloc(32, n)));
    const r = await deployRegistrar(h, [opener!, bidder!]);
    registrar = r.account;
    const claim = (k: KeyPair, name: string, fee: bigint): string => r.claim(k, name, fee);
    const contractBid = (name: string, fee: bigint): string => r.call('claim', [name], fee);
    const bid = async (key: string, fee: bigint, send: (fee: bigint) => string): Promise<void> => {
      const hash = send(fee);
      bids.set(key, { fee, hash, height: await mineGeneration(h) });
    };
    // an account opens an auction, the contract outbids it, another account outbids the contract
    const f0 = minimumNameFee(OUTBID);
    await bid('opener', f0, (fee) => claim(opener!, OUTBID, fee));
    // the contract opens an auction alone, and wins it
    await bid('alone', minimumNameFee(ALONE), (fee) => contractBid(ALONE, fee));
    await bid('contract', f0 * 2n, (fee) => contractBid(OUTBID, fee));
    await bid('bidder', f0 * 4n, (fee) => claim(bidder!, OUTBID, fee));
    // an account opens an auction, the contract outbids it and wins
    const g0 = minimumNameFee(WON);
    await bid('opener won', g0, (fee) => claim(opener!, WON, fee));
    await bid('contract won', g0 * 2n, (fee) => contractBid(WON, fee));
    ends.set(OUTBID, bids.get('opener')!.height + 480);
    ends.set(ALONE, bids.get('alone')!.height + 480);
    ends.set(WON, bids.get('opener won')!.height + 480);
    while (chain.height < Math.max(...ends.values()) + 3) await h.devnode.mineKeyBlock();
  });

  after(async () => {
    await h?.close();
  });

  for (const load of LOADS)
    describe(load.title, function () {
      let pool: Pool;
      let env: Record<string, string>;

      before(async () => {
        // behind: the int_calls area derives the contracts' bids after the transfers and balances of their heights (the
        // backfill, 50 heights a step: about ten an area), the transfers' refunds and locks derived again from there
        ({ env, pool } = await populatedAs(h, load, 50));
      });

      after(async () => {
        await pool?.end();
      });

      /** changes are the stored changes of `kind` of `account`, in chain order. */
      async function changes(account: string, kind: string): Promise<ChangeRow[]> {
        const { rows } = await pool.query<ChangeRow>(
          `SELECT account_id, height, micro_index, kind, tx_hash, delta::text FROM account_balance_changes
        WHERE account_id = $1 AND kind = $2 ORDER BY height, micro_index, tx_index, seq`,
          [account, kind],
        );
        return rows;
      }

      it('returns an outbid bid at the bid outbidding it: a contract outbid by an account, accounts by a contract', async () => {
        const at = (key: string): { height: number; micro_index: number } => ({
          height: bids.get(key)!.height,
          micro_index: 0,
        });
        const refund = (key: string, outbid: string, account: string): ChangeRow => ({
          account_id: account,
          ...at(key),
          kind: 'fee_refund_name',
          tx_hash: bids.get(outbid)!.hash,
          delta: String(bids.get(outbid)!.fee),
        });
        expect(await changes(registrar, 'fee_refund_name')).to.deep.equal([refund('bidder', 'contract', registrar)]);
        expect(await changes(opener!.address, 'fee_refund_name')).to.deep.equal([
          refund('contract', 'opener', opener!.address),
          refund('contract won', 'opener won', opener!.address),
        ]);
      });

      it("locks each auction's winning bid, a contract's or an account's, at the key block after its end", async () => {
        const lock = (name: string, key: string): ChangeRow => ({
          account_id: LOCKED_COINS_ACCOUNT,
          height: ends.get(name)! + 1,
          micro_index: -1,
          kind: 'fee_lock_name',
          tx_hash: bids.get(key)!.hash,
          delta: String(bids.get(key)!.fee),
        });
        const ours = new Set([...ends.values()].map((e) => e + 1));
        const locks = (await changes(LOCKED_COINS_ACCOUNT, 'fee_lock_name')).filter((r) => ours.has(r.height));
        const expected = [lock(OUTBID, 'bidder'), lock(ALONE, 'alone'), lock(WON, 'contract won')];
        expect(locks).to.have.deep.members(expected);
        expect(locks).to.have.length(expected.length);
      });

      it("lists those refunds and locks in /v3/transfers' rows, a contract's bids among them", async () => {
        const read = async (sql: string): Promise<string[]> =>
          (await pool.query<{ r: string }>(sql)).rows.map((x) => x.r);
        const transfers = await read(
          `SELECT concat_ws(' ', kind, account_id, height, micro_index, tx_index, ref_tx_hash, amount) AS r
         FROM internal_transfers WHERE kind = 'fee_refund_name' OR (kind = 'fee_lock_name' AND micro_index = -1)`,
        );
        // the balances' rows, each a transfer's credit (a lock's of the locked-coins account)
        const changes = await read(
          `SELECT concat_ws(' ', c.kind, coalesce(l.account_id, c.account_id), c.height, c.micro_index, c.tx_index,
                        c.tx_hash, c.delta) AS r
         FROM account_balance_changes c
         LEFT JOIN LATERAL (SELECT e.owner AS account_id FROM name_events e WHERE e.tx_hash = c.tx_hash
                             AND e.kind IN ('claim', 'bid') LIMIT 1) l ON c.kind = 'fee_lock_name'
        WHERE c.kind = 'fee_refund_name' OR (c.kind = 'fee_lock_name' AND c.micro_index = -1)`,
        );
        expect(transfers.filter((r) => r.includes(registrar)).length, "a contract's refund and win").to.equal(3);
        expect(transfers.sort()).to.deep.equal(changes.sort());
      });

      itChecksTheLoad(
        load,
        () => h,
        () => ({ env, pool }),
      );
    });
});

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
    await verifyClean(h, env);
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
