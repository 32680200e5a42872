/**
 * @module Every flag the docs give an `mdw` command exists on that oclif command: in the command lines shown in
 * code (`mdw migrate --drop`, `mdw devnode --no-mine`, `mdw -v -H 1-2 --full`) and in a flag table under a heading
 * that names the command (docs/operations.md's `mdw dev` ports), whose default column shows the flag's default. Not
 * every flag must be documented, but every command is in README.md's table of commands.
 */
import { expect } from 'chai';
import { COMMANDS } from '../../../src/cli/commands.ts';
import { codeBlockLines, codeSpans, markdownFiles, readDoc, tableRows, withoutCodeBlocks } from './markdown.ts';

type CommandId = keyof typeof COMMANDS;
interface FlagSpec {
  readonly char?: string;
  readonly allowNo?: boolean;
}

/** oclif's own flags, on every command (package.json adds -V and -h) */
const GLOBAL_LONG = ['help', 'version'];
const GLOBAL_SHORT = ['h', 'V'];

/** commandOf finds the command the words after `mdw` name (`db usage` is `db:usage`); none names the root, `run`. */
function commandOf(words: readonly string[]): CommandId {
  const ids = Object.keys(COMMANDS) as CommandId[];
  return ids.find((id) => id === `${words[0]}:${words[1]}`) ?? ids.find((id) => id === words[0]) ?? 'run';
}

/** unknownFlags lists the flags among `tokens` (`--name`, `--no-name`, `--name=v`, `-x`, `-xy`, `-H1-2`) that `command` lacks. */
function unknownFlags(command: CommandId, tokens: readonly string[]): string[] {
  const flags = COMMANDS[command].flags as Record<string, FlagSpec>;
  const hasLong = (name: string): boolean =>
    GLOBAL_LONG.includes(name) || name in flags || (name.startsWith('no-') && flags[name.slice(3)]?.allowNo === true);
  const hasShort = (c: string): boolean => GLOBAL_SHORT.includes(c) || Object.values(flags).some((f) => f.char === c);
  return tokens.flatMap((token) => {
    const long = /^--([a-z][a-z0-9-]*)/.exec(token)?.[1];
    if (long !== undefined) return hasLong(long) ? [] : [`mdw ${command} ${token}`];
    const shorts = /^-([a-zA-Z]+)/.exec(token)?.[1] ?? ''; // -H1,3-4: the letters before the value
    return [...shorts].filter((c) => !hasShort(c)).map((c) => `mdw ${command} -${c} (in ${token})`);
  });
}

/** commandLines lists the words after `mdw` in the docs' code, up to a shell operator, a comment or the span's end. */
function commandLines(markdown: string): string[][] {
  const code = [...codeSpans(withoutCodeBlocks(markdown)), ...codeBlockLines(markdown)];
  return code.flatMap((text) =>
    // a command starts a line or follows |, ;, & or $( (after any VAR=value): `kubectl get mdw -A` is no mdw command
    [
      ...text.matchAll(
        /(?:^|[|;&(])\s*(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:node\s+)?(?:bin\/)?mdw(?:\.js)?\s+([^|;&#\n]*)/gm,
      ),
    ].map((m) => m[1]!.split(/\s+/).map((word) => word.replace(/^\[|\]$/g, ''))),
  );
}

interface FlagTable {
  /** the words after `mdw` in the heading above the table (`dev` for "### `mdw dev` beside other things") */
  readonly words: string[];
  /** each row's flags (`--node-port`, `--node-internal-port`) and, when the table has a default column, its cell */
  readonly rows: { flags: string[]; defaults: string | undefined }[];
}

/** flagTables reads the tables headed `| flag |`, each with the command named in the heading above it. */
function flagTables(markdown: string): FlagTable[] {
  const tables: FlagTable[] = [];
  let heading = '';
  let defaultColumn = false;
  let inFlagTable = false;
  for (const line of withoutCodeBlocks(markdown).split('\n')) {
    if (/^#+ /.test(line)) heading = line;
    const cells = line.split('|').map((c) => c.trim());
    if (cells[1] === 'flag') {
      tables.push({ words: /`mdw ([^`]*)`/.exec(heading)?.[1]?.split(' ') ?? [], rows: [] });
      defaultColumn = cells[2] === 'default';
      inFlagTable = true;
    } else if (inFlagTable && line.startsWith('|')) {
      const flags = codeSpans(cells[1]!).filter((s) => s.startsWith('-'));
      if (flags.length > 0) tables.at(-1)!.rows.push({ flags, defaults: defaultColumn ? cells[2] : undefined });
    } else inFlagTable = false;
  }
  return tables;
}

describe('docs: the mdw flags the docs use exist', () => {
  it('reads the commands and the docs (the parsing works)', () => {
    expect(commandOf(['db', 'usage', '--schema-prefix', 'x'])).to.equal('db:usage');
    expect(commandOf(['-v', '-H', '1-2'])).to.equal('run');
    expect(unknownFlags('run', ['-v', '-H1,3-4', '--full', '--fulll', '-q'])).to.deep.equal([
      'mdw run --fulll',
      'mdw run -q (in -q)',
    ]);
    expect(unknownFlags('devnode', ['--no-mine', '--no-seed'])).to.deep.equal(['mdw devnode --no-seed']);
    const operations = flagTables(readDoc('docs/operations.md'));
    expect(operations.map((t) => t.words)).to.deep.include(['dev']);
    expect(operations.flatMap((t) => t.rows.flatMap((r) => r.flags))).to.include('--pg-port');
  });

  it("lists every command in README.md's table of commands", () => {
    const shown = tableRows(readDoc('README.md')).flatMap((row) => codeSpans(row[0]!));
    const missing = Object.keys(COMMANDS)
      .filter((id) => id !== 'run')
      .map((id) => `mdw ${id.replace(':', ' ')}`)
      .filter((command) => !shown.some((span) => span === command || span.startsWith(`${command} `)));
    expect(missing).to.deep.equal([]);
  });

  for (const file of markdownFiles()) {
    it(file, () => {
      const markdown = readDoc(file);
      const tables = flagTables(markdown).map((t) => [...t.words, ...t.rows.flatMap((r) => r.flags)]);
      const uses = [...commandLines(markdown), ...tables];
      const unknown = uses.flatMap((words) => unknownFlags(commandOf(words), words));
      expect(unknown, `flags in ${file}`).to.deep.equal([]);
    });
  }

  it("shows each flag's default in its flag table's default column", () => {
    const wrong = markdownFiles().flatMap((file) =>
      flagTables(readDoc(file)).flatMap(({ words, rows }) => {
        const flags = COMMANDS[commandOf(words)].flags as Record<string, { default?: unknown; type: string }>;
        return rows.flatMap(({ flags: names, defaults }) =>
          names
            .map((name) => ({ name, spec: flags[name.replace(/^--/, '')] }))
            .filter(({ spec }) => defaults !== undefined && spec?.type === 'option' && spec.default !== undefined)
            .filter(({ spec }) => !defaults!.includes(String(spec!.default)))
            .map(({ name, spec }) => `${file}: mdw ${words.join(' ')} ${name} defaults to ${String(spec!.default)}`),
        );
      }),
    );
    expect(wrong).to.deep.equal([]);
  });
});
