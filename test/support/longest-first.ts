/**
 * @module The test files that cost most, costliest first, from a full run's per-file log (cpu-per-file.ts):
 *
 *     MDW_TEST_CPU_LOG=/tmp/cpu.ndjson make unit
 *     node test/support/longest-first.ts /tmp/cpu.ndjson > test/support/longest-first.txt
 *
 * `make unit` hands mocha's workers the files of test/support/longest-first.txt before all others, in its order: a
 * long file a worker takes late is the run's tail, the other workers idle while it ends (longest processing time
 * first). A file's cost is its CPU seconds (its worker's, its children's, its PostgreSQL backends'): the suite keeps
 * both cores busy, so that is its share of the run, where its wall depends on what ran beside it (a file's wall in one
 * loaded run was 6 to 17 times its CPU). The real control plane's files come first whatever the log says: most of
 * their minutes are waits (leases, rollouts, a minute of reconcile passes) that CPU seconds do not show. Files under
 * MIN_CPU_S are left out: the folders' order places them.
 */
import { readFileSync } from 'node:fs';

const MIN_CPU_S = 3;
const WAITING_MOST = ['test/operator/real/operator.test.ts', 'test/operator/real/snapshot.test.ts'];

const [log] = process.argv.slice(2);
if (log === undefined) throw new Error('usage: node test/support/longest-first.ts <MDW_TEST_CPU_LOG file>');
const costs = readFileSync(log, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { file: string; worker: number; children: number; pg: number })
  .map((f) => ({ file: f.file, cpu: f.worker + f.children + f.pg }))
  .filter((f) => f.cpu >= MIN_CPU_S && !WAITING_MOST.includes(f.file))
  .sort((a, b) => b.cpu - a.cpu);
for (const file of [...WAITING_MOST, ...costs.map((f) => f.file)]) console.log(file);
