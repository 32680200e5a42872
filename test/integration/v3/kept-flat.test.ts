/**
 * @module What issue 57's kept data answers (migrations 1045–1047, 1060, 1061, 1063 and 1069), against the devnode's chain:
 * the active names' count (of all and of each owner), the chain's size up to every height, a page of one id in two
 * fields, the spends per day, the stored key blocks' count (the status's `contiguous`) and the oracles' expiries (their
 * list), after a sync, a fork and a -H reload.
 */
import { expect } from 'chai';
import type { Json } from '../../../src/chain/json.ts';
import { countActiveNames } from '../../../src/db/queries/names.ts';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { isoDate, utcDay } from '../../../src/chain/stats-intervals.ts';
import { silentLog } from '../api/harness.ts';
import { startV3, type ChainTruth, type V3UnderTest } from './harness.ts';
import { oracleId } from '../../../src/chain/derived-ids.ts';

type Obj = { [key: string]: Json };

/** the transaction a signed one carries, unwrapped from PayingForTx and GAMetaTx */
const innermost = (tx: Obj): Obj => {
  const inner = (tx.tx as Obj | undefined)?.tx as Obj | undefined;
  return inner === undefined ? tx : innermost(inner);
};

describe('kept counts and sizes (issue 57) against the devnode chain, through a fork and a reload', function () {
  this.timeout(300_000);
  let v3: V3UnderTest;

  before(async () => {
    v3 = await startV3(60, 'v3-names', () => ({}), { populatedOnce: true });
  });
  after(async () => {
    await v3?.close();
  });

  /** the node's active names: every name the chain claimed, asked of the node's API (found while active) */
  async function nodeActiveNames(chain: ChainTruth): Promise<Map<string, string>> {
    const names = new Set(
      chain.transactions
        .map((t) => innermost(t.signed.tx as Obj))
        .filter((tx) => tx.type === 'NameClaimTx')
        .map((tx) => String(tx.name)),
    );
    const owners = new Map<string, string>();
    for (const name of names) {
      const res = await fetch(`${v3.devnode.externalUrl}/v3/names/${name}`);
      if (res.status === 200) owners.set(name, String(((await res.json()) as Obj).owner));
      else expect(res.status, name).to.equal(404);
    }
    return owners;
  }

  /** the kept spans (migrations 1060, 1063) are the kept edges summed per span of 100 and 10 000 heights, their definition */
  async function expectSpansSumEdges(): Promise<void> {
    const { rows: spans } = await v3.pool.query(
      'SELECT owner, width, span, expiring, activating FROM name_count_spans ORDER BY 1, 2, 3',
    );
    const { rows: sums } = await v3.pool.query(
      `SELECT e.owner, w.width, e.height / w.width AS span, sum(e.expiring) AS expiring, sum(e.activating) AS activating
         FROM name_count_edges e CROSS JOIN (VALUES (100), (10000)) w(width)
        GROUP BY 1, 2, 3 HAVING sum(e.expiring) <> 0 OR sum(e.activating) <> 0 ORDER BY 1, 2, 3`,
    );
    expect(spans.length, 'spans').to.be.above(0);
    expect(spans).to.deep.equal(sums);
  }

  async function expectNameCounts(): Promise<void> {
    await v3.synced();
    await expectSpansSumEdges();
    const owners = await nodeActiveNames(await v3.truth());
    expect(owners.size, 'active names on the chain').to.be.above(0);
    expect((await v3.get('/mdw/v3/names/count')).body).to.equal(owners.size);
    const byOwner = new Map<string, number>();
    for (const owner of owners.values()) byOwner.set(owner, (byOwner.get(owner) ?? 0) + 1);
    for (const [owner, n] of byOwner) expect((await v3.get(`/mdw/v3/names/count?owned_by=${owner}`)).body).to.equal(n);
  }

  /** the byte size of the chain's transactions at or below each height, from the devnode's signed transactions */
  async function expectSizes(): Promise<void> {
    await v3.synced();
    const chain = await v3.truth();
    const top = chain.keyBlocks.length - 1;
    const sizes = new Array<number>(top + 1).fill(0);
    for (const t of chain.transactions) sizes[t.height]! += v3.devnode.chain.txs.get(t.hash)!.signedBytes.length;
    let below = 0;
    for (let h = 0; h <= top; h++) {
      below += sizes[h]!;
      expect((await v3.get(`/middleware/size/height/${h}`)).body, `height ${h}`).to.deep.equal({ size: below });
    }
    expect((await v3.get('/middleware/size/current')).body).to.deep.equal({ size: below });
  }

  /** a page walk and the count of sender_id=A&recipient_id=A for each account that spent to itself */
  async function expectSelfSpends(): Promise<void> {
    await v3.synced();
    const chain = await v3.truth();
    const own = new Map<string, string[]>();
    for (const t of chain.transactions) {
      const tx = innermost(t.signed.tx as Obj);
      if (tx.type === 'SpendTx' && tx.sender_id === tx.recipient_id)
        own.set(String(tx.sender_id), [t.hash, ...(own.get(String(tx.sender_id)) ?? [])]);
    }
    expect(own.size, 'accounts that spent to themselves').to.be.above(0);
    for (const [id, hashes] of own) {
      const path = `sender_id=${id}&recipient_id=${id}`;
      expect((await v3.walk(`/mdw/v3/transactions?${path}&limit=1`)).map((t) => t.hash)).to.deep.equal(hashes);
      const forward = await v3.walk(`/mdw/v3/transactions?${path}&direction=forward&limit=2`);
      expect(forward.map((t) => t.hash)).to.deep.equal([...hashes].reverse());
      expect((await v3.get(`/mdw/v3/transactions/count?${path}`)).body).to.equal(hashes.length);
      const scope = `scope=gen:0-${chain.keyBlocks.length - 1}`;
      expect((await v3.get(`/mdw/v3/transactions/count?${path}&${scope}`)).body).to.equal(hashes.length);
    }
  }

  /**
   * /middleware/transactions/rate over every day of the chain (windows of at most 400 days, bounds exclusive) equals
   * the node's spends (outer SpendTx) counted and their amounts summed per UTC day of their micro block's time
   */
  async function expectSpendRates(): Promise<void> {
    await v3.synced();
    const chain = await v3.truth();
    const expected = new Map<number, { count: number; amount: bigint }>();
    for (const t of chain.transactions) {
      const tx = t.signed.tx as Obj;
      if (tx.type !== 'SpendTx') continue;
      const day = utcDay(Number(chain.microBlocks.get(t.height)![t.microIndex]!.time));
      const total = expected.get(day) ?? { count: 0, amount: 0n };
      expected.set(day, { count: total.count + 1, amount: total.amount + BigInt(String(tx.amount)) });
    }
    expect(expected.size, 'days with spends').to.be.at.least(2);
    const ymd = (day: number): string => isoDate(day).replace(/-/g, '');
    const answered: Json[] = [];
    const days = [...expected.keys()];
    for (let from = Math.min(...days) - 1; from < Math.max(...days); from += 399) {
      const res = await v3.get(`/middleware/transactions/rate/${ymd(from)}/${ymd(from + 400)}`);
      expect(res.status, res.text).to.equal(200);
      answered.push(...(res.body as Json[]));
    }
    expect(answered).to.deep.equal(
      [...expected]
        .sort(([a], [b]) => a - b)
        .map(([day, { count, amount }]) => ({ date: isoDate(day), count, amount: amount.toString() })),
    );
  }

  /**
   * the oracles' list, walked along the kept expiries (migration 1069), holds every oracle the chain registered, in
   * expiry order, each active one with the expiry (`ttl`) the node gives it
   */
  async function expectOracles(): Promise<void> {
    await v3.synced();
    const chain = await v3.truth();
    const registered = new Set(
      chain.transactions
        .map((t) => innermost(t.signed.tx as Obj))
        .filter((tx) => tx.type === 'OracleRegisterTx')
        .map((tx) => oracleId(String(tx.account_id))),
    );
    expect(registered.size, 'oracles on the chain').to.be.above(1);
    const listed = await v3.walk('/mdw/v3/oracles?limit=2');
    expect(listed.map((o) => o.oracle).sort()).to.deep.equal([...registered].sort());
    const expiries = listed.map((o) => Number(o.expire_height));
    expect(expiries).to.deep.equal([...expiries].sort((a, b) => b - a));
    const forward = await v3.walk('/mdw/v3/oracles?limit=3&direction=forward');
    expect(forward.map((o) => o.oracle)).to.deep.equal(listed.map((o) => o.oracle).reverse());
    let active = 0;
    for (const o of listed) {
      const res = await fetch(`${v3.devnode.externalUrl}/v3/oracles/${String(o.oracle)}`);
      if (res.status === 404) continue;
      expect(((await res.json()) as Obj).ttl, String(o.oracle)).to.equal(o.expire_height);
      active++;
    }
    expect(active, 'oracles active on the node').to.be.above(0);
    // the original's list (migration 1074's walk): every registration of the chain, newest first, by limit and page
    const registrations = chain.transactions
      .filter((t) => innermost(t.signed.tx as Obj).type === 'OracleRegisterTx')
      .sort((a, b) => b.height - a.height || b.microIndex - a.microIndex || b.txIndex - a.txIndex)
      .map((t) => t.hash);
    const pages: Obj[] = [];
    for (let page = 1; ; page++) {
      const rows = (await v3.get(`/middleware/oracles/list?limit=2&page=${page}`)).body as Obj[];
      pages.push(...rows);
      if (rows.length < 2) break;
    }
    expect(pages.map((o) => o.transaction_hash)).to.deep.equal(registrations);
  }

  /** the key blocks' count (migration 1069) is the chain's, so the status finds every height stored */
  async function expectKeyBlockCount(): Promise<void> {
    await v3.synced();
    const chain = await v3.truth();
    const { rows } = await v3.pool.query<{ n: string }>('SELECT n FROM key_block_count');
    expect(rows.map((r) => Number(r.n))).to.deep.equal([chain.keyBlocks.length]);
    const status = await v3.get('/middleware/status');
    expect(status.body, status.text).to.deep.include({ contiguous: true, height: chain.keyBlocks.length - 1 });
  }

  it('after a sync: the active names, the sizes up to every height, the self-spends, the spends per day, the key blocks, the oracles', async () => {
    // a few spends to oneself of a prefunded account beside the generated chain's
    const self = v3.devnode.accounts[1]!.publicKey;
    await v3.spend(self, 1); // from account 0: gives account 1 a balance it spends to itself below
    for (const amount of [2, 3]) {
      const built = await fetch(`${v3.devnode.internalUrl}/v2/debug/transactions/spend`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sender_id: self, recipient_id: self, amount, fee: 20_000_000_000_000 }),
      });
      await v3.submit(((await built.json()) as { tx: string }).tx, 1);
      await v3.devnode.mineMicroBlock();
    }
    // spends past 2^53 aettos in two micro blocks of one generation, the second stored as the stored top's continuation
    for (const amount of ['9007199254740993', '18446744073709551621']) {
      const built = await fetch(`${v3.devnode.internalUrl}/v2/debug/transactions/spend`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"sender_id":"${v3.devnode.accounts[0]!.publicKey}","recipient_id":"${self}","amount":${amount},"fee":20000000000000}`,
      });
      await v3.submit(((await built.json()) as { tx: string }).tx, 0);
      await v3.devnode.mineMicroBlock();
      await v3.synced();
    }
    await v3.devnode.mineKeyBlock();
    await expectNameCounts();
    await expectSizes();
    await expectSelfSpends();
    await expectSpendRates();
    await expectKeyBlockCount();
    await expectOracles();
  });

  // each edge's height and the starts of its spans of 100 and 10 000 heights (migration 1060), and either side of each
  it('the active names at any height equal a count of the stored names by their state (every edge and span crossed)', async () => {
    const count = async (top: number, owner: string | null): Promise<number> => {
      const { rows } = await v3.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM name_state s
          WHERE NOT (s.auction_end_height > s.created_at_height AND s.auction_end_height >= $1 AND s.kind IN ('claim', 'bid'))
            AND s.expires_at >= $1 AND s.kind <> 'revoke' AND ($2::text IS NULL OR s.owner = $2)`,
        [top, owner],
      );
      return Number(rows[0]!.n);
    };
    const { rows } = await v3.pool.query<{ h: number; owner: string }>(
      `SELECT DISTINCT h, owner FROM name_state, LATERAL (VALUES (expires_at), (auction_end_height)) v(at),
              LATERAL (VALUES (at), (at / 100 * 100), (at / 10000 * 10000)) b(at_or_edge),
              LATERAL (VALUES (at_or_edge - 1), (at_or_edge), (at_or_edge + 1)) w(h) WHERE h >= 0 ORDER BY 1, 2`,
    );
    expect(rows.length).to.be.above(0);
    for (const { h, owner } of rows) {
      expect(await countActiveNames(v3.pool, h, undefined), `height ${h}`).to.equal(await count(h, null));
      expect(await countActiveNames(v3.pool, h, owner), `height ${h}, ${owner}`).to.equal(await count(h, owner));
    }
  });

  it('after a fork that replaced heights with names, sizes, self-spends, spends, key blocks and oracles', async () => {
    await v3.devnode.fork(10);
    await expectNameCounts();
    await expectSizes();
    await expectSelfSpends();
    await expectSpendRates();
    await expectKeyBlockCount();
    await expectOracles();
  });

  it('after a -H reload of heights in the middle, kept equal to the chain', async () => {
    const top = v3.devnode.height();
    await v3.withoutPopulator(() =>
      reloadHeights({ cfg: loadConfig(v3.settings), log: silentLog }, [top - 30, top - 29, top - 28]),
    );
    await expectNameCounts();
    await expectSizes();
    await expectSelfSpends();
    await expectSpendRates();
    await expectKeyBlockCount();
    await expectOracles();
  });
});
