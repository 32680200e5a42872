/**
 * @module What the populator's stored transaction costs per transaction, as instructions (valgrind's cachegrind,
 * independent of load): `storedTxColumns` (the signed tx's bytes and the check that they render back as the node's
 * JSON) and `createdIds` (the derived ids), over the transactions of the indexer bench's devnode chain (seed
 * `bench`), as the node's JSON text parsed once. The chain is generated once and handed to the counted child as a
 * file. Two child runs: one pass over the chain's first half (Node's start, the JIT's warm-up and what the id caches
 * remember of it), and the same followed by one pass over the second half, whose difference per transaction is the
 * cost of each transaction seen once as in a sync in progress (the caches meet what the chain repeats, no more).
 * `node bench/stored-tx.ts` (BENCH_GENERATIONS, default 1000; BENCH_STORED_TX_PART `stored` or `created` counts one
 * part alone; BENCH_STORED_TX_MAINNET_LIKE=1 the devnode's mainnet-like chain); the child mode runs the passes. V8
 * runs `--predictable`: without it the same count moved by a third from run to run (when its collector runs).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateChain } from '../src/devnode/index.ts';
import { txJson } from '../src/devnode/api/views.ts';
import { isJsonObject, parseJson, type Json } from '../src/chain/json.ts';
import { storedTxColumns } from '../src/chain/stored-tx.ts';
import { createdIds } from '../src/chain/tx-fields.ts';
import { countInstructions, perUnit, valgrindAvailable } from './instructions.lib.ts';

const generations = Number(process.env.BENCH_GENERATIONS ?? 1000);
const PARTS = ['stored', 'created'] as const;
type Part = (typeof PARTS)[number];

/** runPass parses the chain's transactions, then runs one part once over the first `count` of them. */
function runPass(file: string, count: number, part: Part): { txs: number; bytes: number } {
  const signed = (JSON.parse(readFileSync(file, 'utf8')) as string[]).map((t) => parseJson(t) as { [k: string]: Json });
  let bytes = 0;
  for (const s of signed.slice(0, count)) {
    if (part === 'stored') bytes += storedTxColumns(s).size;
    else if (isJsonObject(s.tx)) bytes += Object.keys(createdIds(s.tx)).length;
  }
  return { txs: count, bytes };
}

if (process.env.BENCH_STORED_TX_COUNT !== undefined) {
  const part = (process.env.BENCH_STORED_TX_PART ?? 'stored') as Part;
  console.log(
    JSON.stringify(runPass(process.env.BENCH_STORED_TX_FILE!, Number(process.env.BENCH_STORED_TX_COUNT), part)),
  );
} else if (!valgrindAvailable()) {
  console.log('stored transaction instruction counts skipped: valgrind is not installed');
} else {
  const mainnetLike = process.env.BENCH_STORED_TX_MAINNET_LIKE === '1';
  const { chain } = generateChain({ generations, seed: 'bench', ...(mainnetLike ? { profile: 'mainnet-like' } : {}) });
  const texts = [...chain.txs.values()].filter((r) => r.blockHash !== undefined).map((r) => txJson(r));
  const dir = mkdtempSync(join(tmpdir(), 'bench-stored-tx-'));
  const file = join(dir, 'txs.json');
  writeFileSync(file, JSON.stringify(texts));
  try {
    const only = process.env.BENCH_STORED_TX_PART;
    for (const part of PARTS.filter((p) => only === undefined || p === only)) {
      const run = async (count: number) => {
        const { instructions, report } = await countInstructions(['--predictable', import.meta.filename], {
          ...process.env,
          BENCH_STORED_TX_FILE: file,
          BENCH_STORED_TX_COUNT: String(count),
          BENCH_STORED_TX_PART: part,
        });
        return { count: instructions, units: (JSON.parse(report) as { txs: number }).txs };
      };
      const perTx = perUnit(await run(Math.floor(texts.length / 2)), await run(texts.length));
      const what = part === 'stored' ? 'storedTxColumns' : 'createdIds';
      const chainName = mainnetLike ? 'mainnet-like chain' : 'chain';
      console.log(
        `${what}: ${(perTx / 1000).toFixed(1)} k instructions per transaction (${chainName}, ${texts.length} txs)`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
