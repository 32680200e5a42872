/**
 * @module docs/operator-crd.md's Spec table covers the Middleware's spec as the CRD generator builds it
 * (src/operator/api/crd.ts): every field it names exists, and every field of the schema is named, or lies inside
 * a named one (`server.resources`) or holds named ones (`server`).
 */
import { expect } from 'chai';
import { middlewareOpenApiSchema, schemaPaths } from '../../../src/operator/api/crd.ts';
import { codeSpans, readDoc, section, tableRows } from './markdown.ts';

/** fieldsOf expands a Spec table cell: `a.b {c, d \| e}` names a.b, a.b.c, a.b.d and a.b.e; `x[]` names x. */
function fieldsOf(cell: string): string[] {
  return codeSpans(cell).flatMap((span) => {
    const m = /^([\w.]+)(?:\[\])?(?: \{([^}]*)\})?$/.exec(span);
    if (!m) return [];
    const children = (m[2] ?? '').split(/[,|\\]/).map((c) => c.trim());
    return [m[1]!, ...children.filter((c) => c !== '').map((c) => `${m[1]}.${c}`)];
  });
}

describe('docs: the Middleware spec (docs/operator-crd.md#spec)', () => {
  // the section's own table, not its generated "Every field" table (spec-fields.test.ts keeps that one)
  const spec = section(readDoc('docs/operator-crd.md'), '## Spec').split(/^### /m)[0]!;
  const documented = tableRows(spec).flatMap((row) => fieldsOf(row[0]!));
  // `.spec.a[].b{}` → `a.b`: the table names arrays and maps by their field
  const schema = [
    ...new Set(
      schemaPaths(middlewareOpenApiSchema())
        .filter((p) => p.startsWith('.spec.'))
        .map((p) => p.slice('.spec.'.length).replace(/\[\]|\{\}/g, '')),
    ),
  ];

  it('reads the table', () => expect(documented).to.include.members(['nodeUrls', 'server.pdb.maxUnavailable']));

  it('names only fields the schema has', () => {
    expect(documented.filter((f) => !schema.includes(f))).to.deep.equal([]);
  });

  it('covers every field of the schema', () => {
    const covered = (field: string): boolean =>
      documented.some((d) => d === field || field.startsWith(`${d}.`) || d.startsWith(`${field}.`));
    expect(schema.filter((f) => !covered(f))).to.deep.equal([]);
  });
});
