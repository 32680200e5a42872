/** @module The names a TypeScript file exports, read with TypeScript's own parser (test/unit/db/read-model.test.ts). */
import ts from 'typescript';

/** An exported name and the space it lives in: a value (function, class, const, enum) or a type (interface, type alias). */
export interface ExportedName {
  readonly name: string;
  readonly space: 'value' | 'type';
}

const isExported = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** bindingNames lists the names a declaration binds (`const { a, b: [c] } = …` binds a and c). */
function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

/** exportedNames lists the top-level names a file exports: declarations and `export { … }` lists (re-exports included). */
export function exportedNames(fileName: string, text: string): ExportedName[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: ExportedName[] = [];
  for (const node of file.statements) {
    if (ts.isExportDeclaration(node)) {
      if (node.exportClause && ts.isNamedExports(node.exportClause))
        for (const e of node.exportClause.elements)
          found.push({ name: e.name.text, space: node.isTypeOnly || e.isTypeOnly ? 'type' : 'value' });
      else if (node.exportClause) found.push({ name: node.exportClause.name.text, space: 'value' });
      continue;
    }
    if (!isExported(node)) continue;
    if (ts.isVariableStatement(node))
      for (const d of node.declarationList.declarations)
        for (const name of bindingNames(d.name)) found.push({ name, space: 'value' });
    else if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node))
      found.push({ name: node.name.text, space: 'type' });
    else if (
      (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isEnumDeclaration(node)) &&
      node.name !== undefined
    )
      found.push({ name: node.name.text, space: 'value' });
  }
  return found;
}

/**
 * namesDefinedTwice maps each name exported by more than one file, or twice in one space of one file, to the files
 * that export it. A value and a type of the same name in one file (`const SyncStatus` and `type SyncStatus`) are one
 * name: the type describes the value.
 */
export function namesDefinedTwice(files: ReadonlyMap<string, readonly ExportedName[]>): Map<string, string[]> {
  const seen = new Map<string, { file: string; space: string }[]>();
  for (const [file, names] of files)
    for (const { name, space } of names) seen.set(name, [...(seen.get(name) ?? []), { file, space }]);
  const twice = new Map<string, string[]>();
  for (const [name, at] of seen) {
    const files = [...new Set(at.map((a) => a.file))];
    const sameSpace = new Set(at.map((a) => `${a.file} ${a.space}`)).size < at.length;
    if (files.length > 1 || sameSpace) twice.set(name, at.map((a) => a.file).sort());
  }
  return twice;
}
