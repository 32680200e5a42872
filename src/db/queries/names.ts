/** @module Read-side SQL for names: pages of the name_state table (a name's latest event and current claim). */
import type { Json } from '../../chain/json.ts';
import type { Queryable } from '../pool.ts';
import type { Window } from './transactions.ts';

/** A name's current state in the original middleware's field names. */
export interface NameRow {
  readonly name: string;
  readonly name_hash: string;
  readonly tx_hash: string;
  readonly created_at_height: number;
  readonly auction_end_height: number;
  readonly owner: string;
  readonly expires_at: number | null;
  readonly pointers: Json;
}

/** Which names a listing selects. */
export interface NameFilter {
  /** only names whose current owner is this account */
  readonly owner?: string | undefined;
  /** only names active at this height (auction over, not expired, not revoked) */
  readonly activeAt?: number | undefined;
  /** only names containing this text (lower case) */
  readonly contains?: string | undefined;
  /** only names currently pointing at this id, unexpired at `activeAt` */
  readonly pointingAt?: string | undefined;
  /** newest claim first (default), latest expiry first, or by name */
  readonly order?: 'created' | 'expires' | 'name';
  readonly reverse?: boolean;
}

// Current state per name, kept by migration 0002 (name_state_refresh over name_events, run by
// triggers in the writing transaction): a pure function of name_events, so forks and reloads roll it back.
const NAME_STATE = `
  SELECT name, name_hash, tx_hash, created_at_height, auction_end_height, owner, expires_at, pointers
    FROM name_state
   WHERE ($2::text IS NULL OR owner = $2)
     AND ($3::int IS NULL OR ((auction_end_height = created_at_height OR auction_end_height < $3)
                               AND expires_at >= $3 AND kind <> 'revoke'))
     AND ($4::text IS NULL OR strpos(name, $4) > 0)
     AND `;

// Names currently pointing at $1. A sub-select under an OR stays a filter over every name, so the
// listing picks this condition, or its neutral form, as a whole: then the lookup is a join.
const POINTING_AT = [
  '$1::text IS NULL',
  `name_hash IN (SELECT name_hash FROM name_pointers WHERE id = $1)
     AND pointers @> jsonb_build_array(jsonb_build_object('id', $1::text))`,
] as const;

const ORDERS = {
  created: ['created_at_height DESC, name', 'created_at_height ASC, name DESC'],
  expires: ['expires_at DESC NULLS LAST, name', 'expires_at ASC NULLS FIRST, name DESC'],
  name: ['name', 'name DESC'],
} as const;

/** names pages the current state of names matching the filter. */
export async function names(db: Queryable, filter: NameFilter, w: Window): Promise<NameRow[]> {
  const order = ORDERS[filter.order ?? 'created'][filter.reverse ? 1 : 0];
  const { rows } = await db.query<NameRow>(
    `${NAME_STATE}${POINTING_AT[filter.pointingAt === undefined ? 0 : 1]} ORDER BY ${order} LIMIT $5 OFFSET $6`,
    [
      filter.pointingAt ?? null,
      filter.owner ?? null,
      filter.activeAt ?? null,
      filter.contains ?? null,
      w.limit,
      w.offset,
    ],
  );
  return rows;
}

/** nameByHash is the current state of the name with this hash (nm_), or undefined. */
export async function nameByHash(db: Queryable, nameHash: string): Promise<NameRow | undefined> {
  const { rows } = await db.query<NameRow>(
    `SELECT name, name_hash, tx_hash, created_at_height, auction_end_height, owner, expires_at, pointers
       FROM name_state WHERE name_hash = $1`,
    [nameHash],
  );
  return rows[0];
}
