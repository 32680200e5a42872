/**
 * @module What the populator's stored transaction costs per transaction, as instructions (valgrind's cachegrind,
 * independent of load): `storedTxColumns` (the signed tx's bytes and the check that they render back as the node's
 * JSON) and `createdIds` (the derived ids), over the transactions of the indexer bench's devnode chain (seed
 * `bench`), as the node's JSON text parsed once. The chain is generated once and handed to the counted child as a
 * file; two child runs of different round counts, whose difference per transaction cancels Node's start and the
 * parsing. `node bench/stored-tx.ts` (BENCH_GENERATIONS, default 500; BENCH_STORED_TX_PART `stored` or `created`
 * counts one part alone); the child mode runs the rounds.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateChain } from '../src/devnode/index.ts';
import { txJson } from '../src/devnode/views.ts';
import { isJsonObject, parseJson, type Json } from '../src/chain/json.ts';
import { storedTxColumns } from '../src/chain/stored-tx.ts';
import { createdIds } from '../src/chain/tx-fields.ts';
import { countInstructions, perUnit, valgrindAvailable } from './instructions.lib.ts';

const generations = Number(process.env.BENCH_GENERATIONS ?? 500);
const PARTS = ['stored', 'created'] as const;
type Part = (typeof PARTS)[number];

/** runRounds parses the chain's transactions, then runs one part over all of them `rounds` times. */
function runRounds(file: string, rounds: number, part: Part): { txs: number; bytes: number } {
  const signed = (JSON.parse(readFileSync(file, 'utf8')) as string[]).map((t) => parseJson(t) as { [k: string]: Json });
  let bytes = 0;
  for (let r = 0; r < rounds; r++)
    for (const s of signed) {
      if (part === 'stored') bytes += storedTxColumns(s).size;
      else if (isJsonObject(s.tx)) bytes += Object.keys(createdIds(s.tx)).length;
    }
  return { txs: signed.length, bytes };
}

if (process.env.BENCH_STORED_TX_ROUNDS !== undefined) {
  const part = (process.env.BENCH_STORED_TX_PART ?? 'stored') as Part;
  const result = runRounds(process.env.BENCH_STORED_TX_FILE!, Number(process.env.BENCH_STORED_TX_ROUNDS), part);
  console.log(JSON.stringify(result));
} else {
  if (!valgrindAvailable()) throw new Error('valgrind is needed');
  const { chain } = generateChain({ generations, seed: 'bench' });
  const texts = [...chain.txs.values()].filter((r) => r.blockHash !== undefined).map((r) => txJson(r));
  const dir = mkdtempSync(join(tmpdir(), 'bench-stored-tx-'));
  const file = join(dir, 'txs.json');
  writeFileSync(file, JSON.stringify(texts));
  try {
    const only = process.env.BENCH_STORED_TX_PART;
    for (const part of PARTS.filter((p) => only === undefined || p === only)) {
      const run = async (rounds: number) => {
        const { instructions, report } = await countInstructions([import.meta.filename], {
          ...process.env,
          BENCH_STORED_TX_FILE: file,
          BENCH_STORED_TX_ROUNDS: String(rounds),
          BENCH_STORED_TX_PART: part,
        });
        return { count: instructions, units: rounds * (JSON.parse(report) as { txs: number }).txs };
      };
      const perTx = perUnit(await run(1), await run(4));
      const what = part === 'stored' ? 'storedTxColumns' : 'createdIds';
      console.log(`${what}: ${(perTx / 1000).toFixed(1)} k instructions per transaction (${texts.length} txs)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
