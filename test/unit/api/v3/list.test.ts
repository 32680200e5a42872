import { expect } from 'chai';
import type Koa from 'koa';
import { INDEX_CURSOR } from '../../../../src/api/mdw/resources/cursors.ts';
import { sendList, type List } from '../../../../src/api/mdw/resources/list.ts';
import { parsePaging } from '../../../../src/api/mdw/resources/mdw-params.ts';
import { answerAsValue, answeredValue } from '../../../../src/api/mdw/rest/mdw-respond.ts';

/** A list of heights 1..7 whose renderer records every batch it is given. */
function heights(batches: number[][]): List<number, number> {
  const keys = [1, 2, 3, 4, 5, 6, 7];
  return {
    cursor: INDEX_CURSOR,
    async read(walk, from, n) {
      const ordered = walk === 'forward' ? keys : keys.toReversed();
      return ordered.filter((k) => from === undefined || (walk === 'forward' ? k >= from : k <= from)).slice(0, n);
    },
    key: (k) => k,
    render(rows) {
      batches.push([...rows]);
      return rows.map((k) => JSON.stringify({ height: k }));
    },
  };
}

/** answer runs sendList for a request of the query: the page as a client reads it. */
async function answer(
  query: Record<string, string>,
  batches: number[][],
): Promise<{ data: unknown[]; next: string | null; prev: string | null }> {
  const ctx = { path: '/v3/heights', query } as unknown as Koa.Context;
  await sendList(ctx, parsePaging(query), heights(batches));
  return JSON.parse(String(ctx.body));
}

describe('sendList (the paged route of a /v3 list)', () => {
  it('renders only the page: its limit rows in one batch, never the extra row behind the next cursor', async () => {
    const batches: number[][] = [];
    const page = await answer({ limit: '3' }, batches);
    expect(batches).to.deep.equal([[7, 6, 5]]);
    expect(page.data).to.deep.equal([{ height: 7 }, { height: 6 }, { height: 5 }]);
    expect(page.next).to.equal('/v3/heights?cursor=4&limit=3');
    expect(page.prev).to.equal(null);
  });

  it('a reversed page renders its rows once, in the order shown', async () => {
    const batches: number[][] = [];
    const page = await answer({ limit: '2', cursor: '3', rev: '1' }, batches);
    expect(batches).to.deep.equal([[4, 3]]);
    expect(page.data).to.deep.equal([{ height: 4 }, { height: 3 }]);
    expect(page.next).to.equal('/v3/heights?cursor=2&limit=2');
    expect(page.prev).to.equal('/v3/heights?cursor=5&limit=2&rev=1');
  });

  it('a list of objects answers their JSON texts, and an in-process caller the same page as values', async () => {
    const query = { limit: '2', cursor: '5' };
    const objects: List<number, number> = {
      ...heights([]),
      render: undefined,
      item: (k) => ({ height: k, amount: 10n ** 20n + BigInt(k) }),
    };
    const text = { path: '/v3/heights', query } as unknown as Koa.Context;
    await sendList(text, parsePaging(query), objects);
    expect(String(text.body)).to.equal(
      '{"data":[{"height":5,"amount":100000000000000000005},{"height":4,"amount":100000000000000000004}],' +
        '"next":"/v3/heights?cursor=3&limit=2","prev":"/v3/heights?cursor=6&limit=2&rev=1"}',
    );
    const values = { path: '/v3/heights', query } as unknown as Koa.Context;
    answerAsValue(values);
    await sendList(values, parsePaging(query), objects);
    expect(values.body).to.equal(undefined);
    expect(answeredValue(values)).to.deep.equal({
      data: [
        { height: 5, amount: 10n ** 20n + 5n },
        { height: 4, amount: 10n ** 20n + 4n },
      ],
      next: '/v3/heights?cursor=3&limit=2',
      prev: '/v3/heights?cursor=6&limit=2&rev=1',
    });
  });
});
