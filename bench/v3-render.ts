/**
 * @module What a /v3 transaction page costs per row in the server's CPU, as instructions (valgrind's
 * cachegrind, independent of load): the stored transaction's rendering (chain/stored-tx.ts, from the bytes the
 * pg type parser hands over), then ae_mdw's Transaction (`encoded_tx`, `tx` with mdw's fields, its JSON text), over
 * the signed transactions of
 * a generated devnode chain. Two child runs of different round counts; the difference per row cancels
 * Node's start. `node bench/v3-render.ts` (BENCH_GENERATIONS, default 100); the child mode renders.
 */
import { generateChain } from '../src/devnode/index.ts';
import { txJson } from '../src/devnode/api/views.ts';
import { parseJson, type Json } from '../src/chain/json.ts';
import { encodedStoredTx, renderStoredTx, storedTxColumns } from '../src/chain/stored-tx.ts';
import { transactionJson } from '../src/shapes/v3/render-tx.ts';
import { createdIdOf } from '../src/chain/tx-fields.ts';
import type { TxRow } from '../src/db/queries/transactions.ts';
import { countInstructions, perUnit, valgrindAvailable } from './instructions.lib.ts';

const generations = Number(process.env.BENCH_GENERATIONS ?? 100);

/** rows are the chain's transactions as stored: the row's fields, and the stored form pg hands over. */
function rows(): { row: Omit<TxRow, 'tx' | 'signatures'>; signed: Buffer }[] {
  const { chain } = generateChain({ generations, seed: 'bench-v3-render' });
  return [...chain.txs.values()]
    .filter((r) => r.blockHash !== undefined)
    .map((r) => {
      const s = parseJson(txJson(r)) as { [k: string]: Json };
      const tx = s.tx as { [k: string]: Json };
      const { signed } = storedTxColumns(s);
      return {
        row: {
          hash: String(s.hash),
          height: Number(s.block_height),
          microBlockHash: String(s.block_hash),
          microIndex: 0,
          txIndex: 0,
          microTimeMs: '0',
          txType: String(tx.type),
          signed: Buffer.from(signed),
          // read with the row (db/queries/signed-base64.ts)
          encoded: encodedStoredTx(signed),
          createdId: createdIdOf(tx),
          call: null,
          name: null,
          parties: null,
          gaCall: null,
        },
        signed: Buffer.from(signed),
      };
    });
}

if (process.env.BENCH_V3_RENDER_ROUNDS !== undefined) {
  const list = rows();
  let bytes = 0;
  for (let r = 0; r < Number(process.env.BENCH_V3_RENDER_ROUNDS); r++)
    for (const { row, signed } of list) bytes += transactionJson({ ...row, ...renderStoredTx(signed) }).length;
  console.log(JSON.stringify({ rows: list.length, bytes }));
} else {
  if (!valgrindAvailable()) throw new Error('valgrind is needed');
  const run = async (rounds: number) => {
    const { instructions, report } = await countInstructions([import.meta.filename], {
      ...process.env,
      BENCH_V3_RENDER_ROUNDS: String(rounds),
    });
    return { count: instructions, units: rounds * (JSON.parse(report) as { rows: number }).rows };
  };
  const [one, six] = [await run(1), await run(6)];
  const perRow = perUnit(one, six);
  console.log(`v3 transaction rendering: ${Math.round(perRow / 1000)} k instructions per row (${one.units} rows)`);
}
