/**
 * @module The test files that ran longest, longest first, from a full run's per-file log (cpu-per-file.ts):
 *
 *     MDW_TEST_CPU_LOG=/tmp/cpu.ndjson make unit
 *     node test/support/longest-first.ts /tmp/cpu.ndjson > test/support/longest-first.txt
 *
 * `make unit` hands mocha's workers the files of test/support/longest-first.txt before all others, in its order: a
 * long file a worker takes late is the run's tail, the other workers idle while it ends (longest processing time
 * first). Files that took under MIN_WALL_S are left out: the folders' order places them.
 */
import { readFileSync } from 'node:fs';

const MIN_WALL_S = 20;

const [log] = process.argv.slice(2);
if (log === undefined) throw new Error('usage: node test/support/longest-first.ts <MDW_TEST_CPU_LOG file>');
const files = readFileSync(log, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { file: string; wall: number })
  .filter((f) => f.wall >= MIN_WALL_S)
  .sort((a, b) => b.wall - a.wall);
for (const f of files) console.log(f.file);
