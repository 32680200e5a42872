/**
 * @module Which ids a transaction references, which it creates and which names it sends to,
 * inner transactions of GAMetaTx and PayingForTx included. Pure.
 *
 * Every id-bearing field of every tx type is named `<x>_id` or `<x>_ids` (node for_client/1 of all
 * 25 types), plus the name pointers; reading fields by that rule covers the types of later protocols
 * without a table that would silently miss one.
 */
import { isJsonObject, toBigInt, type Json } from './json.ts';
import { channelId, contractId, nameId, oracleId, oracleQueryId } from './derived-ids.ts';

/** Prefixes of ids that name an account or a chain object (cm_ commitments are kept too: they are searchable). */
const ID_PREFIX = /^(ak|ok|ct|ch|nm|oq|cm)_[1-9A-HJ-NP-Za-km-z]+$/;

type TxObject = { [key: string]: Json };

function addId(ids: Map<string, string[]>, id: Json | undefined, field: string): void {
  if (typeof id !== 'string' || !ID_PREFIX.test(id)) return;
  const fields = ids.get(id);
  if (!fields) ids.set(id, [field]);
  else if (!fields.includes(field)) fields.push(field);
}

/** innerTx returns the tx object wrapped by a GAMetaTx or PayingForTx (`tx.tx.tx`), if any. */
export function innerTx(tx: TxObject): TxObject | undefined {
  if (tx.type !== 'GAMetaTx' && tx.type !== 'PayingForTx') return undefined;
  const signed = tx.tx;
  return isJsonObject(signed) && isJsonObject(signed.tx) ? signed.tx : undefined;
}

/**
 * ownTx is the transaction of type `type` (or of one of the types) that `tx` is or wraps (a GAMetaTx's or
 * PayingForTx's, nested too).
 */
export function ownTx(tx: TxObject, type: string | readonly string[]): TxObject | undefined {
  const wanted = typeof type === 'string' ? [type] : type;
  let own: TxObject | undefined = tx;
  while (own && !wanted.includes(String(own.type))) own = innerTx(own);
  return own;
}

/** NAME_TX_TYPES: the name transactions ae_mdw shows with the plain name of their `name_id`. */
export const NAME_TX_TYPES: ReadonlySet<string> = new Set(['NameUpdateTx', 'NameTransferTx', 'NameRevokeTx']);

/** nameTxId is the name_id of a name transaction (NAME_TX_TYPES), or of the one a GAMetaTx or PayingForTx wraps. */
export function nameTxId(tx: TxObject): string | undefined {
  const own = innerTx(tx) ?? tx;
  return NAME_TX_TYPES.has(String(own.type)) && typeof own.name_id === 'string' ? own.name_id : undefined;
}

/** CreatedIdsOf gives createdIds of a tx (a caller that needs them too passes the ones it computed). */
export type CreatedIdsOf = (tx: TxObject) => Record<string, string>;

function collect(ids: Map<string, string[]>, tx: TxObject, prefix: string, created: CreatedIdsOf): void {
  // keys, not entries: no [key, value] pair allocated per field of every transaction indexed
  for (const key of Object.keys(tx)) {
    const value = tx[key];
    if (key.endsWith('_id')) addId(ids, value, prefix + key);
    else if (key.endsWith('_ids')) {
      // delegate_ids: a list, or {initiator: [...], responder: [...]} on newer nodes
      const lists = Array.isArray(value) ? [value] : isJsonObject(value) ? Object.values(value) : [];
      for (const list of lists) if (Array.isArray(list)) for (const id of list) addId(ids, id, prefix + key);
    } else if (key === 'pointers' && Array.isArray(value)) {
      for (const p of value) if (isJsonObject(p)) addId(ids, p.id, `${prefix}pointers`);
    }
  }
  const made = created(tx);
  for (const field of Object.keys(made)) addId(ids, made[field], prefix + field);
  const inner = innerTx(tx);
  if (inner) collect(ids, inner, `${prefix}tx.`, created);
}

/** referencedIds maps each id a tx mentions or creates to the fields it appears in (inner fields as `tx.<field>`). */
export function referencedIds(tx: TxObject, created: CreatedIdsOf = createdIds): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  collect(ids, tx, '', created);
  return ids;
}

/** STATE_PREFIXES: the ids whose rows derive from the rows before them (a name's, an oracle's, a channel's state). */
const STATE_PREFIXES = ['nm_', 'ok_', 'ch_'];

/**
 * stateIds are the names, oracles and channels a tx (and its inner txs) names or creates: the ids whose later rows
 * (events, a name's resolution) are derived from the state its own rows leave.
 */
export function stateIds(tx: TxObject): string[] {
  return [...referencedIds(tx).keys()].filter((id) => STATE_PREFIXES.some((p) => id.startsWith(p)));
}

/**
 * createdIds are the ids a tx brings into existence, keyed by the field name the API uses for
 * them (no tx type carries such a field itself, so the names cannot collide).
 */
export function createdIds(tx: TxObject): Record<string, string> {
  try {
    switch (tx.type) {
      case 'ContractCreateTx':
      case 'GAAttachTx':
        return { contract_id: contractId(String(tx.owner_id), toBigInt(tx.nonce)) };
      case 'OracleRegisterTx':
        return { oracle_id: oracleId(String(tx.account_id)) };
      case 'OracleQueryTx':
        // a query sent to a name (nm_) cannot be derived without resolving the name's pointer
        return String(tx.oracle_id).startsWith('ok_')
          ? { query_id: oracleQueryId(String(tx.sender_id), toBigInt(tx.nonce), String(tx.oracle_id)) }
          : {};
      case 'ChannelCreateTx':
        return { channel_id: channelId(String(tx.initiator_id), toBigInt(tx.nonce), String(tx.responder_id)) };
      case 'NameClaimTx':
        return { name_id: nameId(String(tx.name)) };
      default:
        return {};
    }
  } catch {
    // A malformed field is the node's data as sent; the tx is stored, only the derived id is absent.
    return {};
  }
}

/**
 * The pointer the node resolves a name (nm_) through, per tx type and field, and the prefix of what it finds; `only`
 * when the tx is the pointee's alone: a spend to a name, and a call to one, are indexed under the account (contract)
 * the name pointed at in that block and not under the name, as ae_mdw indexes them, so a name's activities never list
 * them. A query to a name and a name transferred to a name name the name too.
 */
const NAME_TARGETS: Readonly<
  Record<string, Readonly<Record<string, readonly [key: string, prefix: 'ak' | 'ok' | 'ct', only?: 'only']>>>
> = {
  SpendTx: { recipient_id: ['account_pubkey', 'ak', 'only'] },
  NameTransferTx: { recipient_id: ['account_pubkey', 'ak'] },
  OracleQueryTx: { oracle_id: ['oracle_pubkey', 'ok'] },
  ContractCallTx: { contract_id: ['contract_pubkey', 'ct', 'only'] },
};

/** A name a tx addresses where the node expects an account, oracle or contract. */
export interface NameReference {
  readonly nameHash: string;
  /** the field it stands in (inner fields as `tx.<field>`) */
  readonly field: string;
  /** the pointer key the node resolves it through */
  readonly key: string;
  /** the prefix of the id it resolves to */
  readonly prefix: 'ak' | 'ok' | 'ct';
  /** the tx is indexed under the id it resolves to only, not under the name (NAME_TARGETS) */
  readonly pointeeOnly: boolean;
}

/** nameReferences lists the names a tx (and its inner txs) sends to: a recipient, an oracle or a contract given as nm_. */
export function nameReferences(tx: TxObject, prefix = ''): NameReference[] {
  const targets = NAME_TARGETS[String(tx.type)] ?? {};
  const refs = Object.entries(targets).flatMap(([field, [key, target, only]]) => {
    const value = tx[field];
    return typeof value === 'string' && value.startsWith('nm_')
      ? [{ nameHash: value, field: prefix + field, key, prefix: target, pointeeOnly: only === 'only' }]
      : [];
  });
  const inner = innerTx(tx);
  return inner ? [...refs, ...nameReferences(inner, `${prefix}tx.`)] : refs;
}

/**
 * indexedIds are the ids a tx is listed under, each with its fields: referencedIds less a name that a spend or a call
 * is sent to (nameReferences' `pointeeOnly`, the tx's `refs`: a caller that lists them too passes its own), whose
 * pointee the writer adds as of that block.
 */
export function indexedIds(
  tx: TxObject,
  created: CreatedIdsOf = createdIds,
  refs: readonly NameReference[] = nameReferences(tx),
): Map<string, string[]> {
  const ids = referencedIds(tx, created);
  for (const ref of refs) {
    if (!ref.pointeeOnly) continue;
    const fields = ids.get(ref.nameHash)?.filter((f) => f !== ref.field);
    if (fields === undefined) continue;
    if (fields.length === 0) ids.delete(ref.nameHash);
    else ids.set(ref.nameHash, fields);
  }
  return ids;
}

/** CREATED_ID_KEYS: the field under which ae_mdw shows the id a transaction of each type creates (createdIds). */
export const CREATED_ID_KEYS: Readonly<Record<string, string>> = {
  ContractCreateTx: 'contract_id',
  GAAttachTx: 'contract_id',
  OracleRegisterTx: 'oracle_id',
  OracleQueryTx: 'query_id',
  ChannelCreateTx: 'channel_id',
  NameClaimTx: 'name_id',
};

/** CREATING_TX_TYPES: the types that create an id. */
export const CREATING_TX_TYPES: ReadonlySet<string> = new Set(Object.keys(CREATED_ID_KEYS));

/**
 * shownCreatedId is the id a transaction creates as ae_mdw shows it (transactions.created_id, migration 1013): its
 * own, or that of the transaction a GAMetaTx or PayingForTx wraps, but a wrapped ContractCreateTx, to which ae_mdw
 * adds nothing (add_inner_tx_details); a wrapper creates none itself, so there is one at most. `created` is createdIds
 * of each of `txs`, the transaction and the one it wraps, as the indexer computes them anyway.
 */
export function shownCreatedId(txs: readonly TxObject[], created: readonly Record<string, string>[]): string | null {
  for (const [depth, tx] of txs.entries()) {
    if (depth > 0 && tx.type === 'ContractCreateTx') continue;
    const id = Object.values(created[depth] ?? {})[0];
    if (id !== undefined) return id;
  }
  return null;
}

/** createdIdOf is shownCreatedId of a transaction, computing what it creates. */
export function createdIdOf(tx: TxObject): string | null {
  const inner = innerTx(tx);
  const txs = inner ? [tx, inner] : [tx];
  return shownCreatedId(txs, txs.map(createdIds));
}

/**
 * storedCreatedIds is createdIds of a transaction (the outer one or the one it wraps) whose shown created id was
 * stored: read, not hashed again. A row the `created` area has not reached yet (null for a type that creates) is
 * computed as before.
 */
export function storedCreatedIds(tx: TxObject, stored: string | null): Record<string, string> {
  const key = CREATED_ID_KEYS[String(tx.type)];
  if (key === undefined) return {};
  return stored === null ? createdIds(tx) : { [key]: stored };
}
