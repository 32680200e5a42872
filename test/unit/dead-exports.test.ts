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
function fileNames(file: string, text = readFileSync(file, 'utf8')): { uses: Map<string, number>; exported: string[] } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
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
    const names = new Map(sourceFiles(join(ROOT, 'src')).map((f) => [f, fileNames(f)]));
    const total = new Map<string, number>();
    const count = (uses: Map<string, number>): void => {
      for (const [name, n] of uses) total.set(name, (total.get(name) ?? 0) + n);
    };
    for (const { uses } of names.values()) count(uses);
    // the exports src/ names nowhere but at their declaration: a file of test/ or bench/ can use only these, by an
    // identifier whose text is in the file's, so only a file whose text holds one as a word is parsed (some 50 of 730)
    const candidates = [...names.values()].flatMap(({ exported }) => exported.filter((n) => total.get(n) === 1));
    const word = new RegExp(`(?<![\\w$])(?:${candidates.map((n) => n.replaceAll('$', '\\$')).join('|')})(?![\\w$])`);
    for (const file of ['test', 'bench'].flatMap((dir) => sourceFiles(join(ROOT, dir)))) {
      const text = readFileSync(file, 'utf8');
      if (candidates.length > 0 && word.test(text)) count(fileNames(file, text).uses);
    }
    const dead = [...names].flatMap(([file, { exported }]) =>
      exported.filter((n) => total.get(n) === 1).map((n) => `${relative(ROOT, file)} ${n}`),
    );
    expect(dead).to.deep.equal([]);
  });
});
