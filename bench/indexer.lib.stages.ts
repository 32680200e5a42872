/**
 * @module The populator's stages after the fetch, alone in a process, for instruction counts of one stage (valgrind)
 * or a CPU profile of it. Fetches every generation up to BENCH_TOP from NODE_URL, decodes its calls (the code of
 * contracts not created in the chain is asked from the node), then runs BENCH_STAGE BENCH_PASSES times:
 * `transform` (transformGeneration of every generation), `encode` (the writer's COPY encoding of the transformed rows,
 * encodeRows), `both`, `decode` (the contract calls' decoding, decodeCalls, its caches warm from the first decoding)
 * or `all` (decode, transform and encode, as the loader prepares a batch); a pass's results stay alive through the next, like the batch being written while the next
 * is prepared (so `both` with Node's --max-semi-space-size counts what the young generation's size costs). The cost of one pass is the difference of two counts whose passes differ (the fetch and the
 * start cancel). Prints one JSON line: transactions, passes, CPU seconds of the passes.
 *
 *   valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null node --single-threaded \
 *     bench/indexer.lib.stages.ts   (NODE_URL of a `mdw devnode --generate 500 --seed bench`, BENCH_TOP=500,
 *                                    BENCH_STAGE=encode, BENCH_PASSES=1 and 6)
 */
import pino from 'pino';
import { loadConfig } from '../src/config/middleware.ts';
import { NodeClient } from '../src/node/client.ts';
import { fetchGenerations } from '../src/indexer/sync/fetch.ts';
import { ContractDecoder, createdContractCode } from '../src/indexer/contracts/contract-decoder.ts';
import { transformGeneration } from '../src/indexer/rows/transform.ts';
import { encodeRows } from '../src/indexer/rows/writer.ts';
import type { FetchedGeneration, GenerationRows } from '../src/indexer/rows/rows.ts';

const cfg = loadConfig(process.env);
const top = Number(process.env.BENCH_TOP);
const passes = Number(process.env.BENCH_PASSES ?? 1);
const stage = process.env.BENCH_STAGE ?? 'both';
if (!['transform', 'encode', 'both', 'decode', 'all'].includes(stage))
  throw new Error(`BENCH_STAGE: transform, encode, both, decode or all`);
const node = new NodeClient({ url: cfg.nodeUrls, timeoutMs: cfg.nodeTimeoutMs }, pino({ level: 'warn' }));
// no stored contracts: a called contract's code comes from the batch or the node
const decoder = new ContractDecoder({
  timeoutMs: cfg.nodeTimeoutMs,
  db: { query: async () => ({ rows: [] }) } as never,
  node,
});
const gens: FetchedGeneration[] = [];
const batches: { fetched: FetchedGeneration[]; code: Map<string, string> }[] = [];
for (let from = 0; from <= top; from += cfg.batchSize) {
  const heights = Array.from({ length: Math.min(cfg.batchSize, top - from + 1) }, (_, i) => from + i);
  const fetched = await fetchGenerations(node, heights, cfg.fetchConcurrency);
  const code = createdContractCode(fetched.flatMap((g) => g.microBlocks.flatMap((m) => m.transactions)));
  gens.push(...(await decoder.decodeCalls(fetched, code)));
  decoder.rememberCode(code);
  batches.push({ fetched, code });
}
const transactions = gens.reduce((n, g) => n + g.microBlocks.reduce((m, mb) => m + mb.transactions.length, 0), 0);
let rows: GenerationRows[] = stage === 'encode' ? gens.map(transformGeneration) : [];
const cpu0 = process.cpuUsage();
let bytes = 0;
// each pass's rows and payloads stay alive through the next pass, as a batch being written does while the populator
// prepares the next one: the collector then has the populator's kind of survivors to copy
const alive: unknown[] = [];
for (let pass = 0; pass < passes; pass++) {
  const made: { decoded?: FetchedGeneration[]; rows?: GenerationRows[]; payloads?: unknown } = {};
  let decoded = gens;
  if (stage === 'decode' || stage === 'all') {
    decoded = made.decoded = [];
    for (const { fetched, code } of batches) decoded.push(...(await decoder.decodeCalls(fetched, code)));
  }
  if (stage !== 'encode' && stage !== 'decode') rows = made.rows = decoded.map(transformGeneration);
  if (stage !== 'transform' && stage !== 'decode') {
    const encoded = (made.payloads = await encodeRows(rows));
    for (const chunks of encoded.values()) for (const c of chunks) bytes += c.length;
  }
  alive.push(made);
  if (alive.length > 2) alive.shift();
}
const cpu = process.cpuUsage(cpu0);
process.stdout.write(
  `${JSON.stringify({ top, transactions, stage, passes, bytes, cpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`,
);
