/**
 * @module `make bench`: runs every benchmark in bench/ one after another (never in parallel: they
 * measure the same two cores), each in its own process. `make bench ONLY=indexer` runs one.
 * Each benchmark prints its numbers and writes bench/results/<name>.json.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const dir = new URL('.', import.meta.url);
// the Makefile always passes ONLY, empty when every benchmark is wanted
const only = (process.env.ONLY ?? '').split(',').filter(Boolean);
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.includes('.lib.'))
  .map((f) => f.slice(0, -3))
  .sort();
const unknown = only.filter((n) => !all.includes(n));
if (unknown.length > 0) {
  console.error(`no benchmark named ${unknown.join(', ')} (there are: ${all.join(', ')})`);
  process.exit(2);
}
const names = only.length > 0 ? all.filter((n) => only.includes(n)) : all;

let failed = 0;
for (const name of names) {
  console.log(`\n=== bench/${name}.ts`);
  const result = spawnSync(process.execPath, ['--expose-gc', new URL(`${name}.ts`, dir).pathname], {
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    failed += 1;
    console.log(`bench/${name}.ts failed with status ${result.status}`);
  }
}
process.exit(failed === 0 ? 0 : 1);
