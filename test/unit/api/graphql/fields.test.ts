import { expect } from 'chai';
import { GraphQLString } from 'graphql';
import { encodeCursor, listTag } from '../../../../src/api/mdw/graphql/cursor.ts';
import {
  optionalString,
  requiredString,
  resourceRequest,
  type QueryField,
} from '../../../../src/api/mdw/graphql/fields.ts';
import { getNames } from '../../../../src/api/mdw/resources/names.ts';

const names: QueryField = {
  op: getNames,
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
    expect(resourceRequest(names, { id: 'a.chain', type: ['spend', 'oracle'] }, tag)).to.deep.equal({
      params: { id: 'a.chain' },
      query: { extra: 'yes', type: ['spend', 'oracle'], limit: '10', direction: 'backward' },
    });
  });

  it('maps enum values to their REST words, or leaves the parameter out', () => {
    expect(resourceRequest(names, { orderBy: 'expiration' }, tag).query.by).to.equal('deactivation');
    expect(resourceRequest(names, { orderBy: 'name' }, tag).query.by).to.equal('name');
    expect(resourceRequest(names, { orderBy: 'none' }, tag).query).to.not.have.property('by');
  });

  it('brings a limit within 1..100 as ae_mdw does', () => {
    expect(resourceRequest(names, { limit: 1000 }, tag).query.limit).to.equal('100');
    expect(resourceRequest(names, { limit: -3 }, tag).query.limit).to.equal('1');
  });

  it('turns a height range into a scope walked in the direction asked', () => {
    const scope = (args: Record<string, unknown>) => resourceRequest(names, args, tag).query.scope;
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
    expect(resourceRequest(names, { cursor: back }, tag).query).to.deep.include({ cursor: '12-a.chain', rev: '1' });
    const other = encodeCursor(listTag('keyBlocks', {}), { cursor: '12', rev: false });
    expect(() => resourceRequest(names, { cursor: other }, tag)).to.throw(/not a cursor of this list/);
  });
});
