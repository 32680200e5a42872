/**
 * @module The compact forms the database keeps of ids and transaction types (migrations/1000_chain.sql). Pure.
 *
 * An id is stored as its kind's tag and its 32 bytes (33 bytes against 53 characters): the node's
 * binary id where the kind has one (tx-schema.ts `ID_TAGS`: ak 1, nm 2, cm 3, ok 4, ct 5, ch 6), and
 * tag 7, which the node does not use, for oracle query ids. The tag keeps `ak_X` and `ok_X` (the
 * same 32 bytes) apart. A transaction type is stored as the node's object tag of its type (SpendTx
 * 12, …, ChannelForceProgressTx 521), which fits a smallint.
 */
import { encode, type Prefix } from './encoding.ts';
import { idBytes } from './id-cache.ts';
import { ID_TAGS, schemaFor, TX_SCHEMAS } from './tx-schema.ts';

/** The tag of each id kind in its key (the node's id tags, plus oq). */
export const KEY_TAGS: Readonly<Record<string, number>> = { ...ID_TAGS, oq: 7 };
const PREFIX_OF_TAG = new Map<number, Prefix>(Object.entries(KEY_TAGS).map(([p, t]) => [t, p as Prefix]));

/** The key that no stored id has: what an id that does not decode is looked up as (it matches nothing). */
const NO_KEY = Buffer.alloc(0);

/**
 * idKey is the stored key of an id as a request names it: its tag and payload, or an empty key
 * (which matches no row) when the text is not a well-formed id of a stored kind, so a malformed or
 * mistyped id finds nothing, as it did when ids were stored as text. The payload comes from the id cache:
 * the writer keys the ids the transform has just decoded (a decoding is mostly its checksum).
 */
export function idKey(id: string): Buffer {
  const prefix = id.slice(0, 2);
  if (id[2] !== '_' || !Object.hasOwn(KEY_TAGS, prefix)) return NO_KEY;
  try {
    return Buffer.concat([Uint8Array.of(KEY_TAGS[prefix]!), idBytes(id)]);
  } catch {
    return NO_KEY;
  }
}

/** idOfKey is the id a stored key stands for, as the node prints it. */
export function idOfKey(key: Uint8Array): string {
  const prefix = PREFIX_OF_TAG.get(key[0]!);
  if (prefix === undefined || key.length < 2) throw new TypeError(`not a stored id key (tag ${key[0]})`);
  return encode(prefix, key.subarray(1));
}

/**
 * TX_TYPE_NONE stands for a type this code does not know (a later protocol's) where no database is asked: such a
 * type is stored under a negative code of its own (migration 1011, db/writes/tx-type-codes.ts).
 */
export const TX_TYPE_NONE = 0;
const CODE_OF_TYPE = new Map<string, number>(TX_SCHEMAS.map((s) => [s.type, s.tag]));

/** isKnownTxType tells a type this code knows (it has the node's tag as its code). */
export function isKnownTxType(type: string): boolean {
  return CODE_OF_TYPE.has(type);
}

/** txTypeCode is the stored code of a known transaction type: the node's object tag of the type (TX_TYPE_NONE for another). */
export function txTypeCode(type: string): number {
  return CODE_OF_TYPE.get(type) ?? TX_TYPE_NONE;
}

/** txTypeOfCode is the type name of a stored code. */
export function txTypeOfCode(code: number): string {
  const type = schemaFor(code)?.type;
  if (type === undefined) throw new TypeError(`not a stored transaction type code: ${code}`);
  return type;
}

/** TX_TYPE_CODES pairs every known type with its code (the migration's conversion lists the same pairs). */
export const TX_TYPE_CODES: readonly (readonly [type: string, code: number])[] = [...CODE_OF_TYPE];
