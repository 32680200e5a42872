/**
 * @module Names a contract acts on through AENS (issue 76): the `AENS.claim`, `AENS.update`, `AENS.transfer` and
 * `AENS.revoke` internal calls the int_calls area stores become events of their names in name_events, at the calling
 * transaction's position with the internal call's `local_idx`, as ae_mdw records them (`internal_source`). They fold
 * with the name transactions' actions in chain order, each onto the name's event before it, a transaction's or a
 * contract's: the transactions' after a contract's fold again (the writer folded them without it). Pure.
 */
import { namePointer } from '../../chain/aens.ts';
import { nameId } from '../../chain/derived-ids.ts';
import { isJsonObject, toBigInt, toSafeNumber, type Json } from '../../chain/json.ts';
import { ownTx } from '../../chain/tx-fields.ts';
import { comparePositions } from '../../db/queries/positions.ts';
import type { NameEventState } from '../../db/queries/state-events.ts';
import type { ContractPointerWrite } from '../../db/writes/contract-name-events.ts';
import type { StoredInternalCall } from '../../db/writes/internal-calls.ts';
import { nextNameState } from '../rows/chain-state.ts';
import type { JsonObject, NameAction, NameEventRow } from '../rows/rows.ts';
import { nameTxAction } from '../rows/tx-rows.ts';

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

/**
 * contractPointerRows are the name_pointers rows of the contracts' updates among `actions` (with the internal call's
 * `local_idx`), as a NameUpdateTx's (tx-rows.ts): each key of a name's pointers with the id it points at, at the call.
 * A call updating a name twice sets the pointers of its last update (an update replaces them all), a key repeated in
 * one keeps its last id, as the node does. Pure.
 */
export function contractPointerRows(actions: readonly ContractNameAction[]): ContractPointerWrite[] {
  const last = new Map<string, Extract<ContractNameAction, { kind: 'update' }>>();
  for (const a of actions)
    if (a.kind === 'update') {
      const key = `${a.nameHash} ${callKey(a)}`;
      if ((last.get(key)?.localIdx ?? -1) < a.localIdx) last.set(key, a);
    }
  return [...last.values()].flatMap((a) =>
    [...new Map(a.pointers.map((p) => [p.key, p.id]))].map(([key, id]) => ({
      height: a.height,
      microIndex: a.microIndex,
      txIndex: a.txIndex,
      nameHash: a.nameHash,
      key,
      id,
      localIdx: a.localIdx,
    })),
  );
}

/** A name action as the fold takes it: a name transaction's (`localIdx` null) or a contract's AENS call's. */
export type FoldedNameAction = NameAction & { readonly localIdx: number | null };

/** A name event as the fold gives it: a name_events row with its `local_idx` (null: a name transaction's). */
export type FoldedNameEvent = NameEventRow & { readonly localIdx: number | null };

/** A name transaction as stored, with what its action needs: its place, its protocol, its stored form. */
export interface StoredNameTx {
  readonly nameHash: string;
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly txHash: string;
  readonly blockHeight: number;
  readonly protocol: number;
  /** the transaction, wrapped or not, as its stored form renders it */
  readonly tx: JsonObject;
}

const NAME_TXS = ['NameClaimTx', 'NameUpdateTx', 'NameTransferTx', 'NameRevokeTx'];

/** storedNameTxAction is the action of a stored name transaction (the one it is or wraps), as the writer made it. */
export function storedNameTxAction(t: StoredNameTx): FoldedNameAction {
  const own = ownTx(t.tx, NAME_TXS);
  const { nameHash, tx: _tx, ...at } = t;
  const action = own && nameTxAction(own, at, nameHash);
  if (action === undefined)
    throw new Error(`the name event at ${t.height}-${t.microIndex}-${t.txIndex} has no name transaction`);
  return { ...action, localIdx: null };
}

/** comparePlaces orders actions by position, a call's internal calls by their index. */
const comparePlaces = (a: FoldedNameAction, b: FoldedNameAction): number =>
  comparePositions(a, b) || (a.localIdx ?? -1) - (b.localIdx ?? -1);

/**
 * foldNameEvents gives each action its event (chain order): the state after it, from the name's event before it, in
 * `prior` (the state before the actions) or folded here. The name transactions' and the contracts' fold alike: a
 * NameClaimTx bidding in an auction a contract's AENS.claim opened is a bid. A call acting on a name twice gives one
 * event, the state after its last action, with the first action's kind and index when that was a claim or bid (so the
 * claim is listed), else the last's.
 */
export function foldNameEvents(
  prior: ReadonlyMap<string, NameEventState>,
  actions: readonly FoldedNameAction[],
): FoldedNameEvent[] {
  const events: FoldedNameEvent[] = [];
  const latest = new Map<string, FoldedNameEvent>();
  for (const a of [...actions].sort(comparePlaces)) {
    const own = latest.get(a.nameHash);
    const next = nextNameState(own ?? prior.get(a.nameHash), a);
    const row: FoldedNameEvent = {
      ...next,
      nameHash: a.nameHash,
      height: a.height,
      microIndex: a.microIndex,
      txIndex: a.txIndex,
      txHash: a.txHash,
      localIdx: a.localIdx,
    };
    const sameCall = own !== undefined && own.localIdx !== null && a.localIdx !== null && callKey(own) === callKey(a);
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
