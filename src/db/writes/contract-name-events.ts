/**
 * @module The name events of contracts' AENS calls (migration 1112): name_events rows with the internal call's
 * `local_idx`, written by the int_calls area beside its calls, and the pointers their updates set (name_pointers rows
 * with it, migration 1160); and what their fold reads: each call's place and the name transactions' events of the
 * range.
 */
import { stringifyJson, type Json } from '../../chain/json.ts';
import type { Queryable } from '../connection/pool.ts';
import type { ChainPosition, NameEventState } from '../queries/state-events.ts';
import type { StoredInternalCall } from './internal-calls.ts';
import { insertMany } from './bulk-load.ts';
import type { HeightRange } from '../queries/height-range.ts';

/** A contract call's place: its hash, its micro block's height (the header's) and its key block's protocol. */
export interface StoredCallPlace {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly txHash: string;
  readonly blockHeight: number;
  readonly protocol: number;
}

/** callPlaces reads the places of the contract calls at `positions`. */
export async function callPlaces(
  db: Queryable,
  positions: readonly { height: number; microIndex: number; txIndex: number }[],
): Promise<StoredCallPlace[]> {
  if (positions.length === 0) return [];
  const { rows } = await db.query<StoredCallPlace>({
    name: 'mdw_contract_call_places',
    text: `SELECT t.height, t.micro_index AS "microIndex", t.tx_index AS "txIndex", t.hash AS "txHash",
                  coalesce((m.header ->> 'height')::int, m.height) AS "blockHeight",
                  coalesce((k.data ->> 'version')::int, 1) AS protocol
             FROM unnest($1::int[], $2::int[], $3::int[]) AS p(height, micro_index, tx_index)
             JOIN transactions t ON (t.height, t.micro_index, t.tx_index) = (p.height, p.micro_index, p.tx_index)
             JOIN micro_blocks m ON (m.height, m.micro_index) = (t.height, t.micro_index)
             JOIN key_blocks k ON k.height = t.height`,
    values: [positions.map((p) => p.height), positions.map((p) => p.microIndex), positions.map((p) => p.txIndex)],
  });
  return rows;
}

/** A name's event as stored, at its position. */
export interface StoredNameEventRow extends NameEventState {
  readonly nameHash: string;
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
}

/** A name event as written: a contract's (its internal call's `local_idx`) or a name transaction's (null). */
export interface ContractNameEventRow extends StoredNameEventRow {
  readonly txHash: string;
  readonly localIdx: number | null;
}

/**
 * deleteContractNameEvents removes the contracts' name events of a range (name_state follows by its triggers): the
 * names they were of.
 */
export async function deleteContractNameEvents(db: Queryable, range: HeightRange): Promise<string[]> {
  const { rows } = await db.query<{ name_hash: string }>({
    name: 'mdw_contract_name_events_delete',
    text: `DELETE FROM name_events
            WHERE height BETWEEN $1 AND $2 AND (height > $1 OR micro_index >= $3) AND local_idx IS NOT NULL
        RETURNING name_hash`,
    values: [range.from, range.to, range.fromMicro],
  });
  return [...new Set(rows.map((r) => r.name_hash))];
}

/** A name transaction's event as stored from a position on, with what folding it again needs. */
export interface StoredNameTxEvent extends ContractNameEventRow {
  readonly blockHeight: number;
  readonly protocol: number;
  /** the transaction (wrapped or not) as stored */
  readonly signed: Uint8Array;
}

/** nameTxEventsFrom reads the events of the name transactions of `hashes` at `from` and after it, in chain order. */
export async function nameTxEventsFrom(
  db: Queryable,
  hashes: readonly string[],
  from: ChainPosition,
): Promise<StoredNameTxEvent[]> {
  const { rows } = await db.query<StoredNameTxEvent>({
    name: 'mdw_name_tx_events_from',
    text: `SELECT e.name_hash AS "nameHash", e.height, e.micro_index AS "microIndex", e.tx_index AS "txIndex",
                  e.tx_hash AS "txHash", e.name, e.kind, e.owner, e.expires_at AS "expiresAt",
                  e.auction_end AS "auctionEnd", e.name_fee::text AS "nameFee", e.pointers, t.signed,
                  coalesce((m.header ->> 'height')::int, m.height) AS "blockHeight",
                  coalesce((k.data ->> 'version')::int, 1) AS protocol
             FROM name_events e
             JOIN transactions t ON (t.height, t.micro_index, t.tx_index) = (e.height, e.micro_index, e.tx_index)
             JOIN micro_blocks m ON (m.height, m.micro_index) = (e.height, e.micro_index)
             JOIN key_blocks k ON k.height = e.height
            WHERE e.name_hash = ANY ($1::text[]) AND e.local_idx IS NULL AND (e.height, e.micro_index) >= ($2, $3)
            ORDER BY e.height, e.micro_index, e.tx_index`,
    values: [hashes, from.height, from.microIndex],
  });
  return rows.map((r) => ({ ...r, localIdx: null }));
}

/** STORED_CALL_COLUMNS are a stored internal call's columns (of `contract_internal_calls i`) as StoredInternalCall. */
const STORED_CALL_COLUMNS = `i.height, i.micro_index AS "microIndex", i.tx_index AS "txIndex", i.local_idx AS "localIdx",
       i.function, i.internal_tx AS "internalTx"`;

/** rangeCallsOf reads the stored internal calls of `functions` in a range, in chain order (the `names` area's fold). */
export async function rangeCallsOf(
  db: Queryable,
  range: HeightRange,
  functions: readonly string[],
): Promise<StoredInternalCall[]> {
  const { rows } = await db.query<StoredInternalCall>({
    name: 'mdw_range_calls_of',
    text: `SELECT ${STORED_CALL_COLUMNS}
             FROM contract_internal_calls i
            WHERE i.function = ANY ($4::text[]) AND i.height BETWEEN $1 AND $2 AND (i.height > $1 OR i.micro_index >= $3)
            ORDER BY i.height, i.micro_index, i.tx_index, i.local_idx`,
    values: [range.from, range.to, range.fromMicro, functions],
  });
  return rows;
}

/**
 * laterContractNameCalls reads the AENS internal calls of the calls holding a contract's name event of `hashes` above
 * height `above` (a range derived again below heights whose calls are derived), in chain order.
 */
export async function laterContractNameCalls(
  db: Queryable,
  hashes: readonly string[],
  above: number,
): Promise<StoredInternalCall[]> {
  const { rows } = await db.query<StoredInternalCall>({
    name: 'mdw_later_contract_name_calls',
    text: `SELECT ${STORED_CALL_COLUMNS}
             FROM contract_internal_calls i
            WHERE i.height > $2 AND i.function LIKE 'AENS.%'
              AND EXISTS (SELECT 1 FROM name_events e
                           WHERE e.name_hash = ANY ($1::text[]) AND e.local_idx IS NOT NULL AND e.height = i.height
                             AND e.micro_index = i.micro_index AND e.tx_index = i.tx_index)
            ORDER BY i.height, i.micro_index, i.tx_index, i.local_idx`,
    values: [hashes, above],
  });
  return rows;
}

/** deleteNameEventsFrom removes every event of `hashes` at `from` and after it (name_state follows by its triggers). */
export async function deleteNameEventsFrom(
  db: Queryable,
  hashes: readonly string[],
  from: ChainPosition,
): Promise<void> {
  await db.query({
    name: 'mdw_name_events_delete_from',
    text: `DELETE FROM name_events WHERE name_hash = ANY ($1::text[]) AND (height, micro_index) >= ($2, $3)`,
    values: [hashes, from.height, from.microIndex],
  });
}

/** insertContractNameEvents writes name events, contracts' and others (name_state follows by its triggers). */
export async function insertContractNameEvents(db: Queryable, rows: readonly ContractNameEventRow[]): Promise<void> {
  const column = <T>(f: (r: ContractNameEventRow) => T): T[] => rows.map(f);
  await insertMany(
    db,
    'name_events',
    [
      ['name_hash', 'text'],
      ['name', 'text'],
      ['height', 'int'],
      ['micro_index', 'int'],
      ['tx_index', 'int'],
      ['tx_hash', 'text'],
      ['kind', 'text'],
      ['owner', 'text'],
      ['expires_at', 'int'],
      ['auction_end', 'int'],
      ['name_fee', 'numeric'],
      ['pointers', 'jsonb'],
      ['local_idx', 'int'],
    ],
    [
      column((r) => r.nameHash),
      column((r) => r.name),
      column((r) => r.height),
      column((r) => r.microIndex),
      column((r) => r.txIndex),
      column((r) => r.txHash),
      column((r) => r.kind),
      column((r) => r.owner),
      column((r) => r.expiresAt),
      column((r) => r.auctionEnd),
      column((r) => r.nameFee),
      column((r) => stringifyJson(r.pointers as Json)),
      column((r) => r.localIdx),
    ],
  );
}

/** A pointer a contract's AENS.update set, as name_pointers holds it (migration 1160). */
export interface ContractPointerWrite {
  readonly nameHash: string;
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly key: string;
  readonly id: string;
  readonly localIdx: number;
}

/** deleteContractNamePointers removes the pointers the contracts' updates of a range set. */
export async function deleteContractNamePointers(db: Queryable, range: HeightRange): Promise<void> {
  await db.query({
    name: 'mdw_contract_name_pointers_delete',
    text: `DELETE FROM name_pointers
            WHERE height BETWEEN $1 AND $2 AND (height > $1 OR micro_index >= $3) AND local_idx IS NOT NULL`,
    values: [range.from, range.to, range.fromMicro],
  });
}

/** The columns of name_pointers a contract's update writes, each with its value of a row. */
const POINTER_COLUMNS: readonly (readonly [string, string, (r: ContractPointerWrite) => unknown])[] = [
  ['name_hash', 'text', (r) => r.nameHash],
  ['height', 'int', (r) => r.height],
  ['micro_index', 'int', (r) => r.microIndex],
  ['tx_index', 'int', (r) => r.txIndex],
  ['key', 'text', (r) => r.key],
  ['id', 'text', (r) => r.id],
  ['local_idx', 'int', (r) => r.localIdx],
];

/** insertContractNamePointers writes the pointers contracts' updates set. */
export async function insertContractNamePointers(db: Queryable, rows: readonly ContractPointerWrite[]): Promise<void> {
  await insertMany(
    db,
    'name_pointers',
    POINTER_COLUMNS.map(([name, type]) => [name, type]),
    POINTER_COLUMNS.map(([, , value]) => rows.map(value)),
  );
}
