/**
 * @module The replays a fetch asks itself (issue 88 item 2). A contract call whose code may make internal calls is run
 * again through the node's dry-run for them (derived/internal-calls.ts), and that answer holds the call info of each
 * contract transaction it ran (Replayed.callObjects: the node's `call_info`, member for member, as the recorded real
 * node answers both): the fetch asks those replays as the micro block's transactions arrive, in place of the
 * `GET /v3/transactions/{hash}/info` of every contract transaction they run, and the batch's internal calls take
 * their answers (askBatchReads) instead of asking them again. Only a call whose code is at hand without a request
 * (the decoder's remembered code, a create's own) is replayed here; any other, and a replay that found no answer
 * (pruned state, refused, crashed, over the time limit), has its info asked as before and its replay left to the
 * batch, which asks it as before.
 */
import { isJsonObject } from '../../chain/json.ts';
import { keptSignedTxBytes } from '../../chain/stored-tx.ts';
import type { ReplayableTx } from '../../db/writes/internal-calls.ts';
import { CONTRACT_TX_TYPES } from '../../db/writes/internal-calls.ts';
import type { Replayed } from '../../node/dry-run-events.ts';
import { planReplays, type Replay } from '../derived/internal-calls.ts';
import type { FetchedReplay, JsonObject } from '../rows/rows.ts';

/** FetchReplays says which contract transactions the fetch replays itself. */
export interface FetchReplays {
  /**
   * whether a contract transaction's code may make internal calls (chain/internal-call-ops.ts), undefined where that
   * code is not at hand without a request
   */
  readonly mayCall: (tx: JsonObject) => boolean | undefined;
}

const CONTRACT: ReadonlySet<string> = new Set(CONTRACT_TX_TYPES);
// a transaction without the node's bytes: planReplays leaves it and what follows it in its block unreplayed
const UNENCODED = Uint8Array.of(0x7b);

/** isContractTx: whether a signed transaction is a contract call or create (not one a GAMetaTx or PayingForTx wraps). */
export const isContractTx = (signed: JsonObject): boolean =>
  isJsonObject(signed.tx) && CONTRACT.has(String(signed.tx.type));

/** replayKey is a replayed call's key among its generation's replays. Pure. */
export const replayKey = (microIndex: number, txIndex: number): string => `${microIndex}:${txIndex}`;

/**
 * blockReplays are the replays a fetched micro block's call infos are read from: one for each contract call that
 * `replays` says may make internal calls, planned as the batch plans them (planReplays: none past a GAMetaTx or
 * PayingForTx, past a transaction without its bytes, or over the gas cap), and where two or more contract
 * transactions follow the last of those (or the block has no such call), one more up to the last of them the node can
 * run, whose answer holds all their infos: one request where each would be one. Pure.
 */
export function blockReplays(
  place: { readonly height: number; readonly microIndex: number; readonly prevHash: string },
  transactions: readonly JsonObject[],
  replays: FetchReplays,
): Replay[] {
  const contract = transactions.map(isContractTx);
  const calling = transactions.map((s, i) => contract[i] === true && replays.mayCall(s.tx as JsonObject) === true);
  if (!calling.includes(true) && contract.filter(Boolean).length < 2) return [];
  const txs = transactions.map((s, txIndex): ReplayableTx => {
    const tx = isJsonObject(s.tx) ? s.tx : {};
    const signed = bytesOf(s);
    const gas = tx.gas === undefined || tx.gas === null ? null : String(tx.gas as number | string);
    return {
      ...place,
      txIndex,
      txType: String(tx.type),
      innerType: null,
      gas,
      size: signed.length,
      signed,
      contractId: null,
      returnType: null,
    };
  });
  const quietUpTo = (last: number): Set<ReplayableTx> =>
    new Set(txs.filter((_, i) => contract[i] && !calling[i] && i <= last));
  try {
    const planned = planReplays(txs, quietUpTo(txs.length)).replays;
    const last = planned.at(-1)?.call.txIndex ?? -1;
    // fewer than two contract transactions after it: no replay more can hold two of their infos (not planned again)
    let after = 0;
    for (let i = last + 1; i < contract.length; i++) if (contract[i]) after++;
    if (after < 2) return planned;
    // every contract transaction after it planned: the last of them the node can run
    const tail = planReplays(txs, quietUpTo(last)).replays.at(-1);
    const held = tail === undefined ? 0 : contract.filter((c, i) => c && i > last && i <= tail.call.txIndex).length;
    return held >= 2 ? [...planned, tail!] : planned;
  } catch {
    // an encoded_tx that is no signed transaction (the transform tells it apart, and stores it as JSON): asked as before
    return [];
  }
}

/** bytesOf is a signed transaction's bytes, kept for its transform to store (keptSignedTxBytes). */
function bytesOf(signed: JsonObject): Uint8Array {
  try {
    return keptSignedTxBytes(signed) ?? UNENCODED;
  } catch {
    return UNENCODED;
  }
}

/**
 * replayedInfos are the call infos the answered replays hold, by transaction hash: each contract transaction's among
 * `transactions` that some answer ran. Pure.
 */
export function replayedInfos(
  transactions: readonly JsonObject[],
  answered: readonly Replayed[],
): Map<string, JsonObject> {
  const infos = new Map<string, JsonObject>();
  for (const { callObjects = [] } of answered)
    callObjects.forEach((callObject, i) => {
      const s = transactions[i];
      if (callObject !== undefined && s !== undefined && isContractTx(s)) infos.set(String(s.hash), callObject);
    });
  return infos;
}

/**
 * answeredReplay is the answer the fetch holds for a replay the batch plans (`fetched`: its generations' replays by
 * height), where it asked the very same request. Pure.
 */
export function answeredReplay(
  fetched: ReadonlyMap<number, ReadonlyMap<string, FetchedReplay>>,
  replay: Replay,
): FetchedReplay['outcome'] | undefined {
  const held = fetched.get(replay.call.height)?.get(replayKey(replay.call.microIndex, replay.call.txIndex));
  if (held === undefined || held.top !== replay.top || held.txs.length !== replay.txs.length) return undefined;
  return held.txs.every((tx, i) => tx === replay.txs[i]) ? held.outcome : undefined;
}
