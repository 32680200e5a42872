/**
 * @module The gas of force progresses' calls (migration 1143): a ChannelForceProgressTx runs its off-chain contract
 * call on chain, its sender (a PayingForTx's payer) pays the gas it used at the update's gas price, and the call object
 * it leaves in the calls tree counts in its generation's fees (aesc_utils:process_force_progress, add_call). The node
 * tells that gas in the transaction's info only (`call_info`; a GAMetaTx's `ga_info.inner_object.call_info`), which a
 * sync asks with the generation (fetch.ts) and stores in the force progress's channel_events row. The ga area, which
 * asks the node the infos of a range's transactions, asks those of stored force progresses too, so that a schema
 * stored without them gets them (the heights it derives again).
 */
import { isJsonObject, toBigInt } from '../../chain/json.ts';
import { forceProgresses, setForceProgressGas } from '../../db/writes/force-progress-gas.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import type { HeightRange } from '../../db/queries/height-range.ts';
import { mapLimit } from '../../base/workers.ts';
import { unlessGone } from '../../node/errors.ts';
import type { JsonObject } from '../rows/rows.ts';
import type { GaInfoReader } from './ga-calls.ts';

/** Infos asked at once: the node set bounds the requests in flight; this bounds the promises waiting for it. */
const IN_FLIGHT = 64;

/**
 * forceProgressGasUsed is the gas the call of a force progress used, as its transaction's info (`info`) tells it: its
 * `call_info` (a PayingForTx's too), or a GAMetaTx's inner one; undefined when the info tells none. Pure.
 */
export function forceProgressGasUsed(info: JsonObject): bigint | undefined {
  const ga = isJsonObject(info.ga_info) ? info.ga_info : undefined;
  const inner = ga && isJsonObject(ga.inner_object) ? ga.inner_object.call_info : undefined;
  const call = isJsonObject(info.call_info) ? info.call_info : isJsonObject(inner) ? inner : undefined;
  return call?.gas_used === undefined || call.gas_used === null ? undefined : toBigInt(call.gas_used);
}

/**
 * deriveForceProgressGas asks the node the info of each force progress stored in a range and stores its call's gas.
 * One whose info no node holds any more (410 from every node) keeps none: its payer's balance is then the node's
 * (balance-changes.ts), and its generation's fees lack its gas, as a pruned contract call's.
 */
export async function deriveForceProgressGas(db: Queryable, node: GaInfoReader, range: HeightRange): Promise<void> {
  const txs = await forceProgresses(db, range);
  const gas = await mapLimit(txs, IN_FLIGHT, async (t) => {
    const read = await unlessGone(node.transactionInfo(t.hash, t.height));
    return (read && forceProgressGasUsed(read.info)) ?? null;
  });
  await setForceProgressGas(
    db,
    txs.map((t, i) => ({ ...t, gasUsed: gas[i] ?? null })),
  );
}
