import { expect } from 'chai';
import { GraphQLString } from 'graphql';
import { encodeCursor, listTag } from '../../../../src/api/mdw/graphql/cursor.ts';
import {
  linkPosition,
  optionalString,
  requiredString,
  restRequest,
  type QueryField,
} from '../../../../src/api/mdw/graphql/fields.ts';

const names: QueryField = {
  op: 'GetNames',
  type: GraphQLString,
  list: 'scoped',
  description: 'test',
  args: { id: requiredString('path:id'), orderBy: optionalString('query:by'), type: optionalString('query:type') },
  values: { orderBy: { expiration: 'deactivation', none: '' } },
  fixed: { extra: 'yes' },
};
const tag = listTag('names', {});

describe('GraphQL arguments as REST parameters (fields.ts)', () => {
  it('puts ids in the path, filters in the query, and pages of ae_mdw’s defaults', () => {
    expect(restRequest(names, { id: 'a.chain', type: ['spend', 'oracle'] }, tag)).to.deep.equal({
      params: { id: 'a.chain' },
      query: { extra: 'yes', type: ['spend', 'oracle'], limit: '10', direction: 'backward' },
    });
  });

  it('maps enum values to their REST words, or leaves the parameter out', () => {
    expect(restRequest(names, { orderBy: 'expiration' }, tag).query.by).to.equal('deactivation');
    expect(restRequest(names, { orderBy: 'name' }, tag).query.by).to.equal('name');
    expect(restRequest(names, { orderBy: 'none' }, tag).query).to.not.have.property('by');
  });

  it('brings a limit within 1..100 as ae_mdw does', () => {
    expect(restRequest(names, { limit: 1000 }, tag).query.limit).to.equal('100');
    expect(restRequest(names, { limit: -3 }, tag).query.limit).to.equal('1');
  });

  it('turns a height range into a scope walked in the direction asked', () => {
    const scope = (args: Record<string, unknown>) => restRequest(names, args, tag).query.scope;
    expect(scope({ fromHeight: 3, toHeight: 9, direction: 'forward' })).to.equal('gen:3-9');
    expect(scope({ fromHeight: 3, toHeight: 9, direction: 'backward' })).to.equal('gen:9-3');
    expect(scope({ fromHeight: 9, toHeight: 3, direction: 'forward' })).to.equal('gen:3-9');
    expect(scope({ toHeight: 7, direction: 'backward' })).to.equal('gen:7-0');
    expect(scope({ fromHeight: 7, direction: 'forward' })).to.equal(`gen:7-${2 ** 31 - 1}`);
    expect(scope({ fromHeight: 5, toHeight: 5, direction: 'backward' })).to.equal('gen:5-5');
    expect(scope({})).to.equal(undefined);
  });

  it('gives the REST cursor of this list’s cursor, with rev for a walk back', () => {
    const back = encodeCursor(tag, { cursor: '12-a.chain', rev: true });
    expect(restRequest(names, { cursor: back }, tag).query).to.deep.include({ cursor: '12-a.chain', rev: '1' });
    const other = encodeCursor(listTag('keyBlocks', {}), { cursor: '12', rev: false });
    expect(() => restRequest(names, { cursor: other }, tag)).to.throw(/not a cursor of this list/);
  });

  it('reads the position of a REST link', () => {
    expect(linkPosition('/v3/names?by=name&cursor=a%2Bb.chain&limit=5&rev=1')).to.deep.equal({
      cursor: 'a+b.chain',
      rev: true,
    });
    expect(linkPosition('/v3/key-blocks?cursor=7&limit=5')).to.deep.equal({ cursor: '7', rev: false });
    expect(linkPosition(null)).to.equal(undefined);
  });
});
