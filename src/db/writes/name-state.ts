/**
 * @module name_state written by the writer for a batch above every stored name event (migration 1156): the rows
 * before taken out in one statement, which tells the insert trigger of name_events to leave the batch's events to
 * the writer, which COPYs the rows after (indexer/rows/name-state-rows.ts). Any other batch (a reload's or a fork's
 * heights below stored events, a batch continuing a generation) leaves name_state to the trigger's refresh.
 */
import type { Json } from '../../chain/json.ts';
import type { Queryable } from '../connection/pool.ts';

/** A name_state row as the writer COPYs it: the name's registration (its latest claim) after its latest event. */
export interface NameStateWrite {
  readonly nameHash: string;
  readonly name: string;
  /** the latest claim's transaction and height */
  readonly txHash: string;
  readonly createdAtHeight: number;
  /** the registration's latest auction end (of its claims and bids), else the claim's height */
  readonly auctionEndHeight: number;
  readonly owner: string;
  readonly expiresAt: number | null;
  readonly pointers: Json;
  readonly kind: string;
}

/** What a name's row before a batch gives the batch's: its claim and its auction's end so far. */
export type PriorNameRow = Pick<NameStateWrite, 'name' | 'txHash' | 'createdAtHeight' | 'auctionEndHeight'>;

/** The transaction-local setting by which the writer tells name_events' insert trigger it keeps name_state itself. */
const KEPT_BY_WRITER = 'mdw.name_state_kept';

/**
 * takeNameStates deletes the rows of `hashes` and gives them by name hash, and tells the insert trigger of name_events
 * to skip the writer's events, where every stored name event is below `height` (the batch's first, a whole
 * generation); else (a batch continuing a generation: no height) it changes nothing, says the trigger refreshes the
 * names again (the transaction's earlier batch may have said otherwise) and gives undefined. One statement: the
 * highest stored name event is one probe of its height index.
 */
export async function takeNameStates(
  db: Queryable,
  hashes: readonly string[],
  height: number | undefined,
): Promise<Map<string, PriorNameRow> | undefined> {
  const { rows } = await db.query<{ kept: string; rows: { h: string; n: string; t: string; c: number; a: number }[] }>({
    name: 'mdw_take_name_states',
    text: `WITH below AS (SELECT coalesce((SELECT max(height) FROM name_events), -1) < $2::int IS TRUE AS yes),
       taken AS (
         DELETE FROM name_state s WHERE s.name_hash = ANY ($1::text[]) AND (SELECT yes FROM below)
         RETURNING s.name_hash AS h, s.name AS n, s.tx_hash AS t, s.created_at_height AS c, s.auction_end_height AS a)
     SELECT set_config('${KEPT_BY_WRITER}', CASE WHEN (SELECT yes FROM below) THEN 'writer' ELSE '' END, true) AS kept,
            (SELECT coalesce(json_agg(taken), '[]') FROM taken) AS rows`,
    values: [hashes, height ?? null],
  });
  const { kept, rows: taken } = rows[0]!;
  if (kept !== 'writer') return undefined;
  return new Map(taken.map((r) => [r.h, { name: r.n, txHash: r.t, createdAtHeight: r.c, auctionEndHeight: r.a }]));
}
