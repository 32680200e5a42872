/**
 * @module ae_mdw's DeltaStat and TotalStat from a generation's stored statistics (keys in ae_mdw's order). Pure.
 */
import type { Json } from '../../chain/json.ts';
import type { GenerationStatsRow } from '../../db/queries/stats.ts';

/**
 * big is an amount: an exact integer, or below -2^53 a decimal string, which the SDK reads as exactly (its
 * big-integer parsing skips negative numbers, and a bare one would reach it rounded).
 */
const big = (v: string | number | bigint | undefined): bigint | string => {
  const n = BigInt(v ?? 0);
  return n < -MAX_SAFE ? String(n) : n;
};
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const int = (v: string | number | undefined): number => Number(v ?? 0);

/** deltaStatObject is what happened in the generation. */
export function deltaStatObject(g: GenerationStatsRow): Record<string, Json> {
  const d = g.delta;
  return {
    accounts: int(d.accounts),
    auctions_started: int(d.auctions_started),
    block_reward: big(d.block_reward),
    burned_in_auctions: big(d.burned_in_auctions),
    channels_closed: int(d.channels_closed),
    channels_opened: int(d.channels_opened),
    contracts_created: int(d.contracts_created),
    dev_reward: big(d.dev_reward),
    height: g.height,
    last_tx_hash: g.lastTxHash,
    locked_in_auctions: big(d.locked_in_auctions),
    locked_in_channels: big(d.locked_in_channels),
    names_activated: int(d.names_activated),
    names_expired: int(d.names_expired),
    names_revoked: int(d.names_revoked),
    oracles_expired: int(d.oracles_expired),
    oracles_registered: int(d.oracles_registered),
  };
}

/**
 * totalStatObject is the totals at the generation's height as ae_mdw states them: through the
 * generation below (a generation's deltas show in the totals of the next height). The token supply
 * is what genesis and hard forks created (their accounts_* and contracts_* transfers) and every
 * reward paid, as ae_mdw counts it.
 */
export function totalStatObject(g: GenerationStatsRow): Record<string, Json> {
  const t = g.before ?? {};
  return {
    accounts: int(t.sum_accounts),
    active_auctions: int(t.active_auctions),
    active_names: int(t.active_names),
    active_oracles: int(t.active_oracles),
    burned_in_auctions: big(t.sum_burned_in_auctions),
    contracts: int(t.sum_contracts),
    height: g.height,
    inactive_names: int(t.inactive_names),
    inactive_oracles: int(t.inactive_oracles),
    last_tx_hash: g.lastTxHash,
    locked_in_auctions: big(t.sum_locked_in_auctions),
    locked_in_channels: big(t.sum_locked_in_channels),
    open_channels: int(t.open_channels),
    sum_block_reward: big(t.sum_block_reward),
    sum_dev_reward: big(t.sum_dev_reward),
    total_token_supply: big(
      BigInt(t.sum_minted ?? 0) + BigInt(t.sum_block_reward ?? 0) + BigInt(t.sum_dev_reward ?? 0),
    ),
  };
}
