import { expect } from 'chai';
import { parseJson } from '../../../src/chain/json.ts';
import { BIG, EMPTY_HEIGHT, TOP } from './fixture.ts';
import { startApi, type ApiUnderTest } from './harness.ts';

describe('middleware chain queries', () => {
  let api: ApiUnderTest;
  before(async () => {
    api = await startApi();
  });
  after(async () => {
    await api.close();
  });

  describe('generations/<from>/<to>', () => {
    it('returns the inclusive range keyed by height, micro blocks by hash, transactions by hash, nonce as an exact string', async () => {
      const res = await api.request.get('/middleware/generations/3/5').expect(200);
      const report = parseJson(res.text) as {
        total_transactions: number;
        total_micro_blocks: number;
        data: Record<string, Record<string, unknown>>;
      };
      expect(Object.keys(report.data)).to.deep.equal(['3', '4', '5']);
      expect(report.total_micro_blocks).to.equal(3);
      expect(report.total_transactions).to.equal(5);
      const g4 = report.data['4']!;
      expect(g4.nonce).to.equal(String(BIG.nonce + 4n));
      expect(g4.hash).to.equal(api.fixture.keyHash(4));
      const micro = g4.micro_blocks as Record<
        string,
        { transactions: Record<string, { block_height: number }>; height?: number }
      >;
      const mb = micro[api.fixture.microHash(4)]!;
      expect(mb).to.not.have.property('height');
      expect(Object.keys(mb.transactions)).to.have.length(3);
      expect(Object.values(mb.transactions)[0]!.block_height).to.equal(4);
    });

    it('gives an empty generation {} micro blocks and an inverted range empty data', async () => {
      const res = await api.request.get(`/middleware/generations/${EMPTY_HEIGHT}/${EMPTY_HEIGHT}`).expect(200);
      expect(res.body.data[String(EMPTY_HEIGHT)].micro_blocks).to.deep.equal({});
      await api.request
        .get('/middleware/generations/5/3')
        .expect(200, { total_transactions: 0, total_micro_blocks: 0, data: {} });
    });

    it('pages whole generations (newest first), never cutting one in half', async () => {
      const p1 = await api.request.get('/middleware/generations/1/10?limit=3').expect(200);
      expect(Object.keys(p1.body.data)).to.deep.equal(['8', '9', '10']);
      const p2 = await api.request.get('/middleware/generations/1/10?limit=3&page=2').expect(200);
      expect(Object.keys(p2.body.data)).to.deep.equal(['5', '6', '7']);
      expect(p2.body.total_transactions).to.equal(3);
    });

    it('rejects non-integer bounds and bad paging with 400', async () => {
      for (const path of [
        '/middleware/generations/a/3',
        '/middleware/generations/1/3?limit=0',
        '/middleware/generations/1/3?limit=101',
        '/middleware/generations/1/3?page=0',
        '/middleware/generations/-1/3',
      ]) {
        const res = await api.request.get(path).expect(400);
        expect(res.body.reason).to.be.a('string').and.not.equal('');
      }
    });
  });

  describe('height/at/<millis>', () => {
    it('gives the first key block at or after the instant', async () => {
      await api.request.get(`/middleware/height/at/${api.fixture.timeOf(12)}`).expect(200, { height: 12 });
      await api.request.get(`/middleware/height/at/${api.fixture.timeOf(12) + 1}`).expect(200, { height: 13 });
      await api.request.get('/middleware/height/at/0').expect(200, { height: 0 });
    });
    it('answers 404 after the newest block and 400 for a non-number', async () => {
      await api.request.get('/middleware/height/at/99999999999999').expect(404);
      await api.request.get('/middleware/height/at/yesterday').expect(400);
    });
  });

  describe('size', () => {
    it('sums transaction sizes up to a height and up to the top', async () => {
      const { rows } = await api.pool.query<{ s: string }>('SELECT sum(size) AS s FROM transactions WHERE height <= 4');
      await api.request.get('/middleware/size/height/4').expect(200, { size: Number(rows[0]!.s) });
      await api.request.get('/middleware/size/height/0').expect(200, { size: 0 });
      const all = await api.pool.query<{ s: string }>('SELECT sum(size) AS s FROM transactions');
      await api.request.get('/middleware/size/current').expect(200, { size: Number(all.rows[0]!.s) });
    });
    it('answers 404 above the top and 400 for a bad height', async () => {
      await api.request.get(`/middleware/size/height/${TOP + 1}`).expect(404);
      await api.request.get('/middleware/size/height/1.5').expect(400);
    });
  });

  describe('reward/height/<h>', () => {
    it('gives the beneficiary and the exact fee share (60 % of the previous generation, 40 % of its own)', async () => {
      const res = await api.request.get('/middleware/reward/height/2').expect(200);
      // F(1) = BIG.fee; F(2) = 20000 + 90000
      const tenths = 6n * BIG.fee + 4n * 110000n;
      const expected = tenths % 10n === 0n ? String(tenths / 10n) : `${tenths / 10n}.${tenths % 10n}`;
      expect(res.body).to.include({
        height: 2,
        beneficiary: api.fixture.keyBlocks.get(2)!.beneficiary,
        fees: expected,
      });
      // 1 AE at height 2 (heights 1-3 in the node's coinbase table); total = coinbase + fees to the last digit
      expect(res.body.coinbase).to.equal('1000000000000000000');
      const [int, frac] = expected.split('.');
      expect(res.body.total).to.equal(`${10n ** 18n + BigInt(int!)}${frac === undefined ? '' : `.${frac}`}`);
    });
    it('answers 404 for a height not stored', async () => {
      await api.request.get(`/middleware/reward/height/${TOP + 1}`).expect(404);
    });
  });
});

describe('middleware status', () => {
  // a reading of the node's height may take up to 2 s on a loaded machine before it counts as unreachable
  const SLOW_OK = { NODE_TIMEOUT_MS: '5000' };
  /** nodeAt makes the fake node say it is at `height` (null: answer 500 like a node in trouble). */
  const nodeAt = (api: ApiUnderTest, height: number | null): void => {
    api.node.respond = (req) =>
      req.url === '/v2/key-blocks/current/height' && height !== null
        ? { status: 200, body: JSON.stringify({ height }) }
        : { status: 500, body: '{"reason":"down"}' };
  };

  it('is 200 with heights, lag and synced while blocks are fresh, the populator beats and the node answers', async () => {
    const api = await startApi({ env: SLOW_OK, fixture: { newestBlockAgeMs: 10_000 } });
    try {
      nodeAt(api, TOP + 1);
      const res = await api.request.get('/middleware/status').expect(200);
      expect(res.body).to.include({
        OK: true,
        height: TOP,
        node_height: TOP + 1,
        lag: 1,
        synced: true,
        contiguous: true,
        queue_length: 1,
        version: '9.9.9-test',
      });
      expect(res.body.seconds_since_last_block).to.be.within(9, 12);
      expect(res.body.populator).to.include({ status: 'following', alive: true });
      expect(res.body.errors_last_500_blocks).to.equal(0);
      await api.pool.query("UPDATE contract_calls SET decode_error = 'bad calldata'");
      expect((await api.request.get('/middleware/status').expect(200)).body.errors_last_500_blocks).to.equal(2);
    } finally {
      await api.close();
    }
  });

  it("judges the lag against the node's height now, not the populator's last write, reading it once per moment", async () => {
    const api = await startApi({ env: SLOW_OK, fixture: { newestBlockAgeMs: 1000 } });
    try {
      nodeAt(api, TOP + 50);
      api.node.seen.length = 0;
      const res = await api.request.get('/middleware/status').expect(200);
      expect(res.body).to.include({ height: TOP, node_height: TOP + 50, lag: 50, synced: false, queue_length: 50 });
      await Promise.all(Array.from({ length: 5 }, () => api.request.get('/middleware/status').expect(200)));
      expect(api.node.seen.length).to.equal(1);
    } finally {
      await api.close();
    }
  });

  it('is 503 and not synced while the node cannot be reached, with node_height null', async () => {
    const api = await startApi({ env: SLOW_OK, fixture: { newestBlockAgeMs: 1000 } });
    try {
      nodeAt(api, null);
      const res = await api.request.get('/middleware/status').expect(503);
      expect(res.body).to.include({
        OK: false,
        reason: 'the node cannot be reached',
        node_height: null,
        lag: null,
        synced: false,
      });
      expect(res.body.populator).to.include({ alive: true });
    } finally {
      await api.close();
    }
  });

  it('is 503 and not synced at once when the populator stopped cleanly, heartbeat fresh or not', async () => {
    const api = await startApi({ env: SLOW_OK, fixture: { newestBlockAgeMs: 1000 } });
    try {
      nodeAt(api, TOP);
      await api.pool.query("UPDATE sync_state SET status = 'stopped', heartbeat_at = now()");
      const res = await api.request.get('/middleware/status').expect(503);
      expect(res.body).to.include({ OK: false, reason: 'the populator has stopped', synced: false, lag: 0 });
      expect(res.body.populator).to.include({ status: 'stopped', alive: false });
    } finally {
      await api.close();
    }
  });

  it('is not synced nor contiguous when a height below the top is missing', async () => {
    const api = await startApi({ env: SLOW_OK, fixture: { newestBlockAgeMs: 1000 } });
    try {
      nodeAt(api, TOP);
      await api.pool.query('DELETE FROM key_blocks WHERE height = $1', [TOP - 5]);
      const res = await api.request.get('/middleware/status').expect(200);
      expect(res.body).to.include({ height: TOP, lag: 0, contiguous: false, synced: false });
    } finally {
      await api.close();
    }
  });

  it('is 503 when the newest block is older than STATUS_MAX_BLOCK_AGE', async () => {
    const api = await startApi({ env: { STATUS_MAX_BLOCK_AGE: '60' }, fixture: { newestBlockAgeMs: 120_000 } });
    try {
      nodeAt(api, TOP);
      const res = await api.request.get('/middleware/status').expect(503);
      expect(res.body).to.include({ OK: false, height: TOP });
    } finally {
      await api.close();
    }
  });

  it('is 503 when the populator heartbeat is stale (populator stuck)', async () => {
    const api = await startApi({ fixture: { newestBlockAgeMs: 1000, heartbeatAgeMs: 3_600_000 } });
    try {
      nodeAt(api, TOP);
      const res = await api.request.get('/middleware/status').expect(503);
      expect(res.body).to.include({ synced: false });
      expect(res.body.populator).to.include({ alive: false });
    } finally {
      await api.close();
    }
  });

  it('is 503 on an empty database, with null heights, never a crash', async () => {
    const api = await startApi({ empty: true });
    try {
      const res = await api.request.get('/middleware/status').expect(503);
      expect(res.body).to.include({ OK: false, height: null, synced: false, contiguous: false });
      await api.request.get('/middleware/size/current').expect(404);
    } finally {
      await api.close();
    }
  });
});
