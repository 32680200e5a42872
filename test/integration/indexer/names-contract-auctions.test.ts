/**
 * @module Name auctions a contract opens (`AENS.claim`, an internal call of a ContractCallTx) and a NameClaimTx bids
 * in afterwards, against the devnode's state: the NameClaimTx is a bid of that auction (its end the bid's, its winner
 * the auction's), not a claim of its own: with the internal calls derived in their batch, and after the batches (the
 * replays refused while the chain is stored, the backfill derives them, folds the names again and has the transfers
 * and statistics derive again). The chain (support/contract-auctions.ts) has the registrar open two auctions that an
 * account outbids in its next generation (one ended by the top, one running there), and a third that an account
 * outbids in the same micro block; with a registrar of its own (support's ContractBids), the contract outbids an
 * account's claim and is outbid by another account's, wins an auction it outbid an account in, and wins one it opened
 * alone: the node returns each outbid bid to its bidder, a contract or an account, at the bid that outbids it
 * (`fee_refund_name`), and locks each winning bid in the locked-coins account (`ak_1111…273Yts`) at the key block
 * after the auction's end (`fee_lock_name`), a contract's as an account's (one chain for both: each of its loads and
 * `-v --full` of ~490 heights, an auction's 480, paid once). It is mined once and loaded into two schemas of one
 * database: `mdw -v --full`
 * verifies the load with the internal calls in their batch; the other's tables are compared with that one's, as
 * `-v --full` compares its scratch load (a fresh load) with the verified schema. Then migration 1164 on the verified
 * load made what the build before the names' fold and the contracts' bids stored (the account's bids as claims of
 * their own, no refund or lock of a contract's bid: 'unexplained' changes): the migration and the backfill derive the
 * names, transfers, statistics and balances again as the fresh load had them, every table as that load's.
 */
import { expect } from 'chai';
import { LOCKED_COINS_ACCOUNT, nameId } from '../../../src/chain/derived-ids.ts';
import type { Json } from '../../../src/chain/json.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { aeBalancesApart, unexplainedChanges } from '../../support/ae-balances-truth.ts';
import { FRESH, repair, rows, storeAsTheBuildBefore } from './support/claims-repair.ts';
import {
  AUCTION_NAMES,
  BID_NAMES,
  chainClaims,
  servedClaims,
  startContractAuctions,
  type Claim,
  type ContractAuctions,
  type ContractBids,
} from './support/contract-auctions.ts';
import { nodeSettings, silent, storedTopHash, type Harness } from './support/harness.ts';
import { keepAside, rowsApart } from './support/schema-rows.ts';
import { serveSchema, type ServedSchema } from './support/served-schema.ts';
import { itChecksTheLoad, LOADS, populatedAs } from './support/two-loads.ts';

type Obj = { [key: string]: Json };

const { ended: ENDED, running: RUNNING, same: SAME } = AUCTION_NAMES;
const { outbid: OUTBID, won: WON, alone: ALONE } = BID_NAMES;

interface ChangeRow {
  readonly account_id: string;
  readonly height: number;
  readonly micro_index: number;
  readonly kind: string;
  readonly tx_hash: string | null;
  readonly delta: string;
}

describe('name auctions a contract opens and a NameClaimTx bids in', function () {
  this.timeout(300_000);
  let h: Harness;
  let auctions: ContractAuctions;
  let contractBids: ContractBids;

  before(async () => {
    let mined: ContractBids | undefined;
    ({ h, auctions, contractBids: mined } = await startContractAuctions(true));
    contractBids = mined!;
  });

  after(async () => {
    await h?.close();
  });

  for (const load of LOADS)
    describe(load.title, function () {
      let pool: Pool;
      let env: Record<string, string>;
      let server: ServedSchema;
      const get = (path: string): ReturnType<ServedSchema['get']> => server.get(path);

      before(async () => {
        // behind: the batches go on while the dry-runs are refused; the backfill derives the internal calls after
        // them, 50 heights a step (about ten steps an area), the batches 50 heights too (the in-batch load's are of 10:
        // the two loads' tables compared come from two batchings)
        let pendingFrom: number | undefined;
        ({ env, pool, pendingFrom } = await populatedAs(h, load, 50));
        if (load.behind) expect(pendingFrom, 'the internal calls pending from the first call').to.be.at.most(5);
        server = await serveSchema(h, env, '/mdw/v3');
      });

      after(async () => {
        await server?.stop();
        await pool?.end();
      });

      const claimsOf = (path: string): Promise<Claim[]> => servedClaims(get, path);
      const expectedClaims = (name: string): Claim[] => chainClaims(auctions, name);

      it("serves an auction a contract opened and an account outbid as the devnode's: its end, bid and bidder", async () => {
        const truth = h.devnode.chain.state.auctions.get(nameId(RUNNING))!;
        const { status, body } = await get(`/names/auctions/${RUNNING}`);
        expect(status).to.equal(200);
        const lastBid = body.last_bid as Obj;
        expect({
          end: body.auction_end,
          bidder: (lastBid.tx as Obj).account_id,
          fee: String((lastBid.tx as Obj).name_fee),
        }).to.deep.equal({ end: truth.ends, bidder: truth.bidder, fee: String(truth.bid) });
        expect(await claimsOf(`/names/auctions/${RUNNING}/claims`)).to.deep.equal(expectedClaims(RUNNING));
        const listed = (await get('/names/auctions?limit=100')).body.data as Obj[];
        expect(listed.map((a) => a.name)).to.deep.equal([RUNNING]);
        expect(await kinds(RUNNING)).to.deep.equal(['claim', 'bid']);
      });

      /** kinds are the kinds of a name's events, in chain order: the contract's claim, then the account's bid */
      async function kinds(name: string): Promise<string[]> {
        const { rows } = await pool.query<{ kind: string }>(
          'SELECT kind FROM name_events WHERE name_hash = $1 ORDER BY height, micro_index, tx_index',
          [nameId(name)],
        );
        return rows.map((r) => r.kind);
      }

      for (const name of [ENDED, SAME])
        it(`serves the name an account won in an auction a contract opened (${name}) as the devnode's`, async () => {
          const truth = h.devnode.chain.state.names.get(nameId(name))!;
          const { status, body } = await get(`/names/${name}`);
          expect(status).to.equal(200);
          expect({
            owner: (body.ownership as Obj).current,
            expires: body.expire_height,
            active: body.active,
          }).to.deep.equal({ owner: truth.owner, expires: truth.expires, active: true });
          expect(await claimsOf(`/names/${name}/claims`)).to.deep.equal(expectedClaims(name));
          expect((await get(`/names/auctions/${name}`)).status).to.equal(404);
          expect(await kinds(name)).to.deep.equal(['claim', 'bid']);
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
        const { bids, opener } = contractBids;
        const refund = (key: string, outbid: string, account: string): ChangeRow => ({
          account_id: account,
          height: bids.get(key)!.height,
          micro_index: 0,
          kind: 'fee_refund_name',
          tx_hash: bids.get(outbid)!.hash,
          delta: String(bids.get(outbid)!.fee),
        });
        // the contract-bids registrar's account bids in no other auction of the chain
        expect(await changes(contractBids.registrar, 'fee_refund_name')).to.deep.equal([
          refund('bidder', 'contract', contractBids.registrar),
        ]);
        expect(await changes(opener.address, 'fee_refund_name')).to.deep.equal([
          refund('contract', 'opener', opener.address),
          refund('contract won', 'opener won', opener.address),
        ]);
      });

      it("locks each auction's winning bid, a contract's or an account's, at the key block after its end", async () => {
        const { bids, ends } = contractBids;
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
        const credits = await read(
          `SELECT concat_ws(' ', c.kind, coalesce(l.account_id, c.account_id), c.height, c.micro_index, c.tx_index,
                            c.tx_hash, c.delta) AS r
             FROM account_balance_changes c
             LEFT JOIN LATERAL (SELECT e.owner AS account_id FROM name_events e WHERE e.tx_hash = c.tx_hash
                                 AND e.kind IN ('claim', 'bid') LIMIT 1) l ON c.kind = 'fee_lock_name'
            WHERE c.kind = 'fee_refund_name' OR (c.kind = 'fee_lock_name' AND c.micro_index = -1)`,
        );
        const registrar = contractBids.registrar;
        expect(transfers.filter((r) => r.includes(registrar)).length, "a contract's refund and wins").to.equal(3);
        expect(transfers.sort()).to.deep.equal(credits.sort());
      });

      itChecksTheLoad(
        load,
        () => h,
        () => ({ env, pool }),
      );
    });

  // after both loads' checks (the behind one's compares its tables with the in-batch one's): the in-batch load, which
  // -v --full verified, repaired as an earlier build stored it; no load of the chain again for the repair
  describe("migration 1164 on the chain stored before the names' fold and the contracts' bids", function () {
    let pool: Pool;
    let env: Record<string, string>;
    /** the rows of a fresh load (TABLES) */
    let fresh: Record<string, unknown[]> = {};
    /** the derivations again (the earlier build's and the repair's) 50 heights a step: the chain's 490 in about ten */
    const stepped = (): Record<string, string> => ({ ...env, BATCH_SIZE: '50' });

    before(async () => {
      const load = LOADS[0]!;
      expect((await storedTopHash(h, load.schema))?.hash, 'the in-batch load, whole').to.equal(
        h.devnode.chain.top.hash,
      );
      env = { ...(await nodeSettings(h)), DATABASE_SCHEMA: load.schema };
      pool = createPool({ databaseUrl: h.db.url, schema: load.schema, max: 2 }, silent);
      fresh = await rows(pool);
      await keepAside(h.db.url, load.schema, FRESH);
      await storeAsTheBuildBefore(h, pool, stepped());
    });

    after(async () => {
      await pool?.end();
    });

    it("stores the earlier build's errors: the account's bids as claims, the contract's refund unexplained", async () => {
      const { rows: kinds } = await pool.query<{ kind: string }>(
        'SELECT kind FROM name_events WHERE name_hash = $1 ORDER BY height, micro_index, tx_index',
        [nameId(RUNNING)],
      );
      expect(kinds.map((k) => k.kind)).to.deep.equal(['claim', 'claim']);
      expect((await unexplainedChanges(pool)).length).to.be.above(0);
      expect(await rows(pool)).to.not.deep.equal(fresh);
    });

    describe('after the migration and the backfill', () => {
      let server: ServedSchema;
      let queued: unknown[] = [];
      const get = (path: string): ReturnType<ServedSchema['get']> => server.get(path);

      before(async () => {
        queued = await repair(h, pool, stepped());
        server = await serveSchema(h, env, '/mdw/v3');
      });

      after(async () => {
        await server?.stop();
      });

      it("queues the names' fold, the transfers, the statistics and the balances from the contract's first claim", () => {
        const first = Math.min(...[...auctions.bids.values()].map((b) => h.devnode.chain.txs.get(b[0]!)!.blockHeight!));
        const to = h.devnode.height();
        expect(queued).to.deep.equal(
          ['balances', 'names', 'stats', 'transfers'].map((area) => ({ area, next_height: first, to_height: to })),
        );
      });

      it("derives the names, transfers, statistics and balances' changes as a fresh load did", async () => {
        expect(await rows(pool)).to.deep.equal(fresh);
      });

      const claimsOf = (path: string): Promise<Claim[]> => servedClaims(get, path);
      const expectedClaims = (name: string): Claim[] => chainClaims(auctions, name);

      it("serves the running auction and the names won as the devnode's", async () => {
        const auction = h.devnode.chain.state.auctions.get(nameId(RUNNING))!;
        const { body } = await get(`/names/auctions/${RUNNING}`);
        expect({ end: body.auction_end, bidder: ((body.last_bid as Obj).tx as Obj).account_id }).to.deep.equal({
          end: auction.ends,
          bidder: auction.bidder,
        });
        expect(await claimsOf(`/names/auctions/${RUNNING}/claims`)).to.deep.equal(expectedClaims(RUNNING));
        for (const name of [ENDED, SAME]) {
          const truth = h.devnode.chain.state.names.get(nameId(name))!;
          const { body: served } = await get(`/names/${name}`);
          expect({ owner: (served.ownership as Obj).current, expires: served.expire_height }).to.deep.equal({
            owner: truth.owner,
            expires: truth.expires,
          });
          expect(await claimsOf(`/names/${name}/claims`)).to.deep.equal(expectedClaims(name));
        }
      });

      it("serves every account after every height as the devnode's state, with no 'unexplained' change", async () => {
        const all = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
        expect(await aeBalancesApart(pool, h.devnode.chain, all)).to.deep.equal([]);
        expect(await unexplainedChanges(pool)).to.deep.equal([]);
      });

      it('derives every table as the fresh load did (the comparison of mdw -v --full)', async () => {
        expect(await rowsApart(h.db.url, LOADS[0]!.schema, FRESH)).to.deep.equal([]);
      });
    });
  });
});
