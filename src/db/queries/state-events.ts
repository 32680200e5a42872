/**
 * @module The writer's reads of name_events, oracle_events and channel_events: each name's, oracle's or channel's
 * latest event before a chain position (the state a batch starting there folds its new events onto).
 */
import type { Json } from '../../chain/json.ts';
import type { ChannelState } from '../../chain/channel-state.ts';
import type { Queryable } from '../connection/pool.ts';

/** A position in the chain: events strictly before it are the prior state. */
export interface ChainPosition {
  readonly height: number;
  readonly microIndex: number;
}

/** A name's state as a name_events row records it (after that event). */
export interface NameEventState {
  readonly name: string | null;
  readonly kind: string;
  readonly owner: string;
  readonly expiresAt: number | null;
  readonly auctionEnd: number | null;
  readonly nameFee: string | null;
  readonly pointers: Json;
}

/** An oracle's expiry as an oracle_events row records it (after that event). */
export interface OracleEventState {
  readonly expiresAt: number;
}

/**
 * latestEventsBefore is the statement reading, for each key of `$1`, its latest row of `table` before the position
 * ($2, $3) as `e`, beside the key as `h.<key>`: one index probe per key.
 */
function latestEventsBefore(table: string, key: string, columns: string): string {
  return `SELECT h.${key}, ${columns}
       FROM unnest($1::text[]) AS h(${key})
       CROSS JOIN LATERAL (
         SELECT * FROM ${table} e WHERE e.${key} = h.${key} AND (e.height, e.micro_index) < ($2, $3)
          ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) e`;
}

/** priorNameStates maps each name hash that has an event before `before` to its state after that event. */
export async function priorNameStates(
  db: Queryable,
  hashes: string[],
  before: ChainPosition,
): Promise<Map<string, NameEventState>> {
  if (hashes.length === 0) return new Map();
  const { rows } = await db.query<{
    name_hash: string;
    name: string | null;
    kind: string;
    owner: string;
    expires_at: number | null;
    auction_end: number | null;
    name_fee: string | null;
    pointers: Json;
  }>(
    latestEventsBefore(
      'name_events',
      'name_hash',
      'e.name, e.kind, e.owner, e.expires_at, e.auction_end, e.name_fee, e.pointers',
    ),
    [hashes, before.height, before.microIndex],
  );
  return new Map(
    rows.map((r) => [
      r.name_hash,
      {
        name: r.name,
        kind: r.kind,
        owner: r.owner,
        expiresAt: r.expires_at,
        auctionEnd: r.auction_end,
        nameFee: r.name_fee,
        pointers: r.pointers,
      },
    ]),
  );
}

/** priorOracleStates maps each oracle id that has an event before `before` to its expiry after that event. */
export async function priorOracleStates(
  db: Queryable,
  ids: string[],
  before: ChainPosition,
): Promise<Map<string, OracleEventState>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ oracle_id: string; expires_at: number }>(
    latestEventsBefore('oracle_events', 'oracle_id', 'e.expires_at'),
    [ids, before.height, before.microIndex],
  );
  return new Map(rows.map((r) => [r.oracle_id, { expiresAt: r.expires_at }]));
}

/**
 * priorChannelStates maps each channel id that has a transaction before `before` to its state after the latest one;
 * null while that state is not known yet (a row stored before migration 1051 that the channels area has not derived).
 */
export async function priorChannelStates(
  db: Queryable,
  ids: string[],
  before: ChainPosition,
): Promise<Map<string, ChannelState | null>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{
    channel_id: string;
    round: string | null;
    solo_round: string | null;
    state_hash: string | null;
  }>(latestEventsBefore('channel_events', 'channel_id', 'e.round::text, e.solo_round::text, e.state_hash'), [
    ids,
    before.height,
    before.microIndex,
  ]);
  return new Map(
    rows.map((r) => [
      r.channel_id,
      r.round === null
        ? null
        : { round: BigInt(r.round), soloRound: BigInt(r.solo_round ?? 0), stateHash: r.state_hash },
    ]),
  );
}
