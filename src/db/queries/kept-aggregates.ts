/**
 * @module The kept aggregates: the tables that statement triggers (or the writer) keep beside the stored rows so a
 * route reads a few rows where it would count many, each declared once with how `mdw -v` recounts it. The recount
 * (derive-check.ts) and docs/operations.md's table ("Kept aggregates", test/unit/docs/kept-aggregates.test.ts) read
 * this table; `mdw -v --full` compares every table with a load from the node anyway. A new kept aggregate is its
 * migration and one row here.
 */
import { RECIPIENT_FIELDS, SENDER_FIELDS, sqlLiteral } from './account-fields.ts';

/** KeptAggregate is one kept table and its recount. */
export interface KeptAggregate {
  readonly table: string;
  /** the migration that made it */
  readonly migration: number;
  /** what it keeps and what it is recounted from, for docs/operations.md */
  readonly doc: string;
  /** the columns compared, as the table stores them */
  readonly columns: readonly string[];
  /**
   * recount selects the same columns from the stored rows of schema `s` (quoted), or from the rows re-derived into
   * the temporary twins (`pg_temp.<table>`), in the snapshot `mdw -v` compares; its only parameter, if any, is $2
   */
  readonly recount: (s: string) => string;
}

/** KEPT_AGGREGATES: every kept aggregate, in the order `mdw -v` recounts them. */
export const KEPT_AGGREGATES: readonly KeptAggregate[] = [
  {
    table: 'stats_intervals',
    migration: 1004,
    doc: "each statistic's count per day, week and month; recounted from the re-derived statistics' rows",
    columns: ['series', 'interval_by', 'start', 'count'],
    // kept only while above zero, as the triggers keep them
    recount: (s) => `SELECT series, i.by, i.start, sum(count) FROM (
         SELECT series, day, count FROM pg_temp.stats_series_counts
         UNION ALL SELECT 'total_accounts', day, 1 FROM pg_temp.stats_accounts) c
        CROSS JOIN LATERAL (VALUES ('day', day), ('week', day / 7), ('month', ${s}.stats_month_of(day))) i(by, start)
        GROUP BY 1, 2, 3 HAVING sum(count) <> 0
       UNION ALL
       SELECT 'active_accounts', interval_by, start, count(*) FROM pg_temp.stats_active_accounts GROUP BY 2, 3`,
  },
  {
    table: 'stats_miners',
    migration: 1004,
    doc: "each miner's total reward; recounted from the re-derived rewards",
    columns: ['miner', 'total_reward'],
    recount: () => `SELECT miner, sum(reward) FROM pg_temp.stats_miner_rewards GROUP BY 1 HAVING sum(reward) <> 0`,
  },
  {
    table: 'spend_days',
    migration: 1061,
    doc: "the spends per day (`/middleware/transactions/rate`); the re-derived heights' summed",
    columns: ['day', 'count', 'amount'],
    recount: () => `SELECT day, sum(count), sum(amount) FROM pg_temp.spend_heights GROUP BY 1`,
  },
  {
    table: 'account_tx_counts',
    migration: 1015,
    doc: "per id, outer type and fields, how many account rows (an id's counts); recounted from `account_transactions`",
    columns: ['account', 'tx_type', 'fields', 'n'],
    recount: (s) => `SELECT account, tx_type, fields, count(*) FROM ${s}.account_transactions GROUP BY 1, 2, 3`,
  },
  {
    table: 'account_pairs',
    migration: 1077,
    doc: "each transaction's senders and recipients, paired (written by the writer); the account rows joined at each position",
    columns: ['sender', 'recipient', 'height', 'micro_index', 'tx_index'],
    recount: (s) => `SELECT snd.account, rcv.account, snd.height, snd.micro_index, snd.tx_index
         FROM ${s}.account_transactions snd
         JOIN ${s}.account_transactions rcv
           ON rcv.height = snd.height AND rcv.micro_index = snd.micro_index AND rcv.tx_index = snd.tx_index
        WHERE snd.fields ~ ${sqlLiteral(SENDER_FIELDS)} AND rcv.fields ~ ${sqlLiteral(RECIPIENT_FIELDS)}`,
  },
  {
    table: 'tx_type_totals',
    migration: 1015,
    doc: 'per outer type, how many transactions and their bytes (added by the writer); recounted from `transactions`',
    columns: ['tx_type', 'n', 'size'],
    recount: (s) => `SELECT tx_type, count(*), sum(size) FROM ${s}.transactions GROUP BY 1`,
  },
  {
    table: 'aex9_event_balances',
    migration: 1050,
    doc: "the balance after each AEX-9 event; the running sum of the account's events",
    columns: ['contract_id', 'account', 'height', 'micro_index', 'tx_index', 'log_idx', 'side', 'balance'],
    recount: (s) => `SELECT contract_id, account, height, micro_index, tx_index, log_idx, side,
              sum(delta) OVER (PARTITION BY contract_id, account ORDER BY height, micro_index, tx_index, log_idx, side)
         FROM ${s}.aex9_events`,
  },
  {
    table: 'channel_totals',
    migration: 1051,
    doc: "each channel's totals and latest transaction; recounted from `channel_events`",
    columns: [
      'channel_id',
      'updates',
      'closes',
      'solo_closes',
      'deposited',
      'withdrawn',
      'last_height',
      'last_micro_index',
      'last_tx_index',
    ],
    recount: (
      s,
    ) => `SELECT channel_id, count(*), count(*) FILTER (WHERE closes), count(*) FILTER (WHERE tx_type = 'ChannelCloseSoloTx'),
              coalesce(sum(amount) FILTER (WHERE tx_type = 'ChannelDepositTx'), 0),
              coalesce(sum(amount) FILTER (WHERE tx_type = 'ChannelWithdrawTx'), 0),
              (max(ARRAY[height, micro_index, tx_index]))[1], (max(ARRAY[height, micro_index, tx_index]))[2],
              (max(ARRAY[height, micro_index, tx_index]))[3]
         FROM ${s}.channel_events GROUP BY 1`,
  },
  {
    table: 'name_count_edges',
    migration: 1045,
    doc: 'per owner and height, the active names that expire and that become active there; recounted from `name_state`',
    columns: ['owner', 'height', 'expiring', 'activating'],
    recount: (s) => `SELECT e.owner, e.height, sum(e.expiring), sum(e.activating)
         FROM ${s}.name_state n, ${s}.name_count_edges_of(n) e
        GROUP BY 1, 2 HAVING sum(e.expiring) <> 0 OR sum(e.activating) <> 0`,
  },
  {
    table: 'name_count_spans',
    migration: 1060,
    doc: "the names' edges summed per span of 100 and 10 000 heights (the names' count); recounted from `name_state`",
    columns: ['owner', 'width', 'span', 'expiring', 'activating'],
    recount: (s) => `SELECT e.owner, w.width, e.height / w.width, sum(e.expiring), sum(e.activating)
         FROM ${s}.name_state n, ${s}.name_count_edges_of(n) e, (VALUES (100), (10000)) w(width)
        GROUP BY 1, 2, 3 HAVING sum(e.expiring) <> 0 OR sum(e.activating) <> 0`,
  },
  {
    table: 'name_pointees',
    migration: 1062,
    doc: "the names pointing at each id; the stored names' current pointers",
    columns: ['id', 'name', 'name_hash', 'expires_at', 'auction_end'],
    recount: (s) => `SELECT o.* FROM ${s}.name_state n, ${s}.name_pointees_of(n) o`,
  },
  {
    table: 'key_block_count',
    migration: 1069,
    doc: "the stored key blocks' count (`/middleware/status`'s `contiguous`); recounted from `key_blocks`",
    columns: ['n'],
    recount: (s) => `SELECT count(*) FROM ${s}.key_blocks`,
  },
  {
    table: 'oracle_expiries',
    migration: 1069,
    doc: "each registered oracle's expiry after its latest event (the oracles' list); recounted from `oracle_events`",
    columns: ['oracle_id', 'expires_at'],
    recount: (s) => `SELECT DISTINCT ON (oracle_id) oracle_id, expires_at FROM ${s}.oracle_events
        WHERE oracle_id IN (SELECT oracle_id FROM ${s}.oracle_events WHERE kind = 'register')
        ORDER BY oracle_id, height DESC, micro_index DESC, tx_index DESC`,
  },
  {
    table: 'generation_txis',
    migration: 1003,
    doc: "each generation's first txi and (1046) the transactions' bytes below it (txis, a range's count, `/middleware/size/height`); recounted from `micro_blocks` and `transactions`",
    columns: ['height', 'first_txi', 'size_before'],
    // a row without its key block recounts as 0
    recount: (s) => `SELECT g.height, coalesce(c.before, 0), coalesce(c.size_before, 0) FROM ${s}.generation_txis g
         LEFT JOIN (SELECT k.height, sum(k.n) OVER below AS before, sum(k.size) OVER below AS size_before
                      FROM (SELECT k.height, (SELECT coalesce(sum(m.tx_count), 0) FROM ${s}.micro_blocks m
                                               WHERE m.height = k.height) AS n,
                                   (SELECT coalesce(sum(t.size), 0) FROM ${s}.transactions t WHERE t.height = k.height) AS size
                              FROM ${s}.key_blocks k) k
                    WINDOW below AS (ORDER BY k.height ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)) c
           ON c.height = g.height`,
  },
];
