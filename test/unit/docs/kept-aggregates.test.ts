/**
 * @module docs/operations.md's table of the kept aggregates is the table `mdw -v` recounts them by
 * (src/db/queries/kept-aggregates.ts), row for row: a kept aggregate added there is documented by its row here.
 */
import { expect } from 'chai';
import { KEPT_AGGREGATES } from '../../../src/db/queries/kept-aggregates.ts';
import { readDoc, section, tableRows } from './markdown.ts';

describe('docs: the kept aggregates of docs/operations.md are the ones `mdw -v` recounts', () => {
  it('lists each, with its migration and what it keeps, in the order of the table', () => {
    const documented = tableRows(section(readDoc('docs/operations.md'), '### Kept aggregates'));
    expect(documented).to.deep.equal(KEPT_AGGREGATES.map((k) => [`\`${k.table}\``, String(k.migration), k.doc]));
  });
});
