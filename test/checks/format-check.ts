/**
 * @module `make format-check`: Prettier's check of every file it formats (`prettier --check .`: the files git tracks or
 * would track, less those .prettierignore names), remembering in CACHE which passed, by their content, path and
 * Prettier's version and options: a later run, in this clone or a new one anywhere on the machine, formats only what
 * changed. Prettier's own cache cannot move: it keys each file's options by its absolute path, so a clone in a new folder
 * (as CI's and every fresh clone are) formatted all of its 1,500 files again, about 40 CPU-s.
 * The options are resolved as the CLI resolves them (.prettierrc, an .editorconfig).
 *
 *     node test/checks/format-check.ts CACHE
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as prettier from 'prettier';

const cache = process.argv[2];
if (cache === undefined) throw new Error('usage: node test/checks/format-check.ts CACHE');

const passedBefore = new Set(existsSync(cache) ? readFileSync(cache, 'utf8').split('\n') : []);
const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  maxBuffer: 2 ** 26,
})
  .toString()
  .split('\0')
  .filter((file) => file !== '' && existsSync(file)); // a tracked file deleted in the work tree is listed too

/** formatted is Prettier's check of one file; a file it cannot parse is named with the reason, as the CLI names it. */
async function formatted(file: string, source: string, options: prettier.Options): Promise<boolean> {
  try {
    return await prettier.check(source, options);
  } catch (err) {
    console.error(`[error] ${file}: ${err instanceof Error ? err.message : String(err)}`);
    return false;
  }
}

const passed: string[] = [];
const unformatted: string[] = [];
for (const file of files) {
  const info = await prettier.getFileInfo(file, { ignorePath: ['.gitignore', '.prettierignore'] });
  if (info.ignored || info.inferredParser === null) continue;
  const source = readFileSync(file, 'utf8');
  const options = { ...(await prettier.resolveConfig(file, { editorconfig: true })), filepath: file };
  const key = createHash('sha256')
    .update(JSON.stringify([prettier.version, options]))
    .update('\0')
    .update(source)
    .digest('hex');
  if (passedBefore.has(key) || (await formatted(file, source, options))) passed.push(key);
  else unformatted.push(file);
}

// written whole, then renamed: two clones checking at once never leave half a file
mkdirSync(dirname(cache), { recursive: true });
writeFileSync(`${cache}.${process.pid}`, passed.join('\n'));
renameSync(`${cache}.${process.pid}`, cache);

for (const file of unformatted) console.warn(`[warn] ${file}`);
if (unformatted.length > 0) {
  console.warn(`[warn] Code style issues found in ${unformatted.length} files. Run Prettier with --write to fix.`);
  process.exitCode = 1;
}
