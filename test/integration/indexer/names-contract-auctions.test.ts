/**
 * @module Name auctions a contract opens (`AENS.claim`, an internal call of a ContractCallTx) and a NameClaimTx bids
 * in afterwards, against the devnode's state: the NameClaimTx is a bid of that auction (its end the bid's, its winner
 * the auction's), not a claim of its own: with the internal calls derived in their batch, and after the batches (the
 * replays refused while the chain is stored, the backfill derives them, folds the names again and has the transfers
 * and statistics derive again). The chain (support/contract-auctions.ts) has the registrar open two auctions that an
 * account outbids in its next generation (one ended by the top, one running there), and a third that an account
 * outbids in the same micro block. It is mined once and loaded into two schemas of one database: `mdw -v --full`
 * verifies the load with the internal calls in their batch; the other's tables are compared with that one's, as
 * `-v --full` compares its scratch load (a fresh load) with the verified schema.
 */
import { expect } from 'chai';
import { nameId } from '../../../src/chain/derived-ids.ts';
import type { Json } from '../../../src/chain/json.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import {
  AUCTION_NAMES,
  chainClaims,
  servedClaims,
  startContractAuctions,
  type Claim,
  type ContractAuctions,
} from './support/contract-auctions.ts';
import type { Harness } from './support/harness.ts';
import { serveSchema, type ServedSchema } from './support/served-schema.ts';
import { itChecksTheLoad, LOADS, populatedAs } from './support/two-loads.ts';

type Obj = { [key: string]: Json };

const { ended: ENDED, running: RUNNING, same: SAME } = AUCTION_NAMES;

describe('name auctions a contract opens and a NameClaimTx bids in', function () {
  this.timeout(300_000);
  let h: Harness;
  let auctions: ContractAuctions;

  before(async () => {
    ({ h, auctions } = await startContractAuctions());
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
        // them, 50 heights a step (about ten steps an area)
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

      itChecksTheLoad(
        load,
        () => h,
        () => ({ env, pool }),
      );
    });
});
