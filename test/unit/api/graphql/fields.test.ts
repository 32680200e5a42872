import { expect } from 'chai';
import { GraphQLString, type GraphQLResolveInfo } from 'graphql';
import { Deadline } from '../../../../src/api/http/admission.ts';
import type { GraphQLContext } from '../../../../src/api/mdw/graphql/context.ts';
import { encodeCursor, listTag } from '../../../../src/api/mdw/graphql/cursor.ts';
import {
  fieldConfig,
  optionalString,
  requiredString,
  resourceRequest,
  type QueryField,
} from '../../../../src/api/mdw/graphql/fields.ts';
import { getNames } from '../../../../src/api/mdw/resources/names.ts';
import {
  ItemsPage,
  page as pageOf,
  resource,
  type ResourceRequest,
  type V3Env,
} from '../../../../src/api/mdw/resources/resource.ts';
import { NAME } from '../../../../src/shapes/v3/shapes-names.ts';

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

  it('resolves a list to the very objects its resource returns (nothing written and parsed back), cursors from the page', async () => {
    const items = [{ name: 'a.chain', fee: 2n ** 64n + 1n }];
    const asked: ResourceRequest[] = [];
    const op = resource(pageOf(NAME), async (_env, request) => {
      asked.push(request);
      return new ItemsPage(items, { cursor: '12-a.chain', rev: false }, { cursor: '30-b.chain', rev: true });
    });
    const field = fieldConfig('names', { ...names, op });
    // the resource is this test's own: the environment is handed to it untouched
    const context = { env: {} as V3Env, deadline: new Deadline(Infinity) } as GraphQLContext;
    const page = (await field.resolve!(undefined, { id: 'a.chain' }, context, {} as GraphQLResolveInfo)) as {
      data: unknown[];
      nextCursor: string | null;
      prevCursor: string | null;
    };
    expect(page.data[0]).to.equal(items[0]);
    expect(page.nextCursor).to.equal(
      encodeCursor(listTag('names', { id: 'a.chain' }), { cursor: '12-a.chain', rev: false }),
    );
    expect(page.prevCursor).to.equal(
      encodeCursor(listTag('names', { id: 'a.chain' }), { cursor: '30-b.chain', rev: true }),
    );
    expect(asked).to.deep.equal([
      { params: { id: 'a.chain' }, query: { extra: 'yes', limit: '10', direction: 'backward' } },
    ]);
  });

  it("resolves a field that is no list to its resource's value, and refuses a page there", async () => {
    const value = { name: 'a.chain', fee: 2n ** 64n + 1n };
    const one = fieldConfig('name', {
      op: resource(NAME, async () => value),
      type: GraphQLString,
      description: 'test',
    });
    const context = { env: {} as V3Env, deadline: new Deadline(Infinity) } as GraphQLContext;
    expect(await one.resolve!(undefined, {}, context, {} as GraphQLResolveInfo)).to.equal(value);
    const paged = fieldConfig('name', {
      op: resource(NAME, async () => new ItemsPage([], undefined, undefined)),
      type: GraphQLString,
      description: 'test',
    });
    let refused: unknown;
    await Promise.resolve(paged.resolve!(undefined, {}, context, {} as GraphQLResolveInfo)).catch((err: unknown) => {
      refused = err;
    });
    expect(String(refused)).to.match(/no list answered a page/);
  });
});
