import { expect } from 'chai';
import { auctionObject, isActive, isInAuction, nameObject } from '../../../../src/shapes/v3/render-names.ts';
import { AUCTION, NAME } from '../../../../src/shapes/v3/shapes-names.ts';
import { openApiField } from '../../../../src/api/mdw/rest/openapi-shapes.ts';
import { graphqlTypeName } from '../../../../src/api/mdw/graphql/shape-types.ts';
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

describe("v3 names' name_fee", () => {
  // ae_mdw's names.spec.yaml gives 134626900000000000000 as its example: past 2^53, an integer in its OpenAPI
  const fee = '134626900000000000000';
  const clock = { top: 200, topTimeMs: 0, times: new Map<number, number>() };

  it('renders the fee exact, as a big integer, and null without one', () => {
    expect(nameObject(name({ nameFee: fee }), clock, null, null).name_fee).to.equal(134626900000000000000n);
    expect(auctionObject(name({ nameFee: fee }), clock, null).name_fee).to.equal(134626900000000000000n);
    expect(nameObject(name({ nameFee: null }), clock, null, null).name_fee).to.equal(null);
  });

  it('is declared a big integer: an integer in the OpenAPI component, a BigInt in GraphQL', () => {
    for (const table of [NAME, AUCTION]) {
      expect(table.fields.name_fee.kind).to.equal('bigint');
      expect(openApiField(table.fields.name_fee)).to.deep.equal({ type: 'integer', nullable: true });
      expect(graphqlTypeName(table.fields.name_fee)).to.equal('BigInt');
    }
  });
});
