/**
 * @module The name events of contracts' AENS calls (migration 1112): name_events rows with the internal call's
 * `local_idx`, written by the int_calls area beside its calls; and what their fold reads: each call's place and the
 * name transactions' events of the range.
 */
import { stringifyJson, type Json } from '../../chain/json.ts';
import type { Queryable } from '../connection/pool.ts';
import { priorNameStates, type NameEventState } from '../queries/state-events.ts';
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

/**
 * rangeNameEvents reads what the fold of `hashes` over a range starts from: each name's state before the range and
 * the range's events of the name transactions (chain order); the contracts' rows of the range are deleted first.
 */
export async function rangeNameEvents(
  db: Queryable,
  hashes: readonly string[],
  range: HeightRange,
): Promise<{ prior: Map<string, NameEventState>; stored: StoredNameEventRow[] }> {
  const prior = await priorNameStates(db, [...hashes], { height: range.from, microIndex: range.fromMicro });
  const { rows } = await db.query<StoredNameEventRow>({
    name: 'mdw_range_name_events',
    text: `SELECT name_hash AS "nameHash", height, micro_index AS "microIndex", tx_index AS "txIndex", name, kind,
                  owner, expires_at AS "expiresAt", auction_end AS "auctionEnd", name_fee::text AS "nameFee", pointers
             FROM name_events
            WHERE name_hash = ANY ($1::text[]) AND height BETWEEN $2 AND $3 AND (height > $2 OR micro_index >= $4)
            ORDER BY height, micro_index, tx_index`,
    values: [hashes, range.from, range.to, range.fromMicro],
  });
  return { prior, stored: rows };
}

/** A contract's name event as written. */
export interface ContractNameEventRow extends StoredNameEventRow {
  readonly txHash: string;
  readonly localIdx: number;
}

/** deleteContractNameEvents removes the contracts' name events of a range (name_state follows by its triggers). */
export async function deleteContractNameEvents(db: Queryable, range: HeightRange): Promise<void> {
  await db.query({
    name: 'mdw_contract_name_events_delete',
    text: `DELETE FROM name_events
            WHERE height BETWEEN $1 AND $2 AND (height > $1 OR micro_index >= $3) AND local_idx IS NOT NULL`,
    values: [range.from, range.to, range.fromMicro],
  });
}

/** insertContractNameEvents writes contracts' name events (name_state follows by its triggers). */
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
