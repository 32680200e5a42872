/**
 * @module Dev-time generator of src/operator/api/field-docs.ts: reads the doc comment of every field of the Middleware
 * type (middleware-types.ts' status, and the Kubernetes types it uses; the spec's own fields are documented in the
 * field table, spec-fields.ts) with the TypeScript compiler, keyed by the JSON path
 * the CRD's schema uses (`.spec.server.replicas`, `[]` for list items, `{}` for map values). Only test code imports
 * the compiler: the production CRD reads the generated table.
 */
import prettier from 'prettier';
import ts from 'typescript';
import { fileURLToPath } from 'node:url';

const TYPES = fileURLToPath(new URL('../../../src/operator/api/middleware-types.ts', import.meta.url));

/** fieldDocsFromTypes returns the doc comment of every schema path in `paths`, from the `Middleware` type down. */
export function fieldDocsFromTypes(paths: ReadonlySet<string>): Record<string, string> {
  const program = ts.createProgram([TYPES], {
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    // no global @types (node's, mocha's, …): the types import all they use, and reading those was half the work
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(TYPES);
  if (source === undefined) throw new Error(`cannot read ${TYPES}`);
  const symbol = checker.getSymbolAtLocation(source);
  const middleware = symbol && checker.getExportsOfModule(symbol).find((s) => s.name === 'Middleware');
  if (middleware === undefined) throw new Error('middleware-types.ts exports no Middleware');
  const out: Record<string, string> = {};
  const docOf = (s: ts.Symbol | undefined): string =>
    s === undefined ? '' : ts.displayPartsToString(s.getDocumentationComment(checker)).replace(/\s+/g, ' ').trim();

  function walk(type: ts.Type, path: string, parentDoc: string): void {
    if (![...paths].some((p) => p.startsWith(path))) return;
    const t = checker.getNonNullableType(type);
    if (checker.isArrayType(t)) {
      const item = checker.getTypeArguments(t as ts.TypeReference)[0];
      const itemPath = `${path}[]`;
      const doc = docOf(item?.aliasSymbol ?? item?.getSymbol()) || (parentDoc && `An item of: ${parentDoc}`);
      if (doc !== '' && paths.has(itemPath)) out[itemPath] = doc;
      if (item !== undefined) walk(item, itemPath, doc);
      return;
    }
    const values = t.getStringIndexType();
    if (values !== undefined && t.getProperties().length === 0) {
      if (parentDoc !== '' && paths.has(`${path}{}`)) out[`${path}{}`] = `A value of: ${parentDoc}`;
      return;
    }
    for (const prop of t.getProperties()) {
      const propPath = `${path}.${prop.name}`;
      const doc = docOf(prop);
      if (doc !== '' && paths.has(propPath)) out[propPath] = doc;
      walk(checker.getTypeOfSymbol(prop), propPath, doc);
    }
  }
  walk(checker.getDeclaredTypeOfSymbol(middleware), '', '');
  return out;
}

/** renderFieldDocs is the generated module's text, formatted as `make lint` checks it. */
export async function renderFieldDocs(docs: Record<string, string>, file: string): Promise<string> {
  const entries = Object.keys(docs)
    .sort()
    .map((k) => `  ${JSON.stringify(k)}: ${JSON.stringify(docs[k])},`);
  const text = [
    '/**',
    " * @module Descriptions of the Middleware's fields for the CRD (`kubectl explain`), keyed by schema path. Generated",
    " * from middleware-types.ts' doc comments by test/operator/api/field-docs.test.ts: do not edit; UPDATE_GOLDEN=1.",
    ' */',
    'export const FIELD_DOCS: Readonly<Record<string, string>> = {',
    ...entries,
    '};',
    '',
  ].join('\n');
  return prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file });
}
