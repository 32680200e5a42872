/** @module Name auctions end to end: bids posted to the devnode, read back through the populator and the server, compared with the devnode's own auction state. */
import { expect } from 'chai';
import prom from 'prom-client';
import { getMinimumNameFee, produceNameId, type MemoryAccount } from '@aeternity/aepp-sdk';
import { startServer } from '../../../src/api/server.ts';
import { parseJson } from '../../../src/chain/json.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { startTestNode, type TestNode } from '../../devnode/harness.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { silentLog } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are read field by field
type Body = any;

describe('name auctions end to end (devnode bids → populator → /middleware/names/auctions/…)', function () {
  this.timeout(120_000);
  let t: TestNode;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let populator: Populator;
  let server: Awaited<ReturnType<typeof startServer>>;
  const name = 'auctioned10.chain';
  const nameHash = produceNameId(name);
  const minimum = BigInt(getMinimumNameFee(name).toString());
  const over = (fee: bigint): bigint => (fee * 105n + 99n) / 100n;

  const mw = async (path: string): Promise<Body> => {
    const res = await fetch(server.httpUrl + path);
    const text = await res.text();
    expect(res.status, `${path}: ${text}`).to.equal(200);
    return parseJson(text);
  };
  /**
   * caughtUp waits until the middleware's top is the node's and, when given, a posted transaction is
   * stored (listed for its sender: the populator may store a top key block before the micro blocks
   * of the generation below it).
   */
  const caughtUp = async (tx?: { hash: string; sender: string }): Promise<void> => {
    for (let i = 0; i < 600; i++) {
      const res = await fetch(`${server.httpUrl}/v2/key-blocks/current/height`);
      const top = res.ok && ((await res.json()) as { height: number }).height === t.node.height();
      const listed =
        tx === undefined ||
        ((await mw(`/middleware/transactions/account/${tx.sender}?limit=5`)) as Body[]).some((e) => e.hash === tx.hash);
      if (top && listed) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('populator did not catch up');
  };
  /** devnodeEntry is the devnode's running auction as the original's NameAuctionEntry. */
  const devnodeEntry = (): Body => {
    const a = t.node.chain.state.auctions.get(nameHash)!;
    return { name, expiration: a.ends, winning_bid: a.bid, winning_bidder: a.bidder };
  };
  const claim = async (who: MemoryAccount, fee: bigint): Promise<string> => {
    const posted = await t.submit(
      'names/claim',
      { account_id: who.address, name, name_salt: 0, name_fee: fee, fee: 1 },
      who,
    );
    expect(posted.status, posted.text).to.equal(200);
    return posted.body.tx_hash as string;
  };

  before(async () => {
    t = await startTestNode();
    db = await createTestDatabase({ migrated: 'mdw' });
    const cfg = loadConfig({
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw',
      NODE_URL: t.node.externalUrl,
      PORT: '0',
      WEBSOCKET_ADDRESS: '127.0.0.1:0',
      POLL_INTERVAL_MS: '100',
    });
    populator = await startPopulator({ cfg, log: silentLog, registry: new prom.Registry() });
    server = await startServer({ cfg, log: silentLog, registry: new prom.Registry(), version: 't' });
  });
  after(async () => {
    await server?.stop();
    await populator?.stop();
    await t?.node.stop();
    await db?.drop();
  });

  it('lists the running auction with its last bid, the bids newest first, each bidder’s bids, and the end pushed by a late bid', async () => {
    const [alice, bob, carol] = t.accounts as [MemoryAccount, MemoryAccount, MemoryAccount];
    await t.node.mineKeyBlock();
    const opened = await claim(alice, minimum);
    await t.node.mineKeyBlock();
    const bobBid = over(minimum);
    const bobTx = await claim(bob, bobBid);
    await t.node.mineKeyBlock();
    const carolBid = over(bobBid);
    const carolTx = await claim(carol, carolBid);
    await t.node.mineKeyBlock();
    await caughtUp({ hash: carolTx, sender: carol.address });

    const entry = devnodeEntry();
    expect(entry.winning_bidder).to.equal(carol.address);
    const wire = { ...entry, winning_bid: String(entry.winning_bid) };
    expect(await mw('/middleware/names/auctions/active')).to.deep.equal([wire]);
    expect(await mw('/middleware/names/auctions/active/count?length=17')).to.deep.equal({ count: 1, result: 'OK' });
    expect(await mw('/middleware/names/auctions/active/count?length=9')).to.deep.equal({ count: 0, result: 'OK' });
    const bids: Body[] = await mw(`/middleware/names/auctions/bids/${name}`);
    expect(bids.map((b) => b.hash)).to.deep.equal([carolTx, bobTx, opened]);
    expect(bids.map((b) => b.tx.name_fee)).to.deep.equal([carolBid, bobBid, minimum]);
    expect(bids.every((b) => b.tx_type === 'NameClaimTx' && typeof b.signatures === 'string')).to.equal(true);
    const ofBob: Body[] = await mw(`/middleware/names/auctions/bids/account/${bob.address}`);
    expect(ofBob.map((b) => [b.transaction.hash, b.name_auction_entry])).to.deep.equal([[bobTx, wire]]);

    // a bid close to the end pushes it (Ceres: to the bid's height + 240)
    while (t.node.height() < entry.expiration - 5) await t.node.mineKeyBlock();
    const lateBid = over(carolBid);
    const lateTx = await claim(bob, lateBid);
    await t.node.mineKeyBlock();
    await caughtUp({ hash: lateTx, sender: bob.address });
    const pushed = devnodeEntry();
    expect(pushed.expiration).to.be.above(entry.expiration);
    const pushedWire = { ...pushed, winning_bid: String(pushed.winning_bid) };
    const info = await mw(`/middleware/names/auctions/${name}/info`);
    expect(info.info).to.deep.equal(pushedWire);
    expect(info.bids.map((b: Body) => b.hash)).to.deep.equal([lateTx, carolTx, bobTx, opened]);
    expect(info.bids).to.deep.equal(await mw(`/middleware/names/auctions/bids/${name}`));
    const ofBobNow: Body[] = await mw(`/middleware/names/auctions/bids/account/${bob.address}`);
    expect(ofBobNow.map((b) => [b.transaction.hash, b.name_auction_entry])).to.deep.equal([
      [lateTx, pushedWire],
      [bobTx, pushedWire],
    ]);

    // through the generation of its end the auction runs; after it the name is the last bidder's
    while (t.node.height() < pushed.expiration) await t.node.mineKeyBlock();
    await caughtUp();
    expect(await mw('/middleware/names/auctions/active')).to.deep.equal([pushedWire]);
    expect((await t.get(`/v2/names/${name}`)).status).to.equal(404);
    await t.node.mineKeyBlock();
    await caughtUp();
    expect((await t.get(`/v2/names/${name}`)).body.owner).to.equal(bob.address);
    expect(await mw('/middleware/names/auctions/active')).to.deep.equal([]);
    expect((await mw(`/middleware/names/auctions/${name}/info`)).info).to.deep.equal(pushedWire);
    expect((await mw(`/middleware/names/hash/${nameHash}`)).name).to.include({ owner: bob.address, name });
  });
});
