import { expect } from 'chai';
import type { Json } from '../../../src/chain/json.ts';
import { generationFees } from '../../../src/indexer/internal-transfers.ts';
import type { GenerationRows } from '../../../src/indexer/rows.ts';

type Obj = { [key: string]: Json };
const rows = (txs: { hash: string; tx: Obj }[], gas: Record<string, number>): GenerationRows =>
  ({
    transactions: txs.map((t) => ({ txHash: t.hash, tx: t.tx })),
    contractCalls: Object.entries(gas).map(([txHash, used]) => ({ txHash, callInfo: { gas_used: used } })),
  }) as unknown as GenerationRows;

describe('generationFees (what the node pays out of a generation)', () => {
  it("sums every fee, inner transactions' included, and each call's gas used times its price", () => {
    const spend = { type: 'SpendTx', fee: 20_000 };
    const call = { type: 'ContractCallTx', fee: 100_000, gas_price: 1_000_000_000 };
    const paid = {
      type: 'PayingForTx',
      fee: 5,
      tx: { signatures: [], tx: { type: 'ContractCreateTx', fee: 7, gas_price: 2 } },
    };
    const gen = rows(
      [
        { hash: 'th_spend', tx: spend },
        { hash: 'th_call', tx: call },
        { hash: 'th_paid', tx: paid },
      ],
      { th_call: 300, th_paid: 11 },
    );
    expect(generationFees(gen)).to.equal(20_000n + 100_000n + 300n * 1_000_000_000n + 5n + 7n + 11n * 2n);
  });

  it('keeps integers above 2^53 exact', () => {
    const fee = 2n ** 60n + 1n;
    expect(generationFees(rows([{ hash: 'th_a', tx: { type: 'SpendTx', fee } }], {}))).to.equal(fee);
  });
});
