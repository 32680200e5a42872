/**
 * @module auctionEvents reads only the names that may have a refund or a lock in a range (issue 88: a batch read every
 * running auction's claims and bids): whatever the range, the refunds and locks auction-transfers.ts gives from its
 * rows are those it gives from every claim and bid ever stored (the oracle), on random auction histories of names
 * claimed and bid for by accounts and contracts (`local_idx`), some outbid, some won, some claimed again after their
 * auction, beside claims without an auction and updates.
 */
import { expect } from 'chai';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { auctionEvents, type AuctionEventRow } from '../../../src/db/queries/balance-inputs.ts';
import { auctionTransfers, type AuctionRange } from '../../../src/chain/auction-transfers.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { silent } from '../indexer/support/harness.ts';

/** A name_events row as the test writes it. */
interface Event {
  nameHash: string;
  height: number;
  microIndex: number;
  txIndex: number;
  localIdx: number | null;
  kind: string;
  auctionEnd: number | null;
  nameFee: bigint | null;
}

/** randomHistories: each name's claims and bids in auctions, one after another, from a seeded generator. */
function randomHistories(seed: number): Event[] {
  let state = seed;
  const rand = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  const events: Event[] = [];
  for (let n = 0; n < 8; n++) {
    const nameHash = `nm_${seed}_${n}`;
    let height = rand(10);
    let fee = 100n;
    while (height < 60) {
      // a claim: in an auction of 3 to 9 heights, or (one in five) none
      const at = (h: number): Pick<Event, 'height' | 'microIndex' | 'txIndex' | 'localIdx'> => ({
        height: h,
        microIndex: rand(3),
        txIndex: rand(4),
        localIdx: rand(3) === 0 ? rand(2) : null,
      });
      const auctioned = rand(5) > 0;
      let end = auctioned ? height + 3 + rand(7) : null;
      events.push({ nameHash, ...at(height), kind: 'claim', auctionEnd: end, nameFee: fee });
      // its bids, each at a later height up to the auction's end, extending it at times
      for (let h = height + 1 + rand(3); end !== null && h <= end; h += 1 + rand(3)) {
        fee += 10n + BigInt(rand(50));
        end = Math.max(end, h + rand(4));
        events.push({ nameHash, ...at(h), kind: 'bid', auctionEnd: end, nameFee: fee });
      }
      if (rand(2) === 0)
        events.push({ nameHash, ...at((end ?? height) + 1), kind: 'update', auctionEnd: null, nameFee: null });
      // claimed again after the name ran out
      height = (end ?? height) + 3 + rand(12);
    }
  }
  // one position per name (the table's key): a later event at another's place moves along its block
  const seen = new Set<string>();
  return events.filter((e) => {
    const key = `${e.nameHash} ${e.height} ${e.microIndex} ${e.txIndex}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

describe('auctionEvents: the names a range may refund or lock', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: Pool;

  before(async () => {
    // the server's migrated template, copied
    db = await createTestDatabase({ migrated: 'mdw' });
    pool = createPool({ databaseUrl: db.url, schema: 'mdw', max: 1 }, silent);
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  /** the refunds and locks, those at one place in a fixed order (two names' rows at one place come in either) */
  const transfers = (rows: readonly AuctionEventRow[], range: AuctionRange): string[] =>
    auctionTransfers(
      rows.map((e) => ({ ...e, nameFee: BigInt(e.nameFee) })),
      range,
    )
      .map((t) => JSON.stringify({ ...t, amount: String(t.amount) }))
      .sort();

  for (const seed of [7, 88, 1234])
    it(`gives the refunds and locks of every range that all claims and bids give (seed ${seed})`, async () => {
      const events = randomHistories(seed);
      await pool.query('TRUNCATE name_events');
      await pool.query(
        `INSERT INTO name_events (name_hash, name, height, micro_index, tx_index, tx_hash, kind, owner, auction_end,
                                  name_fee, local_idx)
         SELECT h, h || '.chain', height, micro, tx, 'th_' || h || '_' || height || '_' || micro || '_' || tx, kind,
                'ak_' || height || '_' || tx, auction_end, name_fee, local_idx
           FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::text[], $6::int[], $7::numeric[], $8::int[])
             AS t(h, height, micro, tx, kind, auction_end, name_fee, local_idx)`,
        [
          events.map((e) => e.nameHash),
          events.map((e) => e.height),
          events.map((e) => e.microIndex),
          events.map((e) => e.txIndex),
          events.map((e) => e.kind),
          events.map((e) => e.auctionEnd),
          events.map((e) => (e.nameFee === null ? null : String(e.nameFee))),
          events.map((e) => e.localIdx),
        ],
      );
      // the oracle: every claim and bid stored, in chain order (a call's after the transaction's at its place)
      const { rows: all } = await pool.query<AuctionEventRow>(
        `SELECT height, micro_index AS "microIndex", tx_index AS "txIndex", name_hash AS "nameHash", kind, owner,
                name_fee::text AS "nameFee", auction_end AS "auctionEnd", tx_hash AS "txHash"
           FROM name_events WHERE kind IN ('claim', 'bid') AND name_fee IS NOT NULL AND auction_end IS NOT NULL
          ORDER BY height, micro_index, tx_index, local_idx NULLS FIRST`,
      );
      let moved = 0;
      let locks = 0;
      for (let from = 0; from <= 75; from++)
        for (const length of [1, 2, 5, 20])
          for (const fromMicro of [-1, 1]) {
            const range = { from, to: from + length - 1, fromMicro };
            // the rows of the auctions stored by the range's end (a batch's heights are the stored top)
            const stored = all.filter((e) => e.height <= range.to);
            const expected = transfers(stored, range);
            expect(transfers(await auctionEvents(pool, range), range), JSON.stringify(range)).to.deep.equal(expected);
            moved += expected.length;
            locks += expected.filter((t) => t.includes('fee_lock_name')).length;
          }
      // the histories hold both kinds, in ranges without a bid too (the lock at the key block after an auction's end)
      expect(locks).to.be.greaterThan(20);
      expect(moved - locks).to.be.greaterThan(20);
    });
});
