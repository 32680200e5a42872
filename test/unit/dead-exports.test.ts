/**
 * @module Every function, constant, class and enum src/ exports is used: by name somewhere in src/, test/ or bench/
 * besides its declaration. A helper nobody calls is dead code that still reads as a way of doing things.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

const ROOT = new URL('../../', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Declarations whose kind holds a value: what a caller can call or read. */
const VALUE_DECLARATIONS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.VariableStatement,
]);

/** fileNames reads a file's identifiers (counted) and the value names it exports. */
function fileNames(file: string): { uses: Map<string, number>; exported: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const uses = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) uses.set(node.text, (uses.get(node.text) ?? 0) + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const exported = source.statements.flatMap((s) => {
    if (!VALUE_DECLARATIONS.has(s.kind)) return [];
    if (!ts.getModifiers(s as ts.HasModifiers)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return [];
    if (ts.isVariableStatement(s))
      return s.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
    const name = (s as ts.FunctionDeclaration | ts.ClassDeclaration | ts.EnumDeclaration).name;
    return name ? [name.text] : [];
  });
  return { uses, exported };
}

describe('exports of src/', () => {
  it('are each used besides their declaration', function () {
    this.timeout(60_000);
    const files = ['src', 'test', 'bench'].flatMap((dir) => sourceFiles(join(ROOT, dir)));
    const names = new Map(files.map((f) => [f, fileNames(f)]));
    const total = new Map<string, number>();
    for (const { uses } of names.values()) for (const [name, n] of uses) total.set(name, (total.get(name) ?? 0) + n);
    const dead = [...names].flatMap(([file, { exported }]) =>
      file.startsWith(join(ROOT, 'src'))
        ? exported.filter((n) => total.get(n) === 1).map((n) => `${relative(ROOT, file)} ${n}`)
        : [],
    );
    expect(dead).to.deep.equal([]);
  });
});
