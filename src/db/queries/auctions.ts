/**
 * @module Read-side SQL for name auctions, from name events: a claim that opens an auction (kind
 * 'claim' with an auction end) and the bids that follow it (kind 'bid') until the next claim of the
 * name. The auction's entry (NAE) is its last bid: bidder, bid, and the auction end after it.
 */
import type { Queryable } from '../connection/pool.ts';
import { renderPlaceholders } from './stored-tx-json.ts';
import { RAW_TX_JSON, type Window } from './transactions.ts';

/** How /names/auctions/active orders and filters. */
export interface AuctionFilter {
  /** by end (default, soonest first), by name, or by winning bid (highest first) */
  readonly sort: 'expiration' | 'name' | 'max_bid';
  readonly reverse: boolean;
  /** only names of this many bytes, `.chain` included */
  readonly length?: number | undefined;
}

const POS = '(e.height, e.micro_index, e.tx_index)';

// The NameAuctionEntry of the auction an opening claim `c` started: the last of `c` and the bids
// after it that come before the name's next claim.
const ENTRY_OF_CLAIM = `
  CROSS JOIN LATERAL (
    SELECT min(n.height) AS height FROM name_events n
     WHERE n.name_hash = c.name_hash AND n.kind = 'claim' AND n.height > c.height) nxt
  CROSS JOIN LATERAL (
    SELECT e.auction_end, e.name_fee, e.owner FROM name_events e
     WHERE e.name_hash = c.name_hash AND ${POS} >= (c.height, c.micro_index, c.tx_index)
       AND (e.kind = 'bid' OR ${POS} = (c.height, c.micro_index, c.tx_index))
       AND (nxt.height IS NULL OR e.height < nxt.height)
     ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) w`;
const ENTRY_JSON = `jsonb_build_object('name', c.name, 'expiration', w.auction_end,
  'winning_bid', w.name_fee::text, 'winning_bidder', w.owner)`;

// Running auctions: names in auction at `top`, with their last bid (the latest event of the name).
// The node hands an auctioned name to its winner when the generation after the auction's end
// starts, so the auction still runs in the generation of its end. A name never auctioned has its
// claim height as auction end.
const RUNNING = `
  FROM name_state s
  CROSS JOIN LATERAL (
    SELECT e.name_fee FROM name_events e WHERE e.name_hash = s.name_hash
     ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) w
  WHERE s.auction_end_height >= $1 AND s.auction_end_height <> s.created_at_height AND s.kind IN ('claim', 'bid')
    AND ($2::int IS NULL OR octet_length(s.name) = $2)`;

const ORDERS = {
  expiration: ['s.auction_end_height, s.name', 's.auction_end_height DESC, s.name DESC'],
  name: ['s.name', 's.name DESC'],
  max_bid: ['w.name_fee DESC, s.name', 'w.name_fee, s.name DESC'],
} as const;

/** runningAuctions pages the auctions running at `top` as NameAuctionEntry JSON texts. */
export async function runningAuctions(db: Queryable, top: number, f: AuctionFilter, w: Window): Promise<string[]> {
  const { rows } = await db.query<{ json: string }>(
    `SELECT jsonb_build_object('name', s.name, 'expiration', s.auction_end_height,
              'winning_bid', w.name_fee::text, 'winning_bidder', s.owner)::text AS json
       ${RUNNING} ORDER BY ${ORDERS[f.sort][f.reverse ? 1 : 0]} LIMIT $3 OFFSET $4`,
    [top, f.length ?? null, w.limit, w.offset],
  );
  return rows.map((r) => renderPlaceholders(r.json));
}

/** countRunningAuctions counts the auctions running at `top` (the filter's length applies). */
export async function countRunningAuctions(db: Queryable, top: number, length: number | undefined): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n ${RUNNING}`, [top, length ?? null]);
  return Number(rows[0]?.n ?? 0);
}

/** The latest auction of a name: its entry and its bids (the opening claim included), newest first. */
export interface NameAuction {
  /** NameAuctionEntry JSON text */
  readonly entry: string;
  /** raw transaction JSON texts */
  readonly bids: string[];
}

/** latestAuction is the name's latest auction, or undefined when its latest claim opened none. */
export async function latestAuction(db: Queryable, name: string, w: Window): Promise<NameAuction | undefined> {
  const { rows } = await db.query<{ entry: string; bids: string[] }>(
    `WITH c AS (
       SELECT e.name_hash, e.name, e.height, e.micro_index, e.tx_index FROM name_events e
        WHERE e.name = $1 AND e.kind = 'claim' AND e.auction_end IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM name_events later WHERE later.name_hash = e.name_hash AND later.kind = 'claim'
                            AND (later.height, later.micro_index, later.tx_index) > ${POS})
        ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1)
     SELECT (${ENTRY_JSON})::text AS entry,
            ARRAY(SELECT (${RAW_TX_JSON})::text FROM name_events b JOIN transactions t ON t.hash = b.tx_hash
                   WHERE b.name_hash = c.name_hash AND b.kind IN ('claim', 'bid')
                     AND (b.height, b.micro_index, b.tx_index) >= (c.height, c.micro_index, c.tx_index)
                     AND (nxt.height IS NULL OR b.height < nxt.height)
                   ORDER BY b.height DESC, b.micro_index DESC, b.tx_index DESC LIMIT $2 OFFSET $3) AS bids
       FROM c ${ENTRY_OF_CLAIM}`,
    [name, w.limit, w.offset],
  );
  return rows[0] && { entry: rows[0].entry, bids: rows[0].bids.map(renderPlaceholders) };
}

/** bidsOfAccount pages an account's claims and bids in auctions, newest first, each with its auction's entry. */
export async function bidsOfAccount(db: Queryable, account: string, w: Window): Promise<string[]> {
  const { rows } = await db.query<{ json: string }>(
    `SELECT jsonb_build_object('name_auction_entry', ${ENTRY_JSON}, 'transaction', ${RAW_TX_JSON})::text AS json
       FROM (SELECT b.* FROM name_events b
              WHERE b.owner = $1 AND b.kind IN ('claim', 'bid') AND b.auction_end IS NOT NULL
              ORDER BY b.height DESC, b.micro_index DESC, b.tx_index DESC LIMIT $2 OFFSET $3) b
       JOIN transactions t ON t.hash = b.tx_hash
       CROSS JOIN LATERAL (
         SELECT e.name_hash, e.name, e.height, e.micro_index, e.tx_index FROM name_events e
          WHERE e.name_hash = b.name_hash AND e.kind = 'claim'
            AND ${POS} <= (b.height, b.micro_index, b.tx_index)
          ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) c
       ${ENTRY_OF_CLAIM}
      ORDER BY b.height DESC, b.micro_index DESC, b.tx_index DESC`,
    [account, w.limit, w.offset],
  );
  return rows.map((r) => renderPlaceholders(r.json));
}
