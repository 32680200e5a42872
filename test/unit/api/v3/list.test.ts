import { expect } from 'chai';
import { INDEX_CURSOR } from '../../../../src/api/mdw/resources/cursors.ts';
import { listPage, type List } from '../../../../src/api/mdw/resources/list.ts';
import { parsePaging } from '../../../../src/api/mdw/resources/mdw-params.ts';
import { ItemsPage } from '../../../../src/api/mdw/resources/resource.ts';
import { answerText } from '../../../../src/api/mdw/rest/mdw-respond.ts';

/** A list of heights 1..7 whose renderer records every batch it is given. */
function heights(batches: number[][]): List<number, number> {
  const keys = [1, 2, 3, 4, 5, 6, 7];
  return {
    cursor: INDEX_CURSOR,
    async read({ walk, from, n }) {
      const ordered = walk === 'forward' ? keys : keys.toReversed();
      return ordered.filter((k) => from === undefined || (walk === 'forward' ? k >= from : k <= from)).slice(0, n);
    },
    key: (k) => k,
    render(rows) {
      batches.push([...rows]);
      return rows.map((k) => ({ height: k }));
    },
  };
}

/** answer reads the page a request of the query asks for, as a REST client reads it. */
async function answer(
  query: Record<string, string>,
  batches: number[][],
): Promise<{ data: unknown[]; next: string | null; prev: string | null }> {
  const page = await listPage(parsePaging(query), heights(batches));
  return JSON.parse(answerText(page, '/v3/heights', query));
}

describe('listPage (the page of a /v3 list) and its REST text', () => {
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

  it('a list of objects is a page of values (exact bigints), written by REST with its links', async () => {
    const query = { limit: '2', cursor: '5' };
    const objects: List<number, number> = {
      ...heights([]),
      render: undefined,
      item: (k) => ({ height: k, amount: 10n ** 20n + BigInt(k) }),
    };
    const page = await listPage(parsePaging(query), objects);
    expect(page).to.be.instanceOf(ItemsPage);
    expect(page.items).to.deep.equal([
      { height: 5, amount: 10n ** 20n + 5n },
      { height: 4, amount: 10n ** 20n + 4n },
    ]);
    expect(page.next).to.deep.equal({ cursor: '3', rev: false });
    expect(page.prev).to.deep.equal({ cursor: '6', rev: true });
    expect(answerText(page, '/v3/heights', query)).to.equal(
      '{"data":[{"height":5,"amount":100000000000000000005},{"height":4,"amount":100000000000000000004}],' +
        '"next":"/v3/heights?cursor=3&limit=2","prev":"/v3/heights?cursor=6&limit=2&rev=1"}',
    );
  });

  it("writes a page's links with its own link query where it has one, and a value as it is", () => {
    const page = new ItemsPage([{ height: 1 }], { cursor: '9', rev: false }, undefined, { limit: '10' });
    expect(answerText(page, '/v3/stats/delta', {})).to.equal(
      '{"data":[{"height":1}],"next":"/v3/stats/delta?cursor=9&limit=10","prev":null}',
    );
    expect(answerText({ data: 2n ** 64n }, '/v3/x', {})).to.equal('{"data":18446744073709551616}');
  });
});
