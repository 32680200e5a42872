import { expect } from 'chai';
import { parseJson } from '../../../src/chain/json.ts';
import { ALICE, BIG, BOB, CAROL, CHANNEL_CLOSED, CONTRACT, DAVE, id, ORACLE, TOP } from './fixture.ts';
import { startApi, type ApiUnderTest } from './harness.ts';
import { txTypeCode } from '../../../src/chain/id-key.ts';

type AccountTx = {
  time: number;
  block_height: number;
  block_hash: string;
  hash: string;
  signatures: string[] | null;
  tx: { type: string };
};

describe('middleware transaction queries', () => {
  let api: ApiUnderTest;
  before(async () => {
    api = await startApi();
  });
  after(async () => {
    await api.close();
  });

  describe('transactions/account/<account>', () => {
    it('lists every transaction referencing the account, newest first, in the original shape', async () => {
      const res = await api.request.get(`/middleware/transactions/account/${BOB}`).expect(200);
      const list = parseJson(res.text) as AccountTx[];
      expect(list.map((t) => t.hash)).to.deep.equal(
        ['paying-for', 'channel-2', 'channel-1', 'update', 'query-2', 'query-1', 'call', 'spend-2', 'spend-1'].map(
          (l) => id('th', l),
        ),
      );
      const oldest = list.at(-1)!;
      expect(oldest).to.have.all.keys('time', 'block_height', 'block_hash', 'hash', 'signatures', 'tx');
      expect(oldest.time).to.equal(api.fixture.timeOf(1) + 3000);
      expect(res.text).to.match(new RegExp(`"amount": ?${BIG.amount}[,}]`));
    });

    it('covers ids in inner transactions and created ids (contract, oracle, channel)', async () => {
      const dave = parseJson(
        (await api.request.get(`/middleware/transactions/account/${DAVE}`).expect(200)).text,
      ) as AccountTx[];
      expect(dave.map((t) => t.hash)).to.deep.equal([id('th', 'ga-meta'), id('th', 'paying-for')]);
      expect(dave[0]!.signatures).to.equal(null);
      const contract = (await api.request.get(`/middleware/transactions/account/${CONTRACT}`).expect(200))
        .body as AccountTx[];
      expect(contract.map((t) => t.hash)).to.deep.equal([id('th', 'call'), id('th', 'create')]);
      const oracle = (await api.request.get(`/middleware/transactions/account/${ORACLE}`).expect(200))
        .body as AccountTx[];
      expect(oracle.map((t) => t.tx.type)).to.include('OracleRegisterTx');
      const channel = (await api.request.get(`/middleware/transactions/account/${CHANNEL_CLOSED}`).expect(200))
        .body as AccountTx[];
      expect(channel.map((t) => t.hash)).to.deep.equal([id('th', 'channel-close'), id('th', 'channel-1')]);
    });

    it('pages with limit and page (from 1) without overlap or gaps', async () => {
      const all = (await api.request.get(`/middleware/transactions/account/${CAROL}?limit=1000`).expect(200))
        .body as AccountTx[];
      expect(all).to.have.length(TOP - 10 - 1 + 1);
      const pages: AccountTx[] = [];
      for (let page = 1; page <= 6; page++) {
        pages.push(
          ...((await api.request.get(`/middleware/transactions/account/${CAROL}?limit=10&page=${page}`).expect(200))
            .body as AccountTx[]),
        );
      }
      expect(pages.map((t) => t.hash)).to.deep.equal(all.map((t) => t.hash));
      const beyond = await api.request.get(`/middleware/transactions/account/${CAROL}?limit=10&page=99`).expect(200);
      expect(beyond.body).to.deep.equal([]);
    });

    it('continues by keyset cursor (X-Next-Cursor, Link) through the same rows as pages, with a type filter too', async () => {
      const all = (await api.request.get(`/middleware/transactions/account/${CAROL}?limit=1000`).expect(200))
        .body as AccountTx[];
      const seen: string[] = [];
      let next: string | undefined = `/middleware/transactions/account/${CAROL}?limit=7&txtype=SpendTx`;
      while (next) {
        const res = await api.request.get(next).expect(200);
        seen.push(...(res.body as AccountTx[]).map((t) => t.hash));
        const link = res.headers.link as string | undefined;
        next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
        if (next) expect(next).to.contain(`cursor=${res.headers['x-next-cursor']}`).and.contain('txtype=SpendTx');
      }
      expect(seen).to.deep.equal(all.filter((t) => t.tx.type === 'SpendTx').map((t) => t.hash));
      await api.request.get(`/middleware/transactions/account/${CAROL}?cursor=1-2`).expect(400);
      await api.request.get(`/middleware/transactions/account/${CAROL}?cursor=1-0-0&page=2`).expect(400);
    });

    it('filters by tx type (txtype, or tx_type, any case)', async () => {
      const spends = (await api.request.get(`/middleware/transactions/account/${BOB}?txtype=SpendTx`).expect(200))
        .body as AccountTx[];
      expect(spends.map((t) => t.hash)).to.deep.equal([id('th', 'spend-2'), id('th', 'spend-1')]);
      const channels = (
        await api.request.get(`/middleware/transactions/account/${BOB}?tx_type=channelcreatetx`).expect(200)
      ).body as AccountTx[];
      expect(channels).to.have.length(2);
      await api.request.get(`/middleware/transactions/account/${BOB}?txtype=NoSuchTx`).expect(400);
    });

    it('counts, with the same filter', async () => {
      await api.request.get(`/middleware/transactions/account/${BOB}/count`).expect(200, { count: 9 });
      await api.request.get(`/middleware/transactions/account/${BOB}/count?txtype=SpendTx`).expect(200, { count: 2 });
      await api.request.get(`/middleware/transactions/account/${id('ak', 'nobody')}/count`).expect(200, { count: 0 });
    });

    it('rejects ids with a bad checksum or prefix, and bad paging, with 400', async () => {
      const bad = ALICE.slice(0, -1) + (ALICE.endsWith('a') ? 'b' : 'a');
      for (const path of [
        `/middleware/transactions/account/${bad}`,
        `/middleware/transactions/account/kh_${ALICE.slice(3)}`,
        '/middleware/transactions/account/xyz/count',
        `/middleware/transactions/account/${ALICE}?limit=-1`,
        `/middleware/transactions/account/${ALICE}?limit=1001`,
        `/middleware/transactions/account/${ALICE}?page=abc`,
        `/middleware/transactions/account/${ALICE}?limit=1&limit=2`,
      ]) {
        const res = await api.request.get(path).expect(400);
        expect(res.body.reason, path).to.be.a('string');
        expect(res.body.code).to.equal('MDW_API_BAD_REQUEST');
      }
    });
  });

  describe('transactions/account/<sender>/to/<receiver>', () => {
    it('lists transactions with that sender and recipient, newest first, inner ones included', async () => {
      const res = await api.request.get(`/middleware/transactions/account/${ALICE}/to/${BOB}`).expect(200);
      expect(res.body.transactions.map((t: { hash: string }) => t.hash)).to.deep.equal([id('th', 'spend-1')]);
      const inner = await api.request.get(`/middleware/transactions/account/${DAVE}/to/${BOB}`).expect(200);
      expect(inner.body.transactions.map((t: { hash: string }) => t.hash)).to.deep.equal([id('th', 'paying-for')]);
      await api.request.get(`/middleware/transactions/account/${BOB}/to/${CAROL}`).expect(200, { transactions: [] });
    });
  });

  describe('transactions/interval/<from>/<to>', () => {
    it('lists heights from..to inclusive, newest first, page 1 being the first rows (not OFFSET = page)', async () => {
      const res = await api.request.get('/middleware/transactions/interval/1/3?limit=1').expect(200);
      expect(res.body.transactions.map((t: { hash: string }) => t.hash)).to.deep.equal([id('th', 'call')]);
      const all = await api.request.get('/middleware/transactions/interval/1/3').expect(200);
      expect(all.body.transactions.map((t: { hash: string }) => t.hash)).to.deep.equal(
        ['call', 'create', 'spend-2', 'spend-1'].map((l) => id('th', l)),
      );
      const typed = await api.request
        .get('/middleware/transactions/interval/1/3?txtype=SpendTx&limit=1&page=2')
        .expect(200);
      expect(typed.body.transactions.map((t: { hash: string }) => t.hash)).to.deep.equal([id('th', 'spend-1')]);
    });
    it('rejects from > to with 400', async () => {
      await api.request.get('/middleware/transactions/interval/3/1').expect(400);
    });
  });

  describe('transactions/rate/<from>/<to>', () => {
    it('counts SpendTx and sums amounts exactly per UTC day, bounds exclusive', async () => {
      const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
      const from = day(api.fixture.timeOf(0) - 86_400_000);
      const to = day(api.fixture.timeOf(TOP) + 86_400_000);
      const rows = parseJson(
        (await api.request.get(`/middleware/transactions/rate/${from}/${to}`).expect(200)).text,
      ) as { count: number; amount: string; date: string }[];
      const { rows: expected } = await api.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM transactions WHERE tx_type = ${txTypeCode('SpendTx')}`,
      );
      expect(rows.reduce((n, r) => n + r.count, 0)).to.equal(Number(expected[0]!.n));
      expect(rows.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r.date) && typeof r.amount === 'string')).to.equal(true);
      expect(rows.some((r) => BigInt(r.amount) > BIG.amount)).to.equal(true);
      const inside = await api.request
        .get(`/middleware/transactions/rate/${from}/${day(api.fixture.timeOf(0))}`)
        .expect(200);
      expect(inside.body).to.deep.equal([]);
    });
    it('rejects malformed dates and ranges with 400', async () => {
      for (const path of ['20190132/20190201', '2019-01-01/20190105', '20190105/20190101', '20000101/20190101']) {
        await api.request.get(`/middleware/transactions/rate/${path}`).expect(400);
      }
    });
  });
});
