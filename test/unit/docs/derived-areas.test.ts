/**
 * @module docs/operations.md#upgrades lists the derived areas an upgrade re-derives from the stored rows in the order
 * the populator runs them (src/indexer/derived/derive-backfill.ts's DERIVED_AREAS), the names `derive_backfill`, the
 * status's `populator.derivations` and the `mdw_derive_*{area}` metrics use, and the tables each writes (which
 * `mdw -v --full` skips while the area is pending).
 */
import { expect } from 'chai';
import { DERIVED_AREAS } from '../../../src/indexer/derived/derived-areas.ts';
import { codeSpans, readDoc, section, tableRows } from './markdown.ts';

describe('docs: the derived areas (docs/operations.md#upgrades)', () => {
  it('lists every derived area, in the order they run, and no other', () => {
    const rows = tableRows(section(readDoc('docs/operations.md'), '## Upgrades'));
    const documented = rows.flatMap((row) => codeSpans(row[0]!));
    expect(documented).to.deep.equal([...DERIVED_AREAS.keys()]);
  });

  it('names every table each area writes (a `*` in a name stands for any text)', () => {
    const rows = tableRows(section(readDoc('docs/operations.md'), '## Upgrades'));
    for (const row of rows) {
      const [area] = codeSpans(row[0]!);
      const named = codeSpans(row[1]!).map((n) => new RegExp(`^${n.replaceAll('*', '[a-z0-9_]*')}$`));
      const unnamed = DERIVED_AREAS.get(area!)!.tables.filter((table) => !named.some((n) => n.test(table)));
      expect(unnamed, `tables of ${area} the docs do not name`).to.deep.equal([]);
    }
  });
});
