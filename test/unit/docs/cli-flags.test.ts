/**
 * @module Every flag the docs give an `mdw` command exists on that oclif command: in the command lines shown in
 * code (`mdw migrate --drop`, `mdw devnode --no-mine`, `mdw -v -H 1-2 --full`) and in a flag table under a heading
 * that names the command (docs/operations.md's `mdw dev` ports). Not every flag must be documented, but every command
 * is in README.md's table of commands.
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

/** flagTables lists the flags of each table headed `| flag |`, with the words after `mdw` in the heading above it. */
function flagTables(markdown: string): { words: string[]; tokens: string[] }[] {
  const tables: { words: string[]; tokens: string[] }[] = [];
  let heading = '';
  let inFlagTable = false;
  for (const line of withoutCodeBlocks(markdown).split('\n')) {
    if (/^#+ /.test(line)) heading = line;
    if (/^\| *flag *\|/.test(line)) {
      const words = /`mdw ([^`]*)`/.exec(heading)?.[1]?.split(' ') ?? [];
      tables.push({ words, tokens: [] });
      inFlagTable = true;
    } else if (inFlagTable && line.startsWith('|')) {
      tables.at(-1)!.tokens.push(...codeSpans(line.split('|')[1]!).filter((s) => s.startsWith('-')));
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
    expect(operations.flatMap((t) => t.tokens)).to.include('--pg-port');
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
      const uses = [...commandLines(markdown), ...flagTables(markdown).map((t) => [...t.words, ...t.tokens])];
      const unknown = uses.flatMap((words) => unknownFlags(commandOf(words), words));
      expect(unknown, `flags in ${file}`).to.deep.equal([]);
    });
  }
});
