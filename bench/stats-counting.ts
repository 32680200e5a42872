/**
 * @module What counting a batch's statistics in memory costs the populator per transaction (issue 15): instructions
 * (valgrind's cachegrind, independent of load) of indexer/derived/stats-series.ts, stats-accounts.ts and stats-generations.ts over the default
 * devnode chain (seed `bench`), with `pg`'s preparation of the arrays the writer hands over. Two child runs
 * (bench/stats-counting.lib.ts) fetch and transform the same chain and count it 1 and 1 + BENCH_STATS_PASSES times: the
 * difference per pass and transaction is the counting's cost, Node's start, the fetch and the transform cancelling.
 * It moves CPU from PostgreSQL (bench/postgres-instructions.ts) to the populator's thread: the two together are the net.
 *
 *   node bench/stats-counting.ts   (BENCH_GENERATIONS=1000, BENCH_STATS_PASSES=4; needs valgrind; about a minute)
 */
import { countInstructions, perUnit, valgrindAvailable } from './instructions.lib.ts';
import { startDevnodeProcess } from './http.lib.ts';
import { writeResult } from './results.lib.ts';

const generations = Number(process.env.BENCH_GENERATIONS ?? 1000);
const passes = Number(process.env.BENCH_STATS_PASSES ?? 4);

if (!valgrindAvailable()) console.log('stats counting instructions skipped: valgrind is not installed');
else {
  const devnode = await startDevnodeProcess(['--generate', String(generations), '--seed', 'bench']);
  try {
    const run = async (n: number): Promise<{ count: number; units: number; txs: number; rows: number }> => {
      const { instructions, report } = await countInstructions(
        ['--predictable', new URL('stats-counting.lib.ts', import.meta.url).pathname],
        {
          PATH: process.env.PATH,
          NODE_URL: devnode.url,
          DATABASE_URL: 'postgres://unused',
          BENCH_TOP: String(generations),
          BENCH_PASSES: String(n),
        },
      );
      const r = JSON.parse(report) as { transactions: number; rowsPerPass: number };
      return { count: instructions, units: n, txs: r.transactions, rows: r.rowsPerPass };
    };
    const one = await run(1);
    const more = await run(1 + passes);
    const perPass = perUnit(one, more);
    writeResult('stats-counting', {
      benchmark: 'stats-counting',
      date: new Date().toISOString(),
      command: 'node bench/stats-counting.ts',
      generations: generations + 1,
      transactions: one.txs,
      rowsPerPass: one.rows,
      instructions: { perPass, perTransaction: perPass / one.txs },
    });
    console.log(
      `stats counted in memory (valgrind, ${generations + 1} generations, ${one.txs} txs, ${one.rows} rows a pass): ` +
        `${(perPass / 1e6).toFixed(1)} M instructions a pass, ${(perPass / one.txs / 1000).toFixed(2)}k per tx`,
    );
  } finally {
    await devnode.stop();
  }
}
