/**
 * @module A /v3 page costs the same few statements whatever its size: the lookups its items need are read once per
 * page (one statement per kind), and the extra row a page reads for its `next` cursor is never rendered. Under load
 * a page of 100 activities had taken one pool connection per item at once (issue 27.3).
 */
import { expect } from 'chai';
import type { Json } from '../../../src/chain/json.ts';
import { mdwLink, type V3UnderTest } from './harness.ts';

type Page = { data: Json[]; next: string | null; prev: string | null };

/** A page's statements: its filter's bounds, its keys, the step back, and one per kind of lookup its items need. */
const STATEMENTS = 6;

/**
 * describePageQueries is the statement count's suite over the 60-generation chain names-chain.test.ts starts (it only
 * reads it; the count wraps the server's pool's query while each of its requests runs).
 */
export function describePageQueries(shared: { v3: V3UnderTest }): void {
  describe('/v3 pages read their items in a fixed number of statements', function () {
    let v3: V3UnderTest;

    before(() => {
      ({ v3 } = shared);
    });

    /** statementsOf answers the request, counting the statements sent through the pool the server reads with. */
    async function statementsOf(path: string): Promise<{ statements: number; page: Page }> {
      const { pool } = v3;
      const query = pool.query;
      let statements = 0;
      pool.query = function counted(this: typeof pool, ...args: Parameters<typeof query>) {
        statements += 1;
        return query.apply(this, args);
      } as typeof query;
      try {
        const res = await v3.get(path);
        expect(res.status, `${path}: ${res.text}`).to.equal(200);
        return { statements, page: res.body as Page };
      } finally {
        pool.query = query;
      }
    }

    /**
     * expectFixed: a page of up to 100 items, one of a single item, and a page from a cursor each take at most
     * STATEMENTS statements (a lookup an item needs is read for the page at once, when some item needs it).
     */
    async function expectFixed(list: string, atLeast: number): Promise<void> {
      const join = list.includes('?') ? '&' : '?';
      const full = await statementsOf(`${list}${join}limit=100`);
      expect(full.page.data.length, `${list}: items to page through`).to.be.at.least(atLeast);
      const one = await statementsOf(`${list}${join}limit=1`);
      expect(one.page.data).to.have.length(1);
      const next = await statementsOf(mdwLink(one.page.next)!);
      expect(next.page.prev, list).to.not.equal(null);
      const counts = [full, one, next].map((r) => r.statements);
      for (const n of counts) expect(n, `${list}: ${counts.join(', ')}`).to.be.at.most(STATEMENTS);
    }

    it('an account activities page: its transactions in one statement', async () => {
      const chain = await v3.truth();
      const senders = chain.transactions.flatMap((t) => {
        const sender = (t.signed.tx as { sender_id?: string }).sender_id;
        return sender === undefined ? [] : [sender];
      });
      const count = (id: string): number => senders.filter((s) => s === id).length;
      const busy = senders.toSorted((a, b) => count(b) - count(a))[0]!;
      await expectFixed(`/mdw/v3/accounts/${busy}/activities`, 10);
    });

    it('a names page: its key block times and its claims and revocations in one statement each', async () => {
      await expectFixed('/mdw/v3/names', 5);
      await expectFixed('/mdw/v3/names?state=inactive', 2);
    });

    it('an oracles page: its expiry times and registrations in one statement each', async () => {
      await expectFixed('/mdw/v3/oracles', 2);
    });
  });
}
