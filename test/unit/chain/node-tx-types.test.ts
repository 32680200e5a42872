/**
 * @module Our transaction types against the node's (test/fixtures/node-tx-types.json, written from the node's aetx.erl
 * and aeser_chain_objects.erl): the next type the node adds fails here, not on a chain in production (issue 39).
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { CHAIN_TX_TYPES, schemaFor, TX_SCHEMAS } from '../../../src/chain/tx-schema.ts';
import { TX_TYPE_NAMES } from '../../../src/api/mdw/resources/tx-query.ts';
import { parseTxType } from '../../../src/api/legacy/legacy-params.ts';

interface NodeType {
  readonly type: string;
  readonly name: string | null;
  readonly tag: number;
  readonly mined?: boolean;
}

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/node-tx-types.json', import.meta.url), 'utf8')) as {
  types: NodeType[];
};
const mined = fixture.types.filter((t) => t.mined !== false);

describe('transaction types (issue 39): ours are the node’s', () => {
  it('knows every type a micro block can hold, by the node’s name and tag, and no other', () => {
    expect(CHAIN_TX_TYPES.map((t) => [t, schemaFor(t)!.tag]).sort()).to.deep.equal(
      mined.map((t) => [t.name, t.tag]).sort(),
    );
  });

  it('gives every layout it lists the node’s tag of its type', () => {
    const tags = new Map(fixture.types.map((t) => [t.tag, t]));
    for (const s of TX_SCHEMAS) expect(tags.get(s.tag), s.type).to.not.equal(undefined);
  });

  it('filters by every type: the /v3 snake names and the seed’s txtype', () => {
    expect([...TX_TYPE_NAMES.values()].sort()).to.deep.equal([...CHAIN_TX_TYPES].sort());
    for (const t of mined) expect(parseTxType({ txtype: t.name! })).to.equal(t.name);
  });
});
