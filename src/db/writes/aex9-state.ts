/**
 * @module AEX-9 balances from the contracts' state where the events cannot explain them (migration 1020): which tokens
 * of a batch's heights need a read (their events took a balance or the supply below zero, or they were read before and
 * were touched since), and the write of a read as the differences from the summed events, at the transaction read
 * after. Fork-exact as the events are: the reads and their rows go with their heights.
 */
import type { Queryable } from '../connection/pool.ts';
import type { TxPosition } from '../queries/positions.ts';

/**
 * Why a token's balances are read from its state: what its events would have made of it, or touched again since;
 * `creation_unknown`: its events took it below zero but its balances at creation were never read (the node kept no
 * state there), which explains it: the token is not marked invalid for it.
 */
export type Aex9StateReason = 'negative_balance' | 'negative_supply' | 'creation_unknown' | 'touched';

/** A token whose balances are to be read from its state after the transaction named (its last touch in the batch). */
export interface Aex9Unsettled extends TxPosition {
  readonly txHash: string;
  readonly contractId: string;
  /** the micro block of that transaction: the state read is the one after it */
  readonly blockHash: string;
  readonly reason: Aex9StateReason;
  /** its first read: the token is marked invalid from here on */
  readonly first: boolean;
}

/** The sentinel log_idx of a read's rows: after every event of its transaction. */
const AFTER_EVENTS = 2_147_483_647;

/**
 * balanceAt is the balance of aex9_balances row `b` through height `$to`: the backfill derives stored heights in
 * order while the rows of the heights above may still be there, and a read's differences are from the sums up to it.
 */
const balanceAt = (to: string): string =>
  `b.amount - coalesce((SELECT sum(a.delta) FROM aex9_events a
                         WHERE a.contract_id = b.contract_id AND a.account = b.account AND a.height > ${to}), 0)`;

/**
 * aex9Unsettled lists the tokens whose balances the heights from..to leave to be read from their state: those the
 * events of these heights took below zero (a balance of an account they moved, or the supply), and those read before
 * whose events or calls came after their last read (up to `to`: after a fork's rollback too). Each with its last
 * such touch, where the read goes. It records the heights as settled (migration 1157, issue 88): a batch that goes on
 * from the last settled one (its heights start at most one above that one's top and reach it) looks at the tokens its
 * heights touch (their AEX-9 events, and `called`: the contracts its calls call, as the batch holds them, where the
 * table's calls of its heights would be read for them) and those whose reads a delete removed since; any other (a
 * reload, a re-derivation's first step below the top, a schema's first settle) at every token read up to `to`, one
 * lookup each. Both find the tokens the whole chain's events would: a settled batch leaves no token read up to its top
 * with a touch after its last read, and the calls of a grown generation's earlier micro blocks were its last batch's.
 * Each token's last read and last event are looked up by row comparisons on the token's keys alone (no bare height
 * bound), so no plan walks the heights of every token between its last read and `to`.
 */
export async function aex9Unsettled(
  db: Queryable,
  from: number,
  to: number,
  called: readonly string[],
): Promise<Aex9Unsettled[]> {
  const { rows } = await db.query<Aex9Unsettled>({
    name: 'mdw_aex9_unsettled',
    text: `WITH RECURSIVE
     goes_on AS (
       SELECT coalesce((SELECT to_height BETWEEN $1 - 1 AND $2 FROM aex9_settled), false) AS yes),
     settled AS (
       INSERT INTO aex9_settled (to_height) VALUES ($2) ON CONFLICT (one) DO UPDATE SET to_height = excluded.to_height),
     deleted_reads AS (DELETE FROM aex9_unsettled RETURNING contract_id),
     batch AS (
       SELECT contract_id, account FROM aex9_events WHERE height BETWEEN $1 AND $2 AND kind <> 'state'),
     every_read AS (
       (SELECT contract_id FROM aex9_state_reads WHERE NOT (SELECT yes FROM goes_on) ORDER BY contract_id LIMIT 1)
       UNION ALL
       SELECT (SELECT s.contract_id FROM aex9_state_reads s WHERE s.contract_id > r.contract_id
                ORDER BY s.contract_id LIMIT 1)
         FROM every_read r WHERE r.contract_id IS NOT NULL),
     touched AS (
       SELECT contract_id FROM batch
       UNION SELECT unnest($3::text[])
       UNION SELECT contract_id FROM deleted_reads
       UNION SELECT contract_id FROM every_read WHERE contract_id IS NOT NULL),
     broken AS (
       SELECT DISTINCT ON (contract_id) contract_id, reason FROM (
         SELECT b.contract_id, 'negative_balance' AS reason, 1 AS rank
           FROM (SELECT DISTINCT contract_id, account FROM batch) e
           JOIN aex9_balances b ON b.contract_id = e.contract_id AND b.account = e.account
          WHERE ${balanceAt('$2')} < 0
         UNION ALL
         SELECT s.contract_id, 'negative_supply', 2 FROM aex9_contract_state s
          WHERE s.contract_id IN (SELECT contract_id FROM batch)
            AND s.initial_supply + s.event_supply
                - coalesce((SELECT sum(a.delta) FROM aex9_events a WHERE a.contract_id = s.contract_id AND a.height > $2), 0)
                < 0) x
        ORDER BY contract_id, rank),
     candidates AS (
       SELECT t.contract_id, r.height AS rh, r.micro_index AS rm, r.tx_index AS rt,
              CASE WHEN c.balances_unknown AND k.reason IS NOT NULL THEN 'creation_unknown' ELSE k.reason END AS reason
         FROM touched t
         LEFT JOIN LATERAL (
           SELECT height, micro_index, tx_index FROM aex9_state_reads s
            WHERE s.contract_id = t.contract_id AND (s.contract_id, s.height) <= (t.contract_id, $2)
            ORDER BY contract_id DESC, height DESC, micro_index DESC, tx_index DESC LIMIT 1) r ON true
         LEFT JOIN broken k ON k.contract_id = t.contract_id
         LEFT JOIN aexn_contracts c ON c.contract_id = t.contract_id
        WHERE r.height IS NOT NULL OR k.reason IS NOT NULL
       -- kept apart (an inlined CTE is planned with its reader): the lookups below for these tokens only, not for
       -- every token the batch touched, which a plan of stale statistics put first
       OFFSET 0),
     latest AS (
       SELECT c.contract_id, l.height, l.micro_index, l.tx_index, l.tx_hash, c.reason, c.rh IS NULL AS first
         FROM candidates c
         CROSS JOIN LATERAL (
           SELECT * FROM (
             (SELECT e.height, e.micro_index, e.tx_index, e.tx_hash FROM aex9_events e
               WHERE e.kind <> 'state'
                 AND (e.contract_id, e.height, e.micro_index, e.tx_index)
                     > (c.contract_id, coalesce(c.rh, $1 - 1), coalesce(c.rm, 2147483647), coalesce(c.rt, 2147483647))
                 AND (e.contract_id, e.height) <= (c.contract_id, $2)
               ORDER BY e.contract_id DESC, e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1)
             UNION ALL
             (SELECT k.height, k.micro_index, k.tx_index, k.tx_hash FROM contract_calls k
               WHERE k.contract_id = c.contract_id AND k.height BETWEEN $1 AND $2
                 AND (k.height, k.micro_index, k.tx_index) > (coalesce(c.rh, -1), coalesce(c.rm, -1), coalesce(c.rt, -1))
               ORDER BY k.height DESC, k.micro_index DESC, k.tx_index DESC LIMIT 1)) x
            ORDER BY height DESC, micro_index DESC, tx_index DESC LIMIT 1) l)
     SELECT l.contract_id AS "contractId", l.height, l.micro_index AS "microIndex", l.tx_index AS "txIndex",
            l.tx_hash AS "txHash", m.hash AS "blockHash", coalesce(l.reason, 'touched') AS reason, l.first
       FROM latest l
       JOIN micro_blocks m ON m.height = l.height AND m.micro_index = l.micro_index
      ORDER BY l.contract_id`,
    values: [from, to, [...new Set(called)]],
  });
  return rows;
}

/** A read of a token's state: its balances (undefined: the node kept no state at that block). */
export interface Aex9StateRead {
  readonly token: Aex9Unsettled;
  readonly balances: ReadonlyMap<string, bigint> | undefined;
}

/**
 * writeAex9State writes reads of heights up to `to`: each token's differences between its state and its summed events
 * (through `to`) as rows of kind `state` at the transaction read after (its balances' triggers make them the state's), and the read itself. A state
 * the node no longer keeps sets the negative balances to zero instead (`state_unknown`).
 */
export async function writeAex9State(db: Queryable, reads: readonly Aex9StateRead[], to: number): Promise<void> {
  if (reads.length === 0) return;
  const tokens = reads.map((r) => r.token);
  const held = reads.flatMap((r) =>
    [...(r.balances ?? [])].map(([account, amount]) => ({ contract: r.token.contractId, account, amount })),
  );
  await db.query(
    `WITH r AS (
       SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::text[], $6::boolean[])
                     AS r(contract_id, height, micro_index, tx_index, tx_hash, known)),
     s AS (SELECT * FROM unnest($7::text[], $8::text[], $9::numeric[]) AS s(contract_id, account, amount)),
     now AS (
       SELECT b.contract_id, b.account, ${balanceAt('$10')} AS amount
         FROM aex9_balances b WHERE b.contract_id IN (SELECT contract_id FROM r)),
     diff AS (
       SELECT coalesce(n.contract_id, s.contract_id) AS contract_id, coalesce(n.account, s.account) AS account,
              coalesce(s.amount, 0) - coalesce(n.amount, 0) AS to_state, greatest(-coalesce(n.amount, 0), 0) AS to_zero
         FROM now n FULL JOIN s ON s.contract_id = n.contract_id AND s.account = n.account)
     INSERT INTO aex9_events (contract_id, account, height, micro_index, tx_index, log_idx, side, tx_hash, kind, delta)
     SELECT r.contract_id, d.account, r.height, r.micro_index, r.tx_index, ${AFTER_EVENTS}, 1, r.tx_hash, 'state',
            CASE WHEN r.known THEN d.to_state ELSE d.to_zero END
       FROM diff d JOIN r ON r.contract_id = d.contract_id
      WHERE CASE WHEN r.known THEN d.to_state ELSE d.to_zero END <> 0`,
    [
      tokens.map((t) => t.contractId),
      tokens.map((t) => t.height),
      tokens.map((t) => t.microIndex),
      tokens.map((t) => t.txIndex),
      tokens.map((t) => t.txHash),
      reads.map((r) => r.balances !== undefined),
      held.map((h) => h.contract),
      held.map((h) => h.account),
      held.map((h) => h.amount.toString()),
      to,
    ],
  );
  await db.query(
    `INSERT INTO aex9_state_reads (contract_id, height, micro_index, tx_index, tx_hash, reason, state_unknown)
     SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::boolean[])`,
    [
      tokens.map((t) => t.contractId),
      tokens.map((t) => t.height),
      tokens.map((t) => t.microIndex),
      tokens.map((t) => t.txIndex),
      tokens.map((t) => t.txHash),
      tokens.map((t) => t.reason),
      reads.map((r) => r.balances === undefined),
    ],
  );
}
