/**
 * @module docs/api-v3.md names every /v3 route the server answers (V3_OPERATIONS, which `GET /v3/api` serves and a
 * test holds equal to the router), in a table or in code of its own section (`/v3/transfers` [kind, …]), and its
 * tables name no other. In a cell, `/v3/stats/difficulty`, `/hashrate` abbreviates the sibling `/v3/stats/hashrate`.
 */
import { expect } from 'chai';
import { V3_OPERATIONS } from '../../../src/api/mdw/rest/operations.ts';
import { codeSpans, readDoc, tableRows, withoutCodeBlocks } from './markdown.ts';

/** route is a path with its parameters' names dropped: `/v3/names/{id}` and `/v3/names/:id` are `/v3/names/*`. */
const route = (path: string): string => path.replace(/\{[^}]+\}|:\w+/g, '*');

/** pathsOf lists the /v3 paths a first cell names, sibling abbreviations expanded. */
function pathsOf(cell: string): string[] {
  const spans = codeSpans(cell).filter((s) => s.startsWith('/'));
  const first = spans.find((s) => s.startsWith('/v3/'));
  if (first === undefined) return [];
  const parent = first.slice(0, first.lastIndexOf('/'));
  return spans.map((s) => (s.startsWith('/v3/') ? s : `${parent}${s}`));
}

describe('docs: the /v3 routes of docs/api-v3.md', () => {
  const doc = readDoc('docs/api-v3.md');
  const inTables = tableRows(doc).flatMap((row) => pathsOf(row[0]!).map(route));
  const inCode = codeSpans(withoutCodeBlocks(doc))
    .filter((s) => /^\/v3\/\S*$/.test(s))
    .map(route);
  const served = V3_OPERATIONS.map((o) => route(`/v3${o.path}`));

  it('reads the tables', () => expect(inTables).to.include.members(['/v3/status', '/v3/stats/hashrate']));

  it('names every /v3 route the server answers', () => {
    expect(served.filter((r) => !inTables.includes(r) && !inCode.includes(r))).to.deep.equal([]);
  });

  it('names in its tables no /v3 route the server lacks', () => {
    expect(inTables.filter((r) => !served.includes(r))).to.deep.equal([]);
  });
});
