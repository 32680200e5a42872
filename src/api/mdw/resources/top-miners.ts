/** @module /v3/stats/miners/top-24h: the beneficiaries of the last 24 hours' key blocks, as the explorer charts them. */
import { minersSince } from '../../../db/queries/blocks.ts';
import { notOnHyperchain } from './hyperchain-guard.ts';
import { DAY_MS } from '../../../chain/stats-intervals.ts';

/**
 * getTopMiners24h: `[{miner, blocks_mined}]` for the key blocks of the last 24 hours by wall clock, most first
 * (ae_mdw's 400 on a hyperchain).
 */
export const getTopMiners24h = notOnHyperchain('TopMiners24h', async function getTopMiners24h({ pool }) {
  const miners = await minersSince(pool, Date.now() - DAY_MS);
  return miners.map((m) => ({ miner: m.miner, blocks_mined: m.blocks }));
});
