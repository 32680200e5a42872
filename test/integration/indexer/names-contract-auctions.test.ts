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
import prom from 'prom-client';
import { startServer } from '../../../src/api/server.ts';
import { nameId } from '../../../src/chain/derived-ids.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { aeBalancesApart } from '../../support/ae-balances-truth.ts';
import { silentLog } from '../api/harness.ts';
import {
  AUCTION_NAMES,
  chainClaims,
  servedClaims,
  startContractAuctions,
  type Claim,
  type ContractAuctions,
} from './support/contract-auctions.ts';
import { populatedWithNodeSettings, verifyClean, type Harness } from './support/harness.ts';
import { populatedInternalCallsBehind } from './support/internal-calls-behind.ts';
import { rowsApart } from './support/schema-rows.ts';

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

  for (const behind of [false, true])
    describe(`internal calls ${behind ? 'derived after the batches' : 'in their batch'}`, function () {
      /** the schema loaded: the in-batch load's is the one `-v --full` verifies */
      const schema = behind ? 'behind' : 'mdw';
      let pool: Pool;
      let env: Record<string, string>;
      let server: Awaited<ReturnType<typeof startServer>>;

      const get = async (path: string): Promise<{ status: number; body: Obj }> => {
        const res = await fetch(`${server.httpUrl}/mdw/v3${path}`);
        return { status: res.status, body: parseJson(await res.text()) as Obj };
      };

      before(async () => {
        if (behind) {
          // the batches go on while the dry-runs are refused; the backfill derives the internal calls after them, 50
          // heights a step (about ten steps an area)
          let pendingFrom: number | undefined;
          ({ env, pool, pendingFrom } = await populatedInternalCallsBehind(h, schema, 50));
          expect(pendingFrom, 'the internal calls pending from the first call').to.be.at.most(5);
        } else ({ env, pool } = await populatedWithNodeSettings(h, schema));
        server = await startServer({
          cfg: h.config({ ...env, PORT: '0', WEBSOCKET_ADDRESS: '127.0.0.1:0' }),
          log: silentLog,
          registry: new prom.Registry(),
          version: 't',
        });
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

      it("serves every account after every height as the devnode's state, with no 'unexplained' change", async () => {
        const all = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
        expect(await aeBalancesApart(pool, h.devnode.chain, all)).to.deep.equal([]);
        const unexplained = await pool.query('SELECT account_id, height FROM account_balance_changes WHERE kind = $1', [
          'unexplained',
        ]);
        expect(unexplained.rows).to.deep.equal([]);
      });

      if (!behind)
        it('verifies clean against the devnode (mdw -v --full)', async () => {
          await verifyClean(h, env);
        });
      else
        it('derives every table as the load with the internal calls in their batch (which -v --full verified)', async () => {
          expect(await rowsApart(h.db.url, 'mdw', schema)).to.deep.equal([]);
        });
    });
});
