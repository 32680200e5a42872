/**
 * @module Relative TTLs on a hyperchain (issue 45): the node counts every relative height a transaction sets (a name's
 * claim lifetime and auction end, an update's `name_ttl`, an oracle's `oracle_ttl`, a solo close's lock period) from
 * the height of the block holding it, and on a hyperchain a generation's micro blocks carry the next height (they come
 * before that height's key block). The devnode's own state is the oracle: its names, auctions, oracles and channels,
 * and the node's answers for them, against what the middleware stores and serves (REST, the original's names, GraphQL).
 */
import { expect } from 'chai';
import { claimMaxExpiration, Protocol } from '../../../src/chain/aens.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import {
  expectVerifyClean,
  SHARED_HYPERCHAIN,
  startHyperchain,
  type TestHyperchain,
} from '../../support/hyperchain.ts';
import { serveLoaded, type Served } from '../../support/served.ts';
import { compareNames } from '../../integration/indexer/support/names.ts';

type Obj = { [key: string]: Json };

describe('relative TTLs on a hyperchain', function () {
  this.timeout(300_000);
  let hc: TestHyperchain;
  let served: Served;

  /** node is the devnode's answer to a GET of its external API, with exact integers. */
  const node = async (path: string): Promise<{ status: number; body: Obj }> => {
    const res = await fetch(`${hc.devnode.externalUrl}${path}`);
    return { status: res.status, body: parseJson(await res.text()) as Obj };
  };
  const mdw = async (path: string): Promise<Obj> => parseJson((await served.request.get(path).expect(200)).text) as Obj;

  before(async () => {
    // the chain hyperchain-load.test.ts loads, which the run populates once: its 8 epochs hold name claims (auctions
    // among them), updates, oracle registers and extends, and a channel solo-closed, all with relative TTLs (the first
    // cases assert them present)
    hc = await startHyperchain(SHARED_HYPERCHAIN);
    served = await serveLoaded(hc.config());
  });
  after(async () => {
    await served?.close();
    await hc?.close();
  });

  it('holds the transactions whose relative TTLs are checked, in micro blocks a height above their generation', () => {
    const types = new Map<string, number>();
    for (const key of hc.devnode.chain.keyBlocks)
      for (const micro of key.micro) {
        expect(micro.header.height, 'a micro block carries the next height').to.equal(key.header.height + 1);
        for (const r of micro.txs) types.set(String(r.tx.type), (types.get(String(r.tx.type)) ?? 0) + 1);
      }
    for (const type of ['NameClaimTx', 'NameUpdateTx', 'OracleRegisterTx', 'OracleExtendTx', 'ChannelCloseSoloTx'])
      expect(types.get(type) ?? 0, type).to.be.greaterThan(0);
  });

  it("stores each name's expiry and auction end as the devnode holds them", async () => {
    const state = hc.devnode.chain.state;
    const stored = new Map(
      (
        await hc.query<{ name_hash: string; expires_at: number; auction_end_height: number; kind: string }>(
          'mdw',
          'SELECT name_hash, expires_at, auction_end_height, kind FROM name_state',
        )
      ).map((r) => [r.name_hash, r]),
    );
    const names = [...state.names.entries()].filter(([, n]) => n.revokedAt === undefined);
    const auctions = [...state.auctions.entries()];
    expect(names.length, 'claimed names').to.be.greaterThan(0);
    expect(auctions.length, 'names in auction').to.be.greaterThan(0);
    const of = (id: string) => {
      const r = stored.get(id);
      return r && { expires: r.expires_at, auctionEnd: r.auction_end_height, kind: r.kind };
    };
    expect(names.map(([id]) => [id, of(id)?.expires])).to.deep.equal(names.map(([id, n]) => [id, n.expires]));
    // a name in auction expires its claim lifetime after the auction's end, when the node hands it to the last bidder
    expect(auctions.map(([id]) => [id, of(id)?.auctionEnd, of(id)?.expires])).to.deep.equal(
      auctions.map(([id, a]) => [id, a.ends, a.ends + claimMaxExpiration(Protocol.CERES)]),
    );
    const revoked = [...state.names.entries()].filter(([, n]) => n.revokedAt !== undefined);
    expect(revoked.map(([id]) => [id, of(id)?.kind])).to.deep.equal(revoked.map(([id]) => [id, 'revoke']));
  });

  it("stores each oracle's expiry as the devnode holds it", async () => {
    const stored = new Map(
      (
        await hc.query<{ oracle_id: string; expires_at: number }>(
          'mdw',
          `SELECT DISTINCT ON (oracle_id) oracle_id, expires_at FROM oracle_events
            ORDER BY oracle_id, height DESC, micro_index DESC, tx_index DESC`,
        )
      ).map((r) => [r.oracle_id, r.expires_at]),
    );
    const oracles = [...hc.devnode.chain.state.oracles.entries()];
    expect(oracles.length).to.be.greaterThan(0);
    expect(oracles.map(([id]) => [id, stored.get(id)])).to.deep.equal(oracles.map(([id, o]) => [id, o.expires]));
  });

  it("serves the node's ttl as each name's and oracle's expiry, and its auction ends", async () => {
    expect(await compareNames(hc.devnode.externalUrl, served.request), 'names the node serves').to.be.greaterThan(0);
    const top = hc.devnode.height();
    for (const [, n] of hc.devnode.chain.state.names.entries()) {
      const answer = await node(`/v3/names/${n.name}`);
      if (answer.status !== 200) continue;
      const served = await mdw(`/mdw/v3/names/${n.name}`);
      expect({ name: n.name, expire_height: served.expire_height, active: served.active }).to.deep.equal({
        name: n.name,
        expire_height: answer.body.ttl,
        active: true,
      });
    }
    for (const [, a] of hc.devnode.chain.state.auctions.entries()) {
      const answer = await node(`/v3/auctions/${a.name}`);
      expect(answer.status).to.equal(200);
      const served = await mdw(`/mdw/v3/names/auctions/${a.name}`);
      expect([a.name, served.auction_end]).to.deep.equal([a.name, answer.body.ends_at]);
    }
    let oracles = 0;
    for (const [id] of hc.devnode.chain.state.oracles.entries()) {
      const answer = await node(`/v3/oracles/${id}`);
      if (answer.status !== 200) continue;
      oracles++;
      const served = await mdw(`/mdw/v3/oracles/${id}`);
      expect([id, served.expire_height, served.active]).to.deep.equal([id, answer.body.ttl, true]);
    }
    expect(oracles, `oracles the node serves at ${top}`).to.be.greaterThan(0);
  });

  it("serves a solo-closed channel's lock as the node's locked_until", async () => {
    const closing = [...hc.devnode.chain.state.channels.entries()].filter(([, c]) => c.lockedUntil > 0);
    expect(closing.length, 'channels solo-closed').to.be.greaterThan(0);
    for (const [id] of closing) {
      const answer = await node(`/v3/channels/${id}`);
      const res = await served.request
        .post('/mdw/graphql')
        .send({
          query: 'query($id: String!) { channel(id: $id) { lockedUntil } }',
          variables: { id },
        })
        .expect(200);
      const channel = (parseJson(res.text) as { data: { channel: Obj } }).data.channel;
      expect([id, channel.lockedUntil]).to.deep.equal([id, answer.body.locked_until]);
    }
  });

  it('verifies clean with -v --full', async () => {
    await expectVerifyClean(hc, 'mdw');
  });
});
