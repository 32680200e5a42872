/** @module The generations' figures a batch counts in memory (the stored derivation's twin: test/integration/indexer/stats-memory.test.ts). */
import { expect } from 'chai';
import type { GenerationRows } from '../../../src/indexer/rows/rows.ts';
import { countedGenerations } from '../../../src/indexer/derived/stats-generations.ts';

type Tx = { txType: string; amount: string | null; fee: string };

/** gen is a generation with only what the counting reads: channel events, txs' types and amounts, micro blocks. */
const gen = (
  height: number,
  { events = [], txs = [], micros = [] }: { events?: [string, boolean][]; txs?: Tx[]; micros?: [number, bigint][] },
  continuesAt?: number,
): GenerationRows =>
  ({
    keyBlock: { height },
    continuesAt,
    channelEvents: events.map(([txType, closes]) => ({ txType, closes })),
    transactions: txs.map((t) => ({ txType: t.txType, fee: t.fee, stored: { channelAmount: t.amount } })),
    microBlocks: micros.map(([txCount, timeMs]) => ({ txCount, timeMs })),
  }) as unknown as GenerationRows;

describe('countedGenerations', () => {
  it('counts channels, what channel transactions lock, and the micro blocks per height', () => {
    const big = 2n ** 70n;
    const counted = countedGenerations([
      gen(5, {
        events: [
          ['ChannelCreateTx', false],
          ['ChannelDepositTx', false],
          ['ChannelCloseMutualTx', true],
        ],
        txs: [
          { txType: 'ChannelCreateTx', amount: String(big), fee: '7' },
          { txType: 'ChannelDepositTx', amount: '10', fee: '7' },
          { txType: 'ChannelWithdrawTx', amount: '3', fee: '7' },
          { txType: 'ChannelCloseMutualTx', amount: '100', fee: '20' },
          { txType: 'ChannelSettleTx', amount: '1', fee: '7' },
          // no amount read: adds nothing, as the SQL's NULL
          { txType: 'ChannelDepositTx', amount: null, fee: '7' },
          { txType: 'SpendTx', amount: null, fee: '7' },
        ],
        micros: [
          [4, 1000n],
          [3, 3000n],
          [0, 2000n],
        ],
      }),
      gen(6, {}),
    ]);
    expect(counted).to.deep.equal({
      heights: [5, 6],
      channelsOpened: [1, 0],
      channelsClosed: [1, 0],
      lockedInChannels: [big + 10n - 3n - 120n - 1n, 0n],
      microTxs: [7, 0],
      // a generation without micro blocks: 0, whose tps is 0 as without any
      lastMs: [3000n, 0n],
    });
  });

  it('refuses a continued generation', () => {
    expect(() => countedGenerations([gen(3, {}, 1)])).to.throw(RangeError, /continues/);
  });
});
