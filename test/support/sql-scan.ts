/** @module Finds SQL statements and `pg` imports in TypeScript source, with TypeScript's own parser (test/unit/db/sql-only-in-db.test.ts). */
import ts from 'typescript';

/** What starts an SQL statement (upper case, as the project writes SQL), or an SQL function only the database runs. */
const SQL =
  /^\s*(?:SELECT\s.+\sFROM\s|SELECT\s+(?:pg_|\d)|INSERT\s+INTO\s|UPDATE\s+\S+\s+SET\s|DELETE\s+FROM\s|WITH\s+\w+\s+AS\s*\(|COPY\s+\S+.*\s(?:FROM|TO)\s|(?:UN)?LISTEN\s+(?:\w+|\x22[^\x22]*\x22)\s*$|NOTIFY\s|BEGIN(?:\s|$)|COMMIT$|ROLLBACK$|(?:CREATE|DROP|ALTER|TRUNCATE)\s+(?:TABLE|SCHEMA|DATABASE|INDEX|VIEW|FUNCTION|TRIGGER)\s|SET\s+(?:LOCAL\s+)?\w+\s*(?:=|TO)\s)|\bpg_(?:notify|advisory_\w+)\s*\(|\bISOLATION\s+LEVEL\b/s;

/**
 * MAYBE is in the text of every file SQL matches in, or that imports `pg`: a word a statement starts with, a `pg_`
 * function, or a quote before `pg`. Nine files in ten have none and are not parsed (parsing was most of the scan's
 * work); a literal spelling its keyword with escapes (`\x53ELECT`) would pass unread, as SQL split over a `+` does.
 */
const MAYBE =
  /SELECT|INSERT|UPDATE|DELETE|WITH|COPY|LISTEN|NOTIFY|BEGIN|COMMIT|ROLLBACK|CREATE|DROP|ALTER|TRUNCATE|SET|pg_|ISOLATION|['"]pg/;

/** sqlIn lists the string literals and templates of a file that hold SQL, and its imports of `pg`. */
export function sqlIn(fileName: string, text: string): string[] {
  if (!MAYBE.test(text)) return [];
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      const from = node.moduleSpecifier;
      if (from && ts.isStringLiteral(from) && /^pg(?:-|$|\/)/.test(from.text)) found.push(`import from '${from.text}'`);
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg) && /^pg(?:-|$|\/)/.test(arg.text)) found.push(`import('${arg.text}')`);
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (SQL.test(node.text)) found.push(node.text);
    } else if (ts.isTemplateExpression(node)) {
      // the template's text with each substitution as a placeholder
      const text = [node.head.text, ...node.templateSpans.map((s) => `x${s.literal.text}`)].join('');
      if (SQL.test(text)) found.push(text);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
