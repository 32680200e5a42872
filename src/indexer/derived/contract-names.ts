/**
 * @module Names a contract acts on through AENS (issue 76): the `AENS.claim`, `AENS.update`, `AENS.transfer` and
 * `AENS.revoke` internal calls the int_calls area stores become events of their names in name_events, at the calling
 * transaction's position with the internal call's `local_idx`, as ae_mdw records them (`internal_source`). Their
 * state folds onto the name's events before them, the name transactions' and the contracts' alike. Pure.
 */
import { namePointer } from '../../chain/aens.ts';
import { nameId } from '../../chain/derived-ids.ts';
import { isJsonObject, toBigInt, toSafeNumber, type Json } from '../../chain/json.ts';
import { comparePositions } from '../../db/queries/positions.ts';
import type { NameEventState } from '../../db/queries/state-events.ts';
import type { StoredInternalCall } from '../../db/writes/internal-calls.ts';
import { nextNameState } from '../rows/chain-state.ts';
import type { NameAction, NameEventRow } from '../rows/rows.ts';

/** AENS_FUNCTIONS are the internal calls that act on a name (AENS.preclaim only commits to one). */
export const AENS_FUNCTIONS: readonly string[] = ['AENS.claim', 'AENS.update', 'AENS.transfer', 'AENS.revoke'];

/** CallPlace is what a name event needs of its contract call: its hash, its micro block's height, the protocol. */
export interface CallPlace {
  readonly txHash: string;
  /** the height the node counts a name's heights from (aetx_env:height: the next one on a hyperchain) */
  readonly blockHeight: number;
  readonly protocol: number;
}

/** ContractNameAction is a name action a contract's internal call made. */
export type ContractNameAction = NameAction & { readonly localIdx: number };

/** ContractNameEvent is a name event of a contract's internal call: a name_events row with its `local_idx`. */
export type ContractNameEvent = NameEventRow & { readonly localIdx: number };

/** callKey is a contract call's position as text. */
export const callKey = (p: { height: number; microIndex: number; txIndex: number }): string =>
  `${p.height}-${p.microIndex}-${p.txIndex}`;

const text = (v: Json | undefined): string => (typeof v === 'string' ? v : '');

/**
 * contractNameActions are the name actions of internal calls (in chain order), each at its call's place. An
 * AENS.update's `name_ttl` is the expiry itself (aefa_chain_api passes the height plus the relative TTL; 0: unchanged),
 * where a NameUpdateTx's counts from its height, as ae_mdw reads them (Sync.Name.update_mutations).
 */
export function contractNameActions(
  calls: readonly StoredInternalCall[],
  places: ReadonlyMap<string, CallPlace>,
): ContractNameAction[] {
  return calls.flatMap((c): ContractNameAction[] => {
    const place = places.get(callKey(c));
    if (!AENS_FUNCTIONS.includes(c.function) || place === undefined) return [];
    const tx = c.internalTx;
    const head = {
      height: c.height,
      microIndex: c.microIndex,
      txIndex: c.txIndex,
      txHash: place.txHash,
      blockHeight: place.blockHeight,
      protocol: place.protocol,
      account: text(tx.account_id),
      localIdx: c.localIdx,
    };
    switch (c.function) {
      case 'AENS.claim': {
        const name = text(tx.name);
        const nameFee = tx.name_fee === undefined ? null : toBigInt(tx.name_fee).toString();
        return [{ ...head, kind: 'claim', nameHash: nameId(name), name, nameFee, salt: toBigInt(tx.name_salt ?? 0) }];
      }
      case 'AENS.update': {
        const expiry = toSafeNumber(tx.name_ttl ?? 0);
        const pointers = (Array.isArray(tx.pointers) ? tx.pointers : []).filter(isJsonObject).map(namePointer);
        const nameTtl = expiry > 0 ? expiry - place.blockHeight : null;
        return [{ ...head, kind: 'update', nameHash: text(tx.name_id), nameTtl, pointers }];
      }
      case 'AENS.transfer':
        return [{ ...head, kind: 'transfer', nameHash: text(tx.name_id), recipient: text(tx.recipient_id) }];
      default:
        return [{ ...head, kind: 'revoke', nameHash: text(tx.name_id) }];
    }
  });
}

/** A stored event of a name (a name transaction's) at its position, as the fold reads it. */
export interface StoredNameEvent extends NameEventState {
  readonly nameHash: string;
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
}

/**
 * foldContractNames gives each action (chain order) its event: the state after it, from the name's latest event
 * before it: a stored one (`stored`, the range's name transactions' events in chain order, else `prior`, the state
 * before the range) or a contract's folded here, whichever is later. A call acting on a name twice gives one event,
 * the state after its last action, with the first action's kind and index when that was a claim or bid (so the claim
 * is listed), else the last's.
 */
export function foldContractNames(
  prior: ReadonlyMap<string, NameEventState>,
  stored: readonly StoredNameEvent[],
  actions: readonly ContractNameAction[],
): ContractNameEvent[] {
  const events: ContractNameEvent[] = [];
  const latest = new Map<string, ContractNameEvent>();
  for (const a of actions) {
    const own = latest.get(a.nameHash);
    const chain = stored.findLast((e) => e.nameHash === a.nameHash && comparePositions(e, a) < 0);
    const prev =
      own !== undefined && (chain === undefined || comparePositions(own, chain) > 0)
        ? own
        : (chain ?? prior.get(a.nameHash));
    const next = nextNameState(prev, a);
    const row: ContractNameEvent = {
      ...next,
      nameHash: a.nameHash,
      height: a.height,
      microIndex: a.microIndex,
      txIndex: a.txIndex,
      txHash: a.txHash,
      localIdx: a.localIdx,
    };
    const sameCall = own !== undefined && callKey(own) === callKey(a);
    if (sameCall) {
      const keepsKind = own.kind === 'claim' || own.kind === 'bid';
      const merged = keepsKind ? { ...row, kind: own.kind, localIdx: own.localIdx } : row;
      events[events.indexOf(own)] = merged;
      latest.set(a.nameHash, merged);
    } else {
      events.push(row);
      latest.set(a.nameHash, row);
    }
  }
  return events;
}
