import { expect } from 'chai';
import { formEncode, pageLink, paginate, type Fetch, type FetchKeys } from '../../../../src/api/mdw/resources/page.ts';

/** A list of keys 1..n as a Fetch (items are the keys' text). */
function listOf(keys: number[]): Fetch<number, string> {
  return async ({ walk, from, n }) => {
    const ordered = walk === 'forward' ? [...keys].sort((a, b) => a - b) : [...keys].sort((a, b) => b - a);
    const start = from === undefined ? ordered : ordered.filter((k) => (walk === 'forward' ? k >= from : k <= from));
    return start.slice(0, n).map((key) => ({ key, item: String(key) }));
  };
}

describe('paginate (ae_mdw pages over keyset positions)', () => {
  const list = listOf([1, 2, 3, 4, 5, 6, 7]);

  it('first page: limit items, next starts at the item after them, no prev', async () => {
    const page = await paginate(list, { direction: 'backward', rev: false, limit: 3, cursor: undefined });
    expect(page.items).to.deep.equal(['7', '6', '5']);
    expect(page.next).to.deep.equal({ key: 4, rev: false });
    expect(page.prev).to.equal(undefined);
  });

  it('a cursor page links back to the page before it with rev, and that page equals the first', async () => {
    const second = await paginate(list, { direction: 'backward', rev: false, limit: 3, cursor: 4 });
    expect(second.items).to.deep.equal(['4', '3', '2']);
    expect(second.next).to.deep.equal({ key: 1, rev: false });
    expect(second.prev).to.deep.equal({ key: 5, rev: true });
    const back = await paginate(list, { direction: 'backward', rev: true, limit: 3, cursor: 5 });
    expect(back.items).to.deep.equal(['7', '6', '5']);
    expect(back.next).to.deep.equal({ key: 4, rev: false });
    expect(back.prev).to.equal(undefined);
  });

  it('the last page has no next; a cursor that is not in the list starts at the next key', async () => {
    const last = await paginate(list, { direction: 'forward', rev: false, limit: 5, cursor: 5 });
    expect(last.items).to.deep.equal(['5', '6', '7']);
    expect(last.next).to.equal(undefined);
    const gap = await paginate(listOf([1, 3, 5]), { direction: 'forward', rev: false, limit: 1, cursor: 2 });
    expect(gap.items).to.deep.equal(['3']);
  });

  it('with fetchKeys, the step back reads keys only and the page and its links are the same', async () => {
    const calls: string[] = [];
    const counted: Fetch<number, string> = async (window) => {
      calls.push(`items ${window.walk} ${window.n}`);
      return list(window);
    };
    const keysOnly: FetchKeys<number> = async (window) => {
      calls.push(`keys ${window.walk} ${window.n}`);
      return (await list(window)).map((r) => r.key);
    };
    for (const req of [
      { direction: 'backward', rev: false, limit: 3, cursor: 4 },
      { direction: 'backward', rev: true, limit: 3, cursor: 5 },
      { direction: 'forward', rev: false, limit: 2, cursor: 1 },
    ] as const) {
      calls.length = 0;
      const withKeys = await paginate(counted, req, keysOnly);
      expect(calls.filter((c) => c.startsWith('items'))).to.have.length(1);
      expect(calls.filter((c) => c.startsWith('keys'))).to.deep.equal([
        `keys ${(req.direction === 'forward') === req.rev ? 'forward' : 'backward'} 2`,
      ]);
      expect(withKeys).to.deep.equal(await paginate(list, req));
    }
  });

  it('walking next to the end and prev to the start visits every item once, both ways', async () => {
    for (const direction of ['forward', 'backward'] as const) {
      for (const limit of [1, 2, 3, 7, 10]) {
        const seen: string[] = [];
        let page = await paginate(list, { direction, rev: false, limit, cursor: undefined });
        seen.push(...page.items);
        const pages = [page];
        while (page.next) {
          page = await paginate(list, { direction, rev: page.next.rev, limit, cursor: page.next.key });
          seen.push(...page.items);
          pages.push(page);
        }
        expect(seen, `${direction} ${limit}`).to.deep.equal(
          direction === 'forward' ? ['1', '2', '3', '4', '5', '6', '7'] : ['7', '6', '5', '4', '3', '2', '1'],
        );
        const back: string[] = [...page.items];
        while (page.prev) {
          page = await paginate(list, { direction, rev: page.prev.rev, limit, cursor: page.prev.key });
          back.unshift(...page.items);
        }
        expect(back, `back ${direction} ${limit}`).to.deep.equal(seen);
      }
    }
  });
});

describe('pageLink', () => {
  it('keeps every parameter sorted, sets cursor, adds rev=1 only on reversed links, drops _ parameters', () => {
    const query = {
      limit: '3',
      scope: 'gen:1-10',
      rev: '1',
      cursor: '9',
      '__sdk-retry': '2',
      type: ['spend', 'name_claim'],
    };
    expect(pageLink('/v3/key-blocks', query, '4', false)).to.equal(
      '/v3/key-blocks?cursor=4&limit=3&scope=gen%3A1-10&type=spend&type=name_claim',
    );
    expect(pageLink('/v3/key-blocks', query, '8', true)).to.equal(
      '/v3/key-blocks?cursor=8&limit=3&rev=1&scope=gen%3A1-10&type=spend&type=name_claim',
    );
    expect(pageLink('/v3/key-blocks', query, undefined, false)).to.equal(null);
  });

  it('encodes as www-form: space as +, reserved characters escaped', () => {
    expect(formEncode("a b*(c)!'~_-.")).to.equal('a+b%2A%28c%29%21%27~_-.');
  });
});
