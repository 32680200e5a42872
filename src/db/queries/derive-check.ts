/**
 * @module `mdw -v`'s check of the tables derived from stored rows: inside one transaction that is always rolled back,
 * empty temporary twins of the derived tables hide the schema's (PostgreSQL looks up unqualified tables in pg_temp
 * first), the backfill's derivations fill them from the stored rows, and each is compared with the schema's table.
 * Nothing is written to the schema, and its tables are only read (the populator goes on writing meanwhile).
 */
import { quoteIdent, type Pool, type PoolClient } from '../pool.ts';
import { RECIPIENT_FIELDS, SENDER_FIELDS, sqlLiteral } from './account-fields.ts';

/** The per-height tables the backfill's areas write (the twins they derive into). */
export const DERIVED_BY_HEIGHT = [
  'generation_fees',
  'internal_transfers',
  'stats_generations',
  'stats_series_counts',
  'stats_accounts',
  'stats_active_accounts',
  'stats_miner_rewards',
  'spend_heights',
] as const;

/** Rows of one table found on one side only (first few as JSON text, and how many in all). */
export interface DerivedDifference {
  readonly table: string;
  readonly where: 'only in the database' | 'only re-derived from the stored rows';
  readonly rows: readonly string[];
  readonly total: number;
}

/**
 * withShadowTables runs `derive` over the stored heights 0..top of one snapshot on a connection whose derived
 * tables are empty temporary twins, then compares every twin (and the statement triggers' aggregates, recounted
 * from the twins, among them the spends per day migration 1061 keeps; and the counts migrations 1015 and 1045 keep,
 * the AEX-9 balances after each event and the channels' totals migrations 1050 and 1051 keep, the names pointing at
 * each id migration 1062 keeps, the key blocks' count and oracles' expiries migration 1069 keeps, the senders'
 * and recipients' pairs the writer adds (migration 1077), and each
 * generation's first txi and size below, recounted from the stored rows) with the schema's rows; the transaction is rolled back and
 * the connection closed, so nothing of it stays.
 * Returns undefined when nothing is stored.
 */
export async function withShadowTables(
  pool: Pool,
  schema: string,
  derive: (db: PoolClient, top: number) => Promise<void>,
  limit: number,
): Promise<{ top: number; differences: DerivedDifference[] } | undefined> {
  const client = await pool.connect();
  try {
    // a snapshot: the stored rows the derivation reads and the ones compared are the same
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ WRITE');
    const { rows: tops } = await client.query<{ top: number | null }>(
      `SELECT max(height) AS top FROM ${quoteIdent(schema)}.key_blocks`,
    );
    const top = tops[0]?.top;
    if (top == null) return undefined;
    for (const t of DERIVED_BY_HEIGHT)
      await client.query(
        `CREATE TEMPORARY TABLE ${quoteIdent(t)} (LIKE ${quoteIdent(schema)}.${quoteIdent(t)} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES) ON COMMIT DROP`,
      );
    await derive(client, top);
    const out: DerivedDifference[] = [];
    // `stored` and `derived` select the same columns; their only parameter, if any, is $2 (the top)
    const compare = async (table: string, stored: string, derived: string): Promise<void> => {
      for (const [from, other, where] of [
        [stored, derived, 'only in the database'],
        [derived, stored, 'only re-derived from the stored rows'],
      ] as const) {
        const sql = `SELECT row_to_json(d)::text AS row, count(*) OVER () AS total FROM ((${from}) EXCEPT ALL (${other})) d LIMIT $1`;
        const { rows } = await client.query<{ row: string; total: string }>(
          sql,
          sql.includes('$2') ? [limit, top] : [limit],
        );
        if (rows.length > 0) out.push({ table, where, rows: rows.map((r) => r.row), total: Number(rows[0]!.total) });
      }
    };
    const s = quoteIdent(schema);
    for (const t of DERIVED_BY_HEIGHT)
      await compare(
        t,
        `SELECT * FROM ${s}.${quoteIdent(t)} WHERE height <= $2`,
        `SELECT * FROM pg_temp.${quoteIdent(t)}`,
      );
    // the triggers' aggregates equal a recount of the re-derived rows (kept only while above zero, as they keep them)
    await compare(
      'stats_intervals',
      `SELECT series, interval_by, start, count FROM ${s}.stats_intervals`,
      `SELECT series, i.by, i.start, sum(count) FROM (
         SELECT series, day, count FROM pg_temp.stats_series_counts
         UNION ALL SELECT 'total_accounts', day, 1 FROM pg_temp.stats_accounts) c
        CROSS JOIN LATERAL (VALUES ('day', day), ('week', day / 7), ('month', ${s}.stats_month_of(day))) i(by, start)
        GROUP BY 1, 2, 3 HAVING sum(count) <> 0
       UNION ALL
       SELECT 'active_accounts', interval_by, start, count(*) FROM pg_temp.stats_active_accounts GROUP BY 2, 3`,
    );
    await compare(
      'stats_miners',
      `SELECT miner, total_reward FROM ${s}.stats_miners`,
      `SELECT miner, sum(reward) FROM pg_temp.stats_miner_rewards GROUP BY 1 HAVING sum(reward) <> 0`,
    );
    // the spends per day migration 1061's triggers keep: the re-derived heights' summed
    await compare(
      'spend_days',
      `SELECT day, count, amount FROM ${s}.spend_days`,
      `SELECT day, sum(count), sum(amount) FROM pg_temp.spend_heights GROUP BY 1`,
    );
    // the counts migration 1015's triggers keep equal a recount of the stored rows (the same snapshot)
    await compare(
      'account_tx_counts',
      `SELECT account, tx_type, fields, n FROM ${s}.account_tx_counts`,
      `SELECT account, tx_type, fields, count(*) FROM ${s}.account_transactions GROUP BY 1, 2, 3`,
    );
    // the pairs the writer adds (migration 1077): each position's senders' rows joined to its recipients'
    await compare(
      'account_pairs',
      `SELECT sender, recipient, height, micro_index, tx_index FROM ${s}.account_pairs`,
      `SELECT snd.account, rcv.account, snd.height, snd.micro_index, snd.tx_index
         FROM ${s}.account_transactions snd
         JOIN ${s}.account_transactions rcv
           ON rcv.height = snd.height AND rcv.micro_index = snd.micro_index AND rcv.tx_index = snd.tx_index
        WHERE snd.fields ~ ${sqlLiteral(SENDER_FIELDS)} AND rcv.fields ~ ${sqlLiteral(RECIPIENT_FIELDS)}`,
    );
    await compare(
      'tx_type_totals',
      `SELECT tx_type, n, size FROM ${s}.tx_type_totals`,
      `SELECT tx_type, count(*), sum(size) FROM ${s}.transactions GROUP BY 1`,
    );
    // the balance after each AEX-9 event migration 1050's triggers keep: the running sum of the account's events
    await compare(
      'aex9_event_balances',
      `SELECT contract_id, account, height, micro_index, tx_index, log_idx, side, balance FROM ${s}.aex9_event_balances`,
      `SELECT contract_id, account, height, micro_index, tx_index, log_idx, side,
              sum(delta) OVER (PARTITION BY contract_id, account ORDER BY height, micro_index, tx_index, log_idx, side)
         FROM ${s}.aex9_events`,
    );
    // each channel's totals and latest transaction migration 1051's triggers keep
    await compare(
      'channel_totals',
      `SELECT channel_id, updates, closes, solo_closes, deposited, withdrawn, last_height, last_micro_index, last_tx_index
         FROM ${s}.channel_totals`,
      `SELECT channel_id, count(*), count(*) FILTER (WHERE closes), count(*) FILTER (WHERE tx_type = 'ChannelCloseSoloTx'),
              coalesce(sum(amount) FILTER (WHERE tx_type = 'ChannelDepositTx'), 0),
              coalesce(sum(amount) FILTER (WHERE tx_type = 'ChannelWithdrawTx'), 0),
              (max(ARRAY[height, micro_index, tx_index]))[1], (max(ARRAY[height, micro_index, tx_index]))[2],
              (max(ARRAY[height, micro_index, tx_index]))[3]
         FROM ${s}.channel_events GROUP BY 1`,
    );
    // the active names' edges migration 1045's triggers keep: a recount of the stored names' (the same snapshot)
    await compare(
      'name_count_edges',
      `SELECT owner, height, expiring, activating FROM ${s}.name_count_edges`,
      `SELECT e.owner, e.height, sum(e.expiring), sum(e.activating) FROM ${s}.name_state n, ${s}.name_count_edges_of(n) e
        GROUP BY 1, 2 HAVING sum(e.expiring) <> 0 OR sum(e.activating) <> 0`,
    );
    // their sums per span of 100 and 10 000 heights (migration 1060), which the names' count reads
    await compare(
      'name_count_spans',
      `SELECT owner, width, span, expiring, activating FROM ${s}.name_count_spans`,
      `SELECT e.owner, w.width, e.height / w.width, sum(e.expiring), sum(e.activating)
         FROM ${s}.name_state n, ${s}.name_count_edges_of(n) e, (VALUES (100), (10000)) w(width)
        GROUP BY 1, 2, 3 HAVING sum(e.expiring) <> 0 OR sum(e.activating) <> 0`,
    );
    // the names pointing at each id migration 1062's triggers keep: the stored names' current pointers
    await compare(
      'name_pointees',
      `SELECT id, name, name_hash, expires_at, auction_end FROM ${s}.name_pointees`,
      `SELECT o.* FROM ${s}.name_state n, ${s}.name_pointees_of(n) o`,
    );
    // the stored key blocks' count migration 1069's triggers keep (/middleware/status's `contiguous`)
    await compare('key_block_count', `SELECT n FROM ${s}.key_block_count`, `SELECT count(*) FROM ${s}.key_blocks`);
    // each registered oracle's expiry after its latest event, which migration 1069's triggers keep (the oracles' list)
    await compare(
      'oracle_expiries',
      `SELECT oracle_id, expires_at FROM ${s}.oracle_expiries`,
      `SELECT DISTINCT ON (oracle_id) oracle_id, expires_at FROM ${s}.oracle_events
        WHERE oracle_id IN (SELECT oracle_id FROM ${s}.oracle_events WHERE kind = 'register')
        ORDER BY oracle_id, height DESC, micro_index DESC, tx_index DESC`,
    );
    // each generation's first txi (generation_txis, which txis and scope counts read) and size below (migration 1046,
    // /middleware/size/height): the stored micro blocks' transactions and the stored transactions' sizes below it; a
    // row without its key block recounts as 0
    await compare(
      'generation_txis',
      `SELECT height, first_txi, size_before FROM ${s}.generation_txis`,
      `SELECT g.height, coalesce(c.before, 0), coalesce(c.size_before, 0) FROM ${s}.generation_txis g
         LEFT JOIN (SELECT k.height, sum(k.n) OVER below AS before, sum(k.size) OVER below AS size_before
                      FROM (SELECT k.height, (SELECT coalesce(sum(m.tx_count), 0) FROM ${s}.micro_blocks m
                                               WHERE m.height = k.height) AS n,
                                   (SELECT coalesce(sum(t.size), 0) FROM ${s}.transactions t WHERE t.height = k.height) AS size
                              FROM ${s}.key_blocks k) k
                    WINDOW below AS (ORDER BY k.height ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)) c
           ON c.height = g.height`,
    );
    return { top, differences: out };
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    // the connection's prepared statements may name the twins: it is not given back to the pool
    client.release(true);
  }
}
