/**
 * @module Issue 43 item 7: the field table (spec-fields.ts) is the one declaration of every spec field. The
 * TypeScript type is checked against it at compile time (`npx tsc`), and what is generated from it is checked here.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TypeOf } from '../../../src/operator/api/field.ts';
import { SPEC_FIELDS } from '../../../src/operator/api/spec-fields.ts';
import type { MiddlewareSpec } from '../../../src/operator/api/middleware-types.ts';
import { expectGoldenText } from '../specs/golden.ts';
import { renderFieldTable, replaceFieldTable } from './field-table-doc.ts';

const DOCS = fileURLToPath(new URL('../../../docs/operator-crd.md', import.meta.url));

/** Flat writes an object type as its fields (an intersection and a class become plain object types). */
type Flat<T> = T extends (infer U)[] ? Flat<U>[] : T extends object ? { [K in keyof T]: Flat<T[K]> } : T;
/** Same is true when A and B are the same type: same fields, same optionality, same value types. */
type Same<A, B> = (<X>() => X extends Flat<A> ? 1 : 2) extends <X>() => X extends Flat<B> ? 1 : 2 ? true : false;
type Table = TypeOf<typeof SPEC_FIELDS>;

// A field in the type and not in the table, or the other way round, or with another type, fails `npx tsc`.
const typeMatchesTable: Same<Table, MiddlewareSpec> = true;
// @ts-expect-error a field the table lacks is told apart
const withExtraField: Same<Table, MiddlewareSpec & { extra?: string }> = true;
// @ts-expect-error so is an optional field made required
const withRequiredImage: Same<Table, MiddlewareSpec & { image: string }> = true;

describe('the field table of the spec', () => {
  it('declares the TypeScript type of the spec (compile-time check)', () => {
    expect([typeMatchesTable, withExtraField, withRequiredImage]).to.deep.equal([true, true, true]);
  });

  it("is docs/operator-crd.md's field table, row for row (UPDATE_GOLDEN=1 regenerates)", () => {
    const page = readFileSync(DOCS, 'utf8');
    expectGoldenText(DOCS, replaceFieldTable(page, renderFieldTable(SPEC_FIELDS)));
  });
});
