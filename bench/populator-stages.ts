/**
 * @module The populator's own CPU after the fetch, per transaction, as instructions (valgrind's cachegrind, Node
 * `--single-threaded --predictable`; independent of the machine's load): each stage of bench/indexer.lib.stages.ts
 * (contract call decoding, transform, COPY encoding, or all three as the loader prepares a batch) over the devnode's
 * mainnet-like chain, counted with one pass and with three, whose difference per transaction and pass is the stage's
 * cost with the JIT and the caches warm (the fetch, Node's start and the first pass cancel).
 *
 *   node bench/populator-stages.ts   (make bench ONLY=populator-stages; BENCH_POPULATOR_STAGES=all by default, or a
 *                                     comma-separated list of decode, transform, encode, both, all;
 *                                     BENCH_POPULATOR_STAGES_GENERATIONS=300; needs valgrind, a few minutes per stage)
 */
import { startDevnodeProcess, killChildrenOnExit } from './http.lib.ts';
import { countInstructions, valgrindAvailable } from './instructions.lib.ts';

const GENERATIONS = Number(process.env.BENCH_POPULATOR_STAGES_GENERATIONS ?? 300);
const STAGES = (process.env.BENCH_POPULATOR_STAGES ?? 'all').split(',').filter(Boolean);
const PASSES = [1, 3] as const;

if (!valgrindAvailable()) {
  console.log('populator stage instruction counts skipped: valgrind is not installed');
} else {
  killChildrenOnExit();
  const devnode = await startDevnodeProcess(['--generate', String(GENERATIONS), '--seed', 'bench', '--mainnet-like']);
  try {
    console.log(`populator stages, mainnet-like chain of ${GENERATIONS} generations (instructions per tx and pass):`);
    for (const stage of STAGES) {
      const counts = [];
      for (const passes of PASSES) {
        const { instructions, report } = await countInstructions(
          ['--predictable', new URL('indexer.lib.stages.ts', import.meta.url).pathname],
          {
            ...process.env,
            NODE_URL: devnode.url,
            BENCH_TOP: String(GENERATIONS),
            BENCH_STAGE: stage,
            BENCH_PASSES: String(passes),
          },
        );
        counts.push({ instructions, ...(JSON.parse(report) as { transactions: number; bytes: number }) });
      }
      const [one, three] = counts as [(typeof counts)[0], (typeof counts)[0]];
      const perTx = (three.instructions - one.instructions) / (one.transactions * (PASSES[1] - PASSES[0]));
      console.log(
        `  ${stage}: ${(perTx / 1000).toFixed(1)}k (${one.transactions} transactions; COPY bytes per pass ${one.bytes})`,
      );
    }
  } finally {
    await devnode.stop();
  }
}
