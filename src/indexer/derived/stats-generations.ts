/**
 * @module The figures of a batch's generations its own rows decide (channels opened and closed, what channels lock,
 * the micro blocks' transactions and time for tps), counted from the rows in memory, the twin of the stored
 * derivation's branches for them (db/writes/stats-derive.ts STORED_GENERATIONS). What needs the stored chain
 * (names, oracles, contracts, rewards, accounts) stays with PostgreSQL. Pure.
 */
import type { CountedGenerations } from '../../db/writes/stats-derive.ts';
import type { GenerationRows } from '../rows/rows.ts';

/**
 * What a channel transaction adds to what channels lock: its amount (the writer's channel_amount, migration 1000),
 * signed, the mutual close's fee with it; other types add nothing, nor does a transaction without an amount.
 */
const LOCKS: Readonly<Record<string, (amount: bigint, fee: bigint) => bigint>> = {
  ChannelCreateTx: (amount) => amount,
  ChannelDepositTx: (amount) => amount,
  ChannelWithdrawTx: (amount) => -amount,
  ChannelCloseMutualTx: (amount, fee) => -(amount + fee),
  ChannelSettleTx: (amount) => -amount,
};

/** countedGenerations are the figures of whole generations (ascending, none continuing a stored one), per height. */
export function countedGenerations(gens: readonly GenerationRows[]): CountedGenerations {
  const out = {
    heights: [] as number[],
    channelsOpened: [] as number[],
    channelsClosed: [] as number[],
    lockedInChannels: [] as bigint[],
    microTxs: [] as number[],
    lastMs: [] as bigint[],
  };
  for (const g of gens) {
    if (g.continuesAt !== undefined) throw new RangeError(`height ${g.keyBlock.height} continues a stored generation`);
    let opened = 0;
    let closed = 0;
    for (const c of g.channelEvents) {
      if (c.txType === 'ChannelCreateTx') opened++;
      if (c.closes) closed++;
    }
    let locked = 0n;
    for (const t of g.transactions) {
      const lock = LOCKS[t.txType];
      if (lock !== undefined && t.stored.channelAmount !== null)
        locked += lock(BigInt(t.stored.channelAmount), BigInt(t.fee));
    }
    let txs = 0;
    let last = 0n;
    for (const m of g.microBlocks) {
      txs += m.txCount;
      if (m.timeMs > last) last = m.timeMs;
    }
    out.heights.push(g.keyBlock.height);
    out.channelsOpened.push(opened);
    out.channelsClosed.push(closed);
    out.lockedInChannels.push(locked);
    out.microTxs.push(txs);
    out.lastMs.push(last);
  }
  return out;
}
