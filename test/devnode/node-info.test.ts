/** @module recentGasPrices alone: the node's four windows over the micro blocks of the last hour. */
import { expect } from 'chai';
import type { MicroBlock, TxRecord } from '../../src/devnode/chain.ts';
import { recentGasPrices } from '../../src/devnode/api/node-info.ts';

const NOW = 10_000_000;

function micro(ageMs: number, infos: { gas_price: number; gas_used: number }[]): MicroBlock {
  const txs = infos.map((info) => ({ callInfo: info }) as unknown as TxRecord);
  return { kind: 'micro', header: { time: NOW - ageMs }, hash: 'mh_x', txs } as unknown as MicroBlock;
}

describe('devnode recentGasPrices', () => {
  it('gives 0 and no utilization without transactions, as the node does', () => {
    expect(recentGasPrices([], NOW)).to.deep.equal(
      [1, 5, 15, 60].map((minutes) => ({ minutes, min_gas_price: 0n, utilization: 0 })),
    );
  });

  it('takes the lowest gas price and the used share of the gas limit of each window', () => {
    const blocks = [
      micro(50 * 60_000, [{ gas_price: 1_000_000_000, gas_used: 600_000 }]),
      micro(3 * 60_000, [{ gas_price: 2_000_000_000, gas_used: 3_000_000 }]),
      micro(30_000, [
        { gas_price: 5_000_000_000, gas_used: 1_200_000 },
        { gas_price: 4_000_000_000, gas_used: 600_000 },
      ]),
    ];
    expect(recentGasPrices(blocks, NOW)).to.deep.equal([
      { minutes: 1, min_gas_price: 4_000_000_000n, utilization: 30 },
      { minutes: 5, min_gas_price: 2_000_000_000n, utilization: 40 },
      { minutes: 15, min_gas_price: 2_000_000_000n, utilization: 40 },
      { minutes: 60, min_gas_price: 1_000_000_000n, utilization: 30 },
    ]);
  });
});
