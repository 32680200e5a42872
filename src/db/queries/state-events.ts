/**
 * @module The writer's reads of name_events, oracle_events and channel_events: each name's, oracle's or channel's
 * latest event before a chain position (the state a batch starting there folds its new events onto).
 */
import type { Json } from '../../chain/json.ts';
import { channelTerms, type ChannelState, type ChannelTerms } from '../../chain/channel-state.ts';
import { renderStoredTx } from '../../chain/stored-tx.ts';
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
 * latestStates maps each of `keys` that has a row of `table` before the position to `state` of its latest one there:
 * the row's `columns` (of `e`) beside the key, one index probe per key.
 */
async function latestStates<R extends object, S>(
  db: Queryable,
  { table, key, columns }: { table: string; key: keyof R & string; columns: string },
  keys: string[],
  before: ChainPosition,
  state: (row: R) => S,
): Promise<Map<string, S>> {
  if (keys.length === 0) return new Map();
  const { rows } = await db.query<R>({
    // one text a table (each has its one set of columns)
    name: `mdw_latest_${table}`,
    text: `SELECT h.${key}, ${columns}
       FROM unnest($1::text[]) AS h(${key})
       CROSS JOIN LATERAL (
         SELECT * FROM ${table} e WHERE e.${key} = h.${key} AND (e.height, e.micro_index) < ($2, $3)
          ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) e`,
    values: [keys, before.height, before.microIndex],
  });
  return new Map(rows.map((r) => [r[key] as string, state(r)]));
}

/** priorNameStates maps each name hash that has an event before `before` to its state after that event. */
export async function priorNameStates(
  db: Queryable,
  hashes: string[],
  before: ChainPosition,
): Promise<Map<string, NameEventState>> {
  const columns = 'e.name, e.kind, e.owner, e.expires_at, e.auction_end, e.name_fee, e.pointers';
  return latestStates(
    db,
    { table: 'name_events', key: 'name_hash', columns },
    hashes,
    before,
    (r: {
      name_hash: string;
      name: string | null;
      kind: string;
      owner: string;
      expires_at: number | null;
      auction_end: number | null;
      name_fee: string | null;
      pointers: Json;
    }) => ({
      name: r.name,
      kind: r.kind,
      owner: r.owner,
      expiresAt: r.expires_at,
      auctionEnd: r.auction_end,
      nameFee: r.name_fee,
      pointers: r.pointers,
    }),
  );
}

/** priorOracleStates maps each oracle id that has an event before `before` to its expiry after that event. */
export async function priorOracleStates(
  db: Queryable,
  ids: string[],
  before: ChainPosition,
): Promise<Map<string, OracleEventState>> {
  return latestStates(
    db,
    { table: 'oracle_events', key: 'oracle_id', columns: 'e.expires_at' },
    ids,
    before,
    (r: { oracle_id: string; expires_at: number }) => ({ expiresAt: r.expires_at }),
  );
}

/** A channel before a batch: its state after its latest transaction (null: not derived yet) and its terms. */
export interface PriorChannel {
  readonly state: ChannelState | null;
  /** its creation's terms (parties and reserve), which its solo closes', slashes' and force progresses' trees need */
  readonly terms: ChannelTerms | undefined;
}

/**
 * priorChannelStates maps each channel id that has a transaction before `before` to its state after the latest one
 * (null while that state is not known yet: a row stored before migration 1051 or 1147 that the channels area has not
 * derived) and its terms, read from its first transaction (its creation).
 */
export async function priorChannelStates(
  db: Queryable,
  ids: string[],
  before: ChainPosition,
): Promise<Map<string, PriorChannel>> {
  const columns = `e.round::text, e.solo_round::text, e.state_hash, e.initiator_amount::text,
    e.responder_amount::text,
    (SELECT t.signed FROM channel_events c
       JOIN transactions t ON t.height = c.height AND t.micro_index = c.micro_index AND t.tx_index = c.tx_index
      WHERE c.channel_id = h.channel_id ORDER BY c.height, c.micro_index, c.tx_index LIMIT 1) AS created`;
  return latestStates(
    db,
    { table: 'channel_events', key: 'channel_id', columns },
    ids,
    before,
    (r: {
      channel_id: string;
      round: string | null;
      solo_round: string | null;
      state_hash: string | null;
      initiator_amount: string | null;
      responder_amount: string | null;
      created: Buffer;
    }) => ({
      state:
        r.round === null
          ? null
          : {
              round: BigInt(r.round),
              soloRound: BigInt(r.solo_round ?? 0),
              stateHash: r.state_hash,
              initiatorAmount: BigInt(r.initiator_amount ?? 0),
              responderAmount: BigInt(r.responder_amount ?? 0),
            },
      terms: channelTerms(renderStoredTx(r.created).tx),
    }),
  );
}
