/**
 * @module name_state's rows of a batch from the rows before it (indexer/rows/name-state-rows.ts) against the refresh's
 * definition over all of a name's events (migration 1144, the oracle here): its latest claim, the greatest auction end
 * of the claims and bids from that claim's height on (else the claim's height), and its latest event's owner, expiry,
 * pointers and kind; no claim, no row.
 */
import { expect } from 'chai';
import { nameStateRows } from '../../../src/indexer/rows/name-state-rows.ts';
import type { NameEventRow } from '../../../src/indexer/rows/rows.ts';
import type { NameStateWrite } from '../../../src/db/writes/name-state.ts';

/** refreshed is the row the refresh makes of all the events of one name (in chain order), or undefined. */
function refreshed(events: readonly NameEventRow[]): NameStateWrite | undefined {
  const claims = events.filter((e) => e.kind === 'claim' && e.name !== null);
  const claim = claims.at(-1);
  if (!claim) return undefined;
  const ends = events
    .filter((e) => e.height >= claim.height && (e.kind === 'claim' || e.kind === 'bid') && e.auctionEnd !== null)
    .map((e) => e.auctionEnd!);
  const last = events.at(-1)!;
  return {
    nameHash: claim.nameHash,
    name: claim.name!,
    txHash: claim.txHash,
    createdAtHeight: claim.height,
    auctionEndHeight: ends.length > 0 ? Math.max(...ends) : claim.height,
    owner: last.owner,
    expiresAt: last.expiresAt,
    pointers: last.pointers,
    kind: last.kind,
  };
}

let tx = 0;
/** ev is an event of name `n` at `height` (its micro block and transaction in order of making) */
const ev = (
  n: string,
  height: number,
  kind: string,
  more: Partial<Pick<NameEventRow, 'name' | 'auctionEnd' | 'owner' | 'expiresAt' | 'pointers'>> = {},
): NameEventRow => ({
  height,
  microIndex: 0,
  txIndex: tx++,
  txHash: `th_${tx}`,
  nameHash: `nm_${n}`,
  name: kind === 'claim' || kind === 'bid' ? `${n}.chain` : null,
  kind,
  owner: `ak_${tx}`,
  expiresAt: height + 100,
  auctionEnd: null,
  nameFee: null,
  pointers: [{ key: 'account_pubkey', id: `ak_${tx}` }],
  ...more,
});

/** Each name's events over the chain: before a batch boundary, and in the batch. */
const CASES: { name: string; before: NameEventRow[]; batch: NameEventRow[] }[] = [
  { name: 'claimed in the batch, updated after', before: [], batch: [ev('a', 10, 'claim'), ev('a', 12, 'update')] },
  {
    name: 'an auction: claim, bids in the batch after a bid before',
    before: [ev('b', 5, 'claim', { auctionEnd: 20 }), ev('b', 8, 'bid', { auctionEnd: 25 })],
    batch: [ev('b', 10, 'bid', { auctionEnd: 27 }), ev('b', 11, 'bid', { auctionEnd: 26 }), ev('b', 12, 'transfer')],
  },
  {
    name: 'a claim with an auction kept from before, only updates in the batch',
    before: [ev('c', 5, 'claim', { auctionEnd: 30 }), ev('c', 9, 'bid', { auctionEnd: 40 })],
    batch: [ev('c', 50, 'update'), ev('c', 51, 'transfer')],
  },
  {
    name: 'claimed again after expiry: the old auction no longer counts',
    before: [ev('d', 1, 'claim', { auctionEnd: 90 }), ev('d', 3, 'revoke')],
    batch: [ev('d', 200, 'claim'), ev('d', 201, 'update')],
  },
  {
    name: "claimed again in the batch after its auction's bids there: those no longer count",
    before: [ev('i', 1, 'claim', { auctionEnd: 20 })],
    batch: [ev('i', 10, 'bid', { auctionEnd: 30 }), ev('i', 400, 'claim')],
  },
  {
    name: 'a bid at the new claim height before it counts, as the refresh reads heights',
    before: [ev('e', 1, 'claim')],
    batch: [ev('e', 300, 'bid', { auctionEnd: 310 }), ev('e', 300, 'claim', { auctionEnd: 305 })],
  },
  {
    name: 'events without a stored claim',
    before: [ev('f', 1, 'update', { name: null })],
    batch: [ev('f', 7, 'transfer')],
  },
  { name: 'no claim at all', before: [], batch: [ev('g', 7, 'update'), ev('g', 8, 'revoke')] },
  { name: 'revoked in the batch', before: [ev('h', 2, 'claim')], batch: [ev('h', 9, 'revoke', { expiresAt: 9 })] },
];

describe('name_state rows from the rows before a batch', () => {
  it('equal the refresh over every event of the name, case by case', () => {
    for (const c of CASES) {
      const before = refreshed(c.before);
      const prior = new Map(before ? [[before.nameHash, before]] : []);
      const expected = refreshed([...c.before, ...c.batch]);
      expect(nameStateRows(prior, c.batch), c.name).to.deep.equal(expected ? [expected] : []);
    }
  });

  it("equal it for every name of one batch at once, the names' events interleaved", () => {
    const all = CASES.flatMap((c) => c.batch).sort((x, y) => x.height - y.height || x.txIndex - y.txIndex);
    const prior = new Map(CASES.map((c) => refreshed(c.before)).flatMap((r) => (r ? [[r.nameHash, r] as const] : [])));
    const expected = CASES.map((c) => refreshed([...c.before, ...c.batch])).filter((r) => r !== undefined);
    const byName = (rows: NameStateWrite[]): NameStateWrite[] =>
      [...rows].sort((x, y) => x.nameHash.localeCompare(y.nameHash));
    expect(byName(nameStateRows(prior, all))).to.deep.equal(byName(expected));
    expect(expected.length, 'rows of most cases').to.equal(7);
  });
});
