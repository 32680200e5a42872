/** @module The original middleware's endpoints that were missing: count, new generations, name by hash, contract creation, auctions. */
import { expect } from 'chai';
import { parseJson, stringifyJson, type Json } from '../../../src/chain/json.ts';
import { nameId } from '../../../src/chain/derived-ids.ts';
import { ALICE, BOB, CAROL, CONTRACT, DAVE, id, NAME, NAME_HASH } from './fixture.ts';
import { addAuctions, AUCTION_BIDS, auctionTx, ENDED, LONGER, ZZ } from './auction-fixture.ts';
import { startApi, type ApiUnderTest } from './harness.ts';

type TxObject = { [key: string]: Json };

describe('the original endpoints that answered 404', function () {
  this.timeout(60_000);
  let api: ApiUnderTest;
  before(async () => {
    api = await startApi({ env: { FORK_WINDOW: '10' } });
  });
  after(async () => {
    await api.close();
  });

  /** rawTx is the original's RawTx of a fixture transaction. */
  const rawTx = (t: { height: number; hash: string; tx: TxObject; signatures: string[] | null }): Json => ({
    block_height: t.height,
    block_hash: api.fixture.microHash(t.height),
    hash: t.hash,
    signatures: t.signatures === null ? null : t.signatures.join(' '),
    tx_type: t.tx.type!,
    tx: t.tx,
    fee: String(t.tx.fee),
    size: stringifyJson(t.tx).length,
  });

  describe('count/current', () => {
    it('counts every stored transaction up to the top, and follows a rollback', async () => {
      await api.request.get('/middleware/count/current').expect(200, { count: api.fixture.txs.length });
      const { rows } = await api.pool.query<{ n: string }>('SELECT count(*) AS n FROM transactions WHERE height < 50');
      await api.pool.query('DELETE FROM key_blocks WHERE height >= 50');
      await api.request.get('/middleware/count/current').expect(200, { count: Number(rows[0]!.n) });
    });
  });

  describe('new/generations/<from>/<to>', () => {
    it('lists key blocks oldest first with their micro blocks and RawTx transactions in chain order', async () => {
      const res = await api.request.get('/middleware/new/generations/3/5').expect(200);
      const body = parseJson(res.text) as { key_block: TxObject; micro_blocks: Json[] }[];
      expect(body.map((g) => g.key_block.height)).to.deep.equal([3, 4, 5]);
      for (const g of body) {
        const h = Number(g.key_block.height);
        const kb = api.fixture.keyBlocks.get(h)!;
        expect(g.key_block).to.deep.equal({ ...kb, nonce: String(kb.nonce) });
        const { height: _, ...header } = api.fixture.microBlocks.get(h)!;
        const txs = api.fixture.txs.filter((t) => t.height === h).sort((a, b) => a.index - b.index);
        expect(g.micro_blocks).to.deep.equal([{ micro_block: header, transactions: txs.map(rawTx) }]);
      }
    });
    it('gives a generation without micro blocks an empty list, pages generations, and 400s bad input', async () => {
      const empty = await api.request.get('/middleware/new/generations/20/20').expect(200);
      expect(empty.body[0].micro_blocks).to.deep.equal([]);
      const page = await api.request.get('/middleware/new/generations/1/10?limit=3&page=2').expect(200);
      expect(page.body.map((g: { key_block: { height: number } }) => g.key_block.height)).to.deep.equal([4, 5, 6]);
      await api.request.get('/middleware/new/generations/5/3').expect(200, []);
      await api.request.get('/middleware/new/generations/x/3').expect(400);
      await api.request.get('/middleware/new/generations/1/3?limit=101').expect(400);
    });
  });

  describe('names/hash/<nm_>', () => {
    it('answers {"name": Name} for a known hash, 404 for an unknown one, 400 for a malformed one', async () => {
      const res = await api.request.get(`/middleware/names/hash/${NAME_HASH}`).expect(200);
      expect(res.body).to.deep.equal({
        name: {
          name: NAME,
          name_hash: NAME_HASH,
          tx_hash: id('th', 'claim'),
          created_at_height: 6,
          auction_end_height: 6,
          owner: ALICE,
          expires_at: 7 + 50000,
          pointers: [{ encoded_key: 'ba_YWNjb3VudF9wdWJrZXn8jckR', id: BOB, key: 'account_pubkey' }],
        },
      });
      const unknown = await api.request.get(`/middleware/names/hash/${nameId('nobody.chain')}`).expect(404);
      expect(unknown.body.reason).to.be.a('string');
      await api.request.get('/middleware/names/hash/nm_x').expect(400);
      await api.request.get(`/middleware/names/hash/${ALICE}`).expect(400);
    });
  });

  describe('contracts/transactions/creation/address/<ct>', () => {
    it('answers the create transaction as RawTx, 404 for an unknown contract, 400 for a malformed id', async () => {
      const res = await api.request.get(`/middleware/contracts/transactions/creation/address/${CONTRACT}`).expect(200);
      expect(parseJson(res.text)).to.deep.equal(rawTx(api.fixture.tx('create')));
      await api.request.get(`/middleware/contracts/transactions/creation/address/${id('ct', 'none')}`).expect(404);
      await api.request.get('/middleware/contracts/transactions/creation/address/ct_x').expect(400);
    });
  });

  describe('names/auctions', () => {
    before(async () => {
      await addAuctions(api.pool);
    });
    const raw = (i: number): Json => rawTx(auctionTx(AUCTION_BIDS[i]!));
    const zz = { name: ZZ, expiration: 29796, winning_bid: '3000000000000000000007', winning_bidder: CAROL };
    const longer = { name: LONGER, expiration: 14911, winning_bid: '500000000000000000000', winning_bidder: BOB };
    const ended = { name: ENDED, expiration: 32, winning_bid: '2000000000000000000000', winning_bidder: DAVE };

    it('lists running auctions by end (default), name or highest bid, reversed, by byte length, paged', async () => {
      const get = async (q: string): Promise<unknown> =>
        (await api.request.get(`/middleware/names/auctions/active${q}`).expect(200)).body;
      expect(await get('')).to.deep.equal([longer, zz]);
      expect(await get('?reverse')).to.deep.equal([zz, longer]);
      expect(await get('?sort=name')).to.deep.equal([longer, zz]);
      expect(await get('?sort=name&reverse=true')).to.deep.equal([zz, longer]);
      expect(await get('?sort=max_bid')).to.deep.equal([zz, longer]);
      expect(await get('?sort=max_bid&reverse=1')).to.deep.equal([longer, zz]);
      expect(await get('?length=8')).to.deep.equal([zz]);
      expect(await get('?length=14')).to.deep.equal([longer]);
      expect(await get('?limit=1&page=2')).to.deep.equal([zz]);
      await api.request.get('/middleware/names/auctions/active?sort=height').expect(400);
      await api.request.get('/middleware/names/auctions/active?length=x').expect(400);
    });
    it('counts an auction as running through the generation of its end, not after', async () => {
      const { rows } = await api.pool.query<{ h: number }>('SELECT max(height) AS h FROM key_blocks');
      const top = rows[0]!.h;
      const endAt = (end: number) =>
        api.pool.query('UPDATE name_events SET auction_end = $1 WHERE name = $2 AND height = 12', [end, ENDED]);
      try {
        await endAt(top);
        const running = await api.request.get('/middleware/names/auctions/active?sort=name').expect(200);
        expect(running.body.map((e: { name: string }) => e.name)).to.deep.equal([LONGER, ENDED, ZZ]);
        await endAt(top - 1);
        const over = await api.request.get('/middleware/names/auctions/active?sort=name').expect(200);
        expect(over.body.map((e: { name: string }) => e.name)).to.deep.equal([LONGER, ZZ]);
      } finally {
        await endAt(32);
      }
    });
    it('counts running auctions with the same filter, paging ignored', async () => {
      await api.request.get('/middleware/names/auctions/active/count').expect(200, { count: 2, result: 'OK' });
      await api.request
        .get('/middleware/names/auctions/active/count?length=8&limit=1&page=9')
        .expect(200, { count: 1, result: 'OK' });
    });
    it("lists a name's bids in its latest auction, newest first, as RawTx (any case of the name)", async () => {
      const res = await api.request.get('/middleware/names/auctions/bids/ZZ.chain').expect(200);
      expect(parseJson(res.text)).to.deep.equal([raw(4), raw(3), raw(2)]);
      const page = await api.request.get(`/middleware/names/auctions/bids/${ZZ}?limit=1&page=2`).expect(200);
      expect(parseJson(page.text)).to.deep.equal([raw(3)]);
      await api.request.get(`/middleware/names/auctions/bids/${NAME}`).expect(200, []);
      await api.request.get('/middleware/names/auctions/bids/never.chain').expect(200, []);
    });
    it("lists an account's bids newest first, each with its auction's entry, ended auctions included", async () => {
      const alice = await api.request.get(`/middleware/names/auctions/bids/account/${ALICE}`).expect(200);
      expect(parseJson(alice.text)).to.deep.equal([
        { name_auction_entry: zz, transaction: raw(2) },
        { name_auction_entry: ended, transaction: raw(0) },
      ]);
      const dave = await api.request.get(`/middleware/names/auctions/bids/account/${DAVE}?limit=5`).expect(200);
      expect(parseJson(dave.text)).to.deep.equal([{ name_auction_entry: ended, transaction: raw(1) }]);
      await api.request.get('/middleware/names/auctions/bids/account/ak_x').expect(400);
    });
    it('gives one auction as {bids, info}, 404 for a name never auctioned', async () => {
      const res = await api.request.get(`/middleware/names/auctions/${ZZ}/info`).expect(200);
      expect(parseJson(res.text)).to.deep.equal({ bids: [raw(4), raw(3), raw(2)], info: zz });
      const over = await api.request.get(`/middleware/names/auctions/${ENDED}/info`).expect(200);
      expect(parseJson(over.text)).to.deep.equal({ bids: [raw(1), raw(0)], info: ended });
      await api.request.get(`/middleware/names/auctions/${NAME}/info`).expect(404);
      await api.request.get('/middleware/names/auctions/never.chain/info').expect(404);
    });
    it('keeps SQL wildcards literal and refuses NUL', async () => {
      await api.request.get('/middleware/names/auctions/bids/%25').expect(200, []);
      await api.request.get('/middleware/names/auctions/z_.chain/info').expect(404);
      await api.request.get('/middleware/names/auctions/%00/info').expect(400);
    });
  });
});
