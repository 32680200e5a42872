/**
 * @module The populator's counting of a batch's statistics in memory (indexer/derived/stats-series.ts, stats-accounts.ts, stats-generations.ts),
 * alone in a process for instruction counts: fetches and transforms every generation up to BENCH_TOP from NODE_URL,
 * then counts each batch of BATCH_SIZE generations BENCH_PASSES times, with the array parameters of its statements
 * made as the stored derivation makes them (db/connection/array-text.ts). The ids' numbers come from a map, as the writer's
 * AccountNumbers gives them once resolved. Prints one JSON line: transactions, passes, rows counted per pass.
 */
import pino from 'pino';
import { idKey } from '../src/chain/id-key.ts';
import { difficultyOf, hashrateOf } from '../src/chain/stats-intervals.ts';
import { toSafeNumber } from '../src/chain/json.ts';
import { loadConfig } from '../src/config/middleware.ts';
import { arrayText } from '../src/db/connection/array-text.ts';
import { fetchGenerations } from '../src/indexer/sync/fetch.ts';
import type { GenerationRows } from '../src/indexer/rows/rows.ts';
import { countedAccounts } from '../src/indexer/derived/stats-accounts.ts';
import { countedGenerations } from '../src/indexer/derived/stats-generations.ts';
import { countedSeries } from '../src/indexer/derived/stats-series.ts';
import { transformGeneration } from '../src/indexer/rows/transform.ts';
import { NodeClient } from '../src/node/client.ts';

const cfg = loadConfig(process.env);
const top = Number(process.env.BENCH_TOP);
const passes = Number(process.env.BENCH_PASSES ?? 1);
const node = new NodeClient({ url: cfg.nodeUrls, timeoutMs: cfg.nodeTimeoutMs }, pino({ level: 'warn' }));
const batches: GenerationRows[][] = [];
for (let from = 0; from <= top; from += cfg.batchSize) {
  const heights = Array.from({ length: Math.min(cfg.batchSize, top - from + 1) }, (_, i) => from + i);
  batches.push((await fetchGenerations(node, heights, cfg.fetchConcurrency)).map(transformGeneration));
}
// numbers as the writer makes them (8 × n + the key's tag, account_ids)
const numbers = new Map<string, number>();
for (const batch of batches)
  for (const g of batch)
    for (const r of g.accountTxs)
      if (!numbers.has(r.account)) numbers.set(r.account, 8 * numbers.size + idKey(r.account)[0]!);
const ids = { number: (id: string): number => numbers.get(id)! };
const figures = batches.map(
  (batch) =>
    new Map(
      batch.map((g) => {
        const difficulty = difficultyOf(toSafeNumber(g.keyBlock.data.target ?? 0));
        return [g.keyBlock.height, { difficulty, hashrate: hashrateOf(difficulty) }] as const;
      }),
    ),
);
// what the batch's statements would return for the series: each key block's beneficiary, each generation's contracts
// (no names: the statement's figure), the AEX-9 logs of transfers, mints and burns per micro block
const derived = batches.map((batch) => ({
  miners: batch.map((g) => ({ height: g.keyBlock.height, miner: g.keyBlock.beneficiary })),
  generations: batch.map((g) => ({
    height: g.keyBlock.height,
    names_activated: 0,
    contracts_created: g.transactions.filter((t) => t.txType === 'ContractCreateTx').length,
  })),
  aex9Transfers: batch.flatMap((g) => {
    const perMicro = new Map<number, number>();
    for (const l of g.aexn.aex9Logs)
      if (['transfer', 'mint', 'burn'].includes(l.kind))
        perMicro.set(l.microIndex, (perMicro.get(l.microIndex) ?? 0) + 1);
    return [...perMicro].map(([micro_index, count]) => ({ height: g.keyBlock.height, micro_index, count }));
  }),
}));
let rows = 0;
let bytes = 0;
for (let pass = 0; pass < passes; pass++)
  for (const [i, batch] of batches.entries()) {
    const series = countedSeries(batch, figures[i]!, derived[i]!);
    const accounts = countedAccounts(batch, { rows: [batch.flatMap((g) => g.accountTxs)], numbers: ids });
    const generations = countedGenerations(batch);
    // the statements' array parameters as the stored derivation hands them to pg (db/connection/array-text.ts)
    for (const values of [
      ...Object.values(series.rows),
      ...Object.values(series.daySums),
      ...Object.values(accounts.firstSeen),
      ...Object.values(accounts.active),
      ...Object.values(generations),
    ] as (readonly string[])[])
      bytes += arrayText(values).length;
    rows += series.rows.heights.length + series.daySums.days.length;
    rows += accounts.firstSeen.accounts.length + accounts.active.accounts.length;
  }
const transactions = batches.reduce((n, b) => n + b.reduce((m, g) => m + g.transactions.length, 0), 0);
process.stdout.write(
  `${JSON.stringify({ top, transactions, passes, rowsPerPass: rows / passes, bytesPerPass: bytes / passes })}\n`,
);
