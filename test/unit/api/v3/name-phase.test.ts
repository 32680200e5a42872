import { expect } from 'chai';
import { isActive, isInAuction } from '../../../../src/shapes/v3/render-names.ts';
import type { NameStateRow } from '../../../../src/db/queries/names.ts';

const name = (over: Partial<NameStateRow>): NameStateRow => ({
  name: 'abc.chain',
  nameHash: 'nm_abc',
  createdAt: 100,
  activatedAt: 100,
  owner: 'ak_owner',
  expiresAt: 180_100,
  pointers: [],
  kind: 'claim',
  claimsCount: 1,
  lastClaimOwner: 'ak_owner',
  nameFee: '1',
  lastClaimTx: 'th_claim',
  revokeTx: null,
  ...over,
});

describe('v3 name phases (as a node answers /v2/names/<name> at the top)', () => {
  const auctioned = name({ activatedAt: 2500, expiresAt: 182_500, kind: 'bid' });
  const cases: Array<[string, NameStateRow, number, boolean, boolean]> = [
    ['claimed without an auction, at its claim height', name({}), 100, false, true],
    ['in auction before its end', auctioned, 2499, true, false],
    ['still in auction at the auction end height (handed over with the next generation)', auctioned, 2500, true, false],
    ['won once the generation after the end starts', auctioned, 2501, false, true],
    ['active at its expiry height (a node serves it through its ttl)', name({}), 180_100, false, true],
    ['inactive after its expiry height', name({}), 180_101, false, false],
    ['inactive when revoked', name({ kind: 'revoke' }), 200, false, false],
  ];
  for (const [what, row, top, inAuction, active] of cases) {
    it(`${what}: in auction ${inAuction}, active ${active}`, () => {
      expect(isInAuction(row, top)).to.equal(inAuction);
      expect(isActive(row, top)).to.equal(active);
    });
  }
});
