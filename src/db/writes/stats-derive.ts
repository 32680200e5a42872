/**
 * @module Write-side SQL of the statistics (migration 1004): a batch's heights derive their rows
 * from the stored chain, inside the batch's transaction. The triggers of 0070 keep the per-interval
 * counts and the miners' totals in step.
 */
import { isAccountSql } from '../queries/account-ids.ts';
import { txTypeCode } from '../../chain/id-key.ts';
import { arrayText } from '../connection/array-text.ts';
import { copyMany } from './bulk-load.ts';
import { CopyPayloads } from './copy-in.ts';
import type { Queryable } from '../connection/pool.ts';
import { txTypeNameSql } from '../queries/transactions.ts';

/**
 * inBatch is "the column is one of the batch's heights" as the height indexes can use it: the range
 * lowest..highest ($2, $3; a plain `= ANY` of hundreds of heights is planned as a full scan) and the
 * exact set ($1: a -H batch may skip heights). Every statement takes $1..$3 so.
 */
const inBatch = (column: string): string => `${column} BETWEEN $2 AND $3 AND ${column} = ANY($1::int[])`;
/** day is the UTC day number of the milliseconds column `ms`. */
const day = (ms: string): string => `floor(${ms} / 86400000)::int`;

/**
 * Series counted in memory, column by column: the rows of `stats_series_counts` (height, series, UTC day, count: a
 * number, or a bigint for difficulty and hashrate), and their sums per series and day (the intervals' inputs).
 */
export interface CountedSeries {
  readonly rows: {
    readonly heights: readonly number[];
    readonly series: readonly string[];
    readonly days: readonly number[];
    readonly counts: readonly (number | bigint)[];
  };
  readonly daySums: {
    readonly series: readonly string[];
    readonly days: readonly number[];
    readonly counts: readonly (number | bigint)[];
  };
}

/**
 * The accounts' rows counted in memory, column by column: first appearances in the batch (account number, height,
 * day), and each account's lowest height per interval (interval_by, start, account, height).
 */
export interface CountedAccounts {
  readonly firstSeen: {
    readonly accounts: readonly number[];
    readonly heights: readonly number[];
    readonly days: readonly number[];
  };
  readonly active: {
    readonly intervalBy: readonly string[];
    readonly starts: readonly number[];
    readonly accounts: readonly number[];
    readonly heights: readonly number[];
  };
}

/**
 * What a batch's statements derived in PostgreSQL that its series count, as they returned them: the miners each key
 * block paid (stats_miner_rewards' rows), each generation's names activated and contracts created (stats_generations'),
 * and the AEX-9 transfers, mints and burns of each micro block.
 */
export interface DerivedFigures {
  readonly miners: readonly { readonly height: number; readonly miner: string }[];
  readonly generations: readonly {
    readonly height: number;
    readonly names_activated: number;
    readonly contracts_created: number;
  }[];
  readonly aex9Transfers: readonly { readonly height: number; readonly micro_index: number; readonly count: number }[];
}

/**
 * What a batch counted in memory: its series (from its rows and what its statements derived), and its accounts' rows
 * when the writer gave its appearances.
 */
export interface CountedBatch {
  readonly series: (derived: DerivedFigures) => CountedSeries;
  readonly accounts?: CountedAccounts;
  readonly generations: CountedGenerations;
}

/**
 * A batch's generations' figures counted in memory, per height (column by column): channels opened and closed, what
 * the channel transactions lock (numeric text), the micro blocks' transactions and the last one's time (0 if none).
 */
export interface CountedGenerations {
  readonly heights: readonly number[];
  readonly channelsOpened: readonly number[];
  readonly channelsClosed: readonly number[];
  readonly lockedInChannels: readonly bigint[];
  readonly microTxs: readonly number[];
  readonly lastMs: readonly bigint[];
}

/** What the populator computes itself for each height of a batch (same order in every array). */
export interface GenerationFigures {
  readonly heights: readonly number[];
  readonly difficulties: readonly bigint[];
  readonly hashrates: readonly bigint[];
  /**
   * the series and accounts' rows the batch's own rows decide, counted in memory (indexer/stats-series.ts,
   * stats-accounts.ts), used when nothing is stored at or above the batch's lowest height (else, and when absent,
   * the stored rows are counted)
   */
  readonly counted?: () => CountedBatch;
}

// A name event is a name's state from its height until the name's next event, a contract's AENS call's (`local_idx`,
// migration 1112) as a name transaction's, as ae_mdw counts them: the int_calls area writes those after this area
// (maybe long after, through the backfill) and has it derive again from their height (NAME_READERS).
const LATER_NAME_EVENT_BY = (until: string): string =>
  `EXISTS (SELECT 1 FROM name_events l WHERE l.name_hash = e.name_hash AND l.height <= ${until}
             AND (l.height, l.micro_index, l.tx_index) > (e.height, e.micro_index, e.tx_index))`;
const EARLIER_NAME_EVENT = `EXISTS (SELECT 1 FROM name_events o WHERE o.name_hash = e.name_hash
             AND (o.height, o.micro_index, o.tx_index) < (e.height, e.micro_index, e.tx_index))`;
const LATER_ORACLE_EVENT_BEFORE = (height: string): string =>
  `EXISTS (SELECT 1 FROM oracle_events l WHERE l.oracle_id = e.oracle_id AND l.height < ${height}
             AND (l.height, l.micro_index, l.tx_index) > (e.height, e.micro_index, e.tx_index))`;
const EARLIER_ORACLE_EVENT = `EXISTS (SELECT 1 FROM oracle_events o WHERE o.oracle_id = e.oracle_id
             AND (o.height, o.micro_index, o.tx_index) < (e.height, e.micro_index, e.tx_index))`;
/** The internal transfers that mint: the genesis accounts' and those a hard fork credits. */
const MINTED = "i.kind LIKE 'accounts\\_%' OR i.kind LIKE 'contracts\\_%'";
/** code is a transaction type's stored code (transactions.tx_type, 0087). */
const code = (type: string): number => txTypeCode(type);

/**
 * The range of the batch's heights only: DELTAS takes the exact set once, in its outer query (the estimates of a
 * `= ANY` of hundreds of heights in every branch took longer to plan than the statement took to run).
 */
const inRange = (column: string, by = ''): string => `${column} BETWEEN $2${by} AND $3${by}`;

/** What a generation's rows add up to, per height (tps's inputs last: the outer query of DELTAS takes them apart). */
const SUMS = [
  'auctions_started',
  'auctions_ended',
  'names_claimed',
  'names_expired',
  'names_revoked',
  'names_reclaimed',
  'oracles_registered',
  'oracles_expired',
  'oracles_reregistered',
  'channels_opened',
  'channels_closed',
  'contracts_created',
  'accounts',
  'block_reward',
  'dev_reward',
  'burned_in_auctions',
  'locked_in_auctions',
  'locked_in_channels',
  'minted',
  'micro_txs',
] as const;
/** the counts among SUMS (integers; the others are amounts) */
const COUNTS = new Set(SUMS.slice(0, SUMS.indexOf('accounts') + 1));
type Contribution = (typeof SUMS)[number] | 'last_ms';

/**
 * contributions are the rows of `from` with the height each counts at and what it adds to some figures (the others
 * get NULL, which sum and max skip).
 */
const contributions = (height: string, adds: Partial<Record<Contribution, string>>, from: string): string =>
  `SELECT ${height} AS height, ${[...SUMS, 'last_ms' as const]
    .map((f) => `(${adds[f] ?? 'NULL'})::numeric AS ${f}`)
    .join(', ')} FROM ${from}`;
const when = (condition: string, value = '1'): string => `CASE WHEN ${condition} THEN ${value} END`;

/** The branches of DELTAS a batch of whole generations counts in memory (stats-generations.ts), read from the stored rows. */
const STORED_GENERATIONS = [
  contributions(
    'c.height',
    { channels_opened: when("c.tx_type = 'ChannelCreateTx'"), channels_closed: when('c.closes') },
    `channel_events c WHERE ${inRange('c.height')}`,
  ),
  // the channel transactions that move what channels lock (every other type adds nothing)
  contributions(
    't.height',
    {
      // channel_amount: the amount, or the two parties' (final) amounts, the writer read from the tx
      locked_in_channels: `CASE t.tx_type
        WHEN ${code('ChannelCreateTx')} THEN t.channel_amount
        WHEN ${code('ChannelDepositTx')} THEN t.channel_amount
        WHEN ${code('ChannelWithdrawTx')} THEN -t.channel_amount
        WHEN ${code('ChannelCloseMutualTx')} THEN -(t.channel_amount + t.fee)
        WHEN ${code('ChannelSettleTx')} THEN -t.channel_amount END`,
    },
    `transactions t WHERE t.tx_type IN (${['ChannelCreateTx', 'ChannelDepositTx', 'ChannelWithdrawTx', 'ChannelCloseMutualTx', 'ChannelSettleTx'].map(code).join(', ')}) AND ${inRange('t.height')}`,
  ),
  contributions(
    'm.height',
    { micro_txs: 'm.tx_count', last_ms: 'm.time_ms' },
    `micro_blocks m WHERE ${inRange('m.height')}`,
  ),
];

/**
 * The same figures counted in memory (indexer/stats-generations.ts), as arrays $4..$8 with an element per height from
 * the batch's lowest ($2) up, read by each key block at its own position: joined as a set, or as a branch of the
 * contributions, the planner expected too few rows and scanned them once per key block (48 ms against 9 ms for 200
 * heights). Channels opened and closed, what the channel transactions lock, the micro blocks' transactions and the
 * last one's time (0 for a generation without micro blocks: its tps is 0 either way), typed as the stored sums are.
 */
const counted = (param: number, type: string): string => `($${param}::${type}[])[k.height - $2 + 1]`;
const COUNTED_FIGURES: Partial<Record<Contribution, string>> = {
  channels_opened: counted(4, 'int'),
  channels_closed: counted(5, 'int'),
  locked_in_channels: counted(6, 'numeric'),
};
const COUNTED_TPS = `CASE WHEN ${counted(8, 'bigint')} > k.time_ms
  THEN round(${counted(7, 'int')}::numeric * 100000.0 / (${counted(8, 'bigint')}::numeric - k.time_ms)) / 100 ELSE 0 END`;

/**
 * A generation's DeltaStat from the stored chain. A name is in auction through its auction's end
 * height and active through its expiry height (as /v3/names reads them), so an auction ended at
 * H - 1 activates its name at H and a name expiring at H - 1 is expired at H; an oracle is active
 * below its expiry height. Every name fee paid at H is burned in auctions (ae_mdw's fee_lock_name);
 * locked in auctions is what the running auctions hold: the fees of claims and bids in auctions at
 * H, less the bids outbid at H (refunded) and the winning bids of auctions ended at H - 1 (spent).
 * Each source table is read once for the whole batch and its rows' contributions are summed per
 * height: a probe per height and figure (23 per height) was most of the statement's time, and joining
 * the sources' own per-height sums took longer to plan than to run.
 */
const deltas = (inMemory: boolean): string => `
  SELECT k.height, k.time_ms, k.beneficiary,
    ${SUMS.filter((f) => f !== 'micro_txs')
      .map((f) => `coalesce(${(inMemory && COUNTED_FIGURES[f]) || `f.${f}`}, 0)${COUNTS.has(f) ? '::int' : ''} AS ${f}`)
      .join(', ')},
    ${
      inMemory
        ? COUNTED_TPS
        : 'CASE WHEN f.last_ms > k.time_ms THEN round(f.micro_txs * 100000.0 / (f.last_ms - k.time_ms)) / 100 ELSE 0 END'
    } AS tps
  FROM key_blocks k
  LEFT JOIN (
    SELECT height, ${SUMS.map((f) => `sum(${f}) AS ${f}`).join(', ')}, max(last_ms) AS last_ms
      FROM (${[
        contributions(
          'e.height',
          {
            auctions_started: when("e.kind = 'claim' AND e.auction_end IS NOT NULL"),
            names_claimed: when("e.kind = 'claim' AND e.auction_end IS NULL"),
            names_revoked: when("e.kind = 'revoke'"),
            names_reclaimed: when(`e.kind = 'claim' AND ${EARLIER_NAME_EVENT}`),
            burned_in_auctions: when("e.kind IN ('claim', 'bid')", 'e.name_fee'),
            // a claim's or bid's fee in an auction, less what a bid outbid (the name's claim or bid before it)
            locked_in_auctions: `coalesce(${when("e.kind IN ('claim', 'bid') AND e.auction_end IS NOT NULL", 'e.name_fee')}, 0)
              - coalesce(${when(
                "e.kind = 'bid'",
                `(SELECT o.name_fee FROM name_events o
                   WHERE o.name_hash = e.name_hash AND o.kind IN ('claim', 'bid')
                     AND (o.height, o.micro_index, o.tx_index) < (e.height, e.micro_index, e.tx_index)
                   ORDER BY o.height DESC, o.micro_index DESC, o.tx_index DESC LIMIT 1)`,
              )}, 0)`,
          },
          // the kinds that count (an update or a transfer adds nothing: only rows to sort and sum)
          `name_events e WHERE ${inRange('e.height')} AND e.kind IN ('claim', 'bid', 'revoke')`,
        ),
        // the winning bids of auctions ended at H - 1
        contributions(
          'e.auction_end + 1',
          { auctions_ended: '1', locked_in_auctions: '-e.name_fee' },
          `name_events e WHERE ${inRange('e.auction_end', ' - 1')} AND e.kind IN ('claim', 'bid')
             AND NOT ${LATER_NAME_EVENT_BY('e.auction_end')}`,
        ),
        contributions(
          'e.expires_at + 1',
          { names_expired: '1' },
          `name_events e WHERE ${inRange('e.expires_at', ' - 1')} AND e.kind <> 'revoke'
             AND NOT ${LATER_NAME_EVENT_BY('e.expires_at')}`,
        ),
        contributions(
          'e.height',
          { oracles_registered: '1', oracles_reregistered: when(EARLIER_ORACLE_EVENT) },
          `oracle_events e WHERE ${inRange('e.height')} AND e.kind = 'register'`,
        ),
        contributions(
          'e.expires_at',
          { oracles_expired: '1' },
          `oracle_events e WHERE ${inRange('e.expires_at')} AND e.height < e.expires_at
             AND NOT ${LATER_ORACLE_EVENT_BEFORE('e.expires_at')}`,
        ),
        ...(inMemory ? [] : STORED_GENERATIONS),
        contributions('c.height', { contracts_created: '1' }, `contracts c WHERE ${inRange('c.height')}`),
        // what the key block paid (the writer stores the internal transfers first)
        contributions(
          'i.height',
          {
            block_reward: when("i.kind = 'reward_block'", 'i.amount'),
            dev_reward: when("i.kind = 'reward_dev'", 'i.amount'),
            minted: when(MINTED, 'i.amount'),
          },
          // those kinds alone (the name fees, oracle rewards and refunds add nothing: only rows to sort and sum)
          `internal_transfers i WHERE ${inRange('i.height')} AND (i.kind IN ('reward_block', 'reward_dev') OR ${MINTED})`,
        ),
        contributions('a.height', { accounts: '1' }, `stats_accounts a WHERE ${inRange('a.height')}`),
      ].join('\n      UNION ALL ')}) x
     GROUP BY height
  ) f USING (height)
  WHERE ${inBatch('k.height')}`;

const DELTA_COLUMNS = `height, time_ms, beneficiary, auctions_started, auctions_ended, names_activated, names_expired,
  names_revoked, names_reclaimed, oracles_registered, oracles_expired, oracles_reregistered, channels_opened,
  channels_closed, contracts_created, block_reward, dev_reward, burned_in_auctions, locked_in_auctions,
  locked_in_channels, accounts, tps, minted`;

const TOTAL_COLUMNS: readonly (readonly [total: string, delta: string])[] = [
  ['sum_block_reward', 'block_reward'],
  ['sum_dev_reward', 'dev_reward'],
  ['sum_burned_in_auctions', 'burned_in_auctions'],
  ['sum_locked_in_auctions', 'locked_in_auctions'],
  ['sum_locked_in_channels', 'locked_in_channels'],
  ['sum_contracts', 'contracts_created'],
  ['sum_accounts', 'accounts'],
  ['active_auctions', 'auctions_started - auctions_ended'],
  ['active_names', 'names_activated - names_expired - names_revoked'],
  ['inactive_names', 'names_expired + names_revoked - names_reclaimed'],
  ['active_oracles', 'oracles_registered - oracles_expired'],
  ['inactive_oracles', 'oracles_expired - oracles_reregistered'],
  ['open_channels', 'channels_opened - channels_closed'],
  ['sum_minted', 'minted'],
];

/** The batch's AEX-9 transfer, mint and burn events, one row each (aex9_events has a row per account it moves). */
const AEX9_TRANSFERS = `(SELECT DISTINCT e.contract_id, e.height, e.micro_index, e.tx_index, e.log_idx, e.tx_hash
                FROM aex9_events e
               WHERE ${inBatch('e.height')} AND e.kind IN ('transfer', 'mint', 'burn'))`;

/**
 * The series that derive from other derived rows (the miners' rewards, the AEX-9 events, the generations' names and
 * contracts): read back in SQL on both paths. Columns height, series, day, count; not yet summed.
 */
const DERIVED_SERIES = `
      -- ae_mdw's top miners: each account a key block rewards, once per key block
      SELECT r.height, 'miner:' || r.miner AS series, ${day('k.time_ms')} AS day, 1 AS count
        FROM stats_miner_rewards r JOIN key_blocks k ON k.height = r.height WHERE ${inBatch('r.height')}
      UNION ALL
      -- ae_mdw's AEX-9 transfers statistic: every Transfer, Mint and Burn event, at its transaction's time
      SELECT x.height, 'aex9_transfers', ${day('t.micro_time_ms')}, 1
        FROM ${AEX9_TRANSFERS} x
        JOIN transactions t ON t.hash = x.tx_hash
      UNION ALL
      SELECT g.height, s.series, ${day('g.time_ms')}, s.count
        FROM stats_generations g
       CROSS JOIN LATERAL unnest(ARRAY['names', 'contracts'], ARRAY[g.names_activated, g.contracts_created]::numeric[]) s(series, count)
       WHERE ${inBatch('g.height')}`;

/**
 * BEST is a generation's best through it (migration 1155), as an array: the highest tps of the generations up to it and
 * the lowest height holding that tps, negated (the greatest (tps, -height) is the first by tps descending, then
 * height), from the generation below the window's first (`b`) on; /v3/stats reads the highest generation's.
 */
const BEST = 'greatest((SELECT ARRAY[b.best_tps, -b.best_tps_height] FROM b), max(ARRAY[tps, -height]) OVER w)';

/**
 * generationsSql inserts the batch's generations with the running totals from the highest height below the batch
 * (the batch's own when nothing is stored above it, as while following the chain; `totals` then carries them up
 * after a -H reload); `inMemory`: with the figures counted in memory, returning what the series count of the rows.
 */
const generationsSql = (
  inMemory: boolean,
): string => `WITH b AS (SELECT * FROM stats_generations WHERE height < $2 ORDER BY height DESC LIMIT 1)
    INSERT INTO stats_generations (${DELTA_COLUMNS}, ${TOTAL_COLUMNS.map(([t]) => t).join(', ')}, best_tps, best_tps_height)
    SELECT ${DELTA_COLUMNS}, ${TOTAL_COLUMNS.map(([t, d]) => `coalesce((SELECT b.${t} FROM b), 0) + sum(${d}) OVER w`).join(', ')},
           (${BEST})[1], -(${BEST})[2]
      FROM (SELECT height, time_ms, beneficiary, auctions_started, auctions_ended, names_claimed + auctions_ended AS names_activated,
                   names_expired, names_revoked, names_reclaimed, oracles_registered, oracles_expired, oracles_reregistered,
                   channels_opened, channels_closed, contracts_created, block_reward, dev_reward, burned_in_auctions,
                   locked_in_auctions, locked_in_channels, accounts, tps, minted
              FROM (${deltas(inMemory)}) d) g
    WINDOW w AS (ORDER BY g.height)${inMemory ? '\n    RETURNING height, names_activated, contracts_created' : ''}`;

/** The transaction-local setting by which a statement tells the series' insert trigger it adds the intervals itself. */
const INTERVALS_ADDED = 'mdw.series_intervals';

/**
 * Every statement of a batch's derivation, in order (each takes its own parameters). A row's several series (or
 * intervals) come from `unnest` of arrays, not from a LATERAL VALUES list: PostgreSQL compiles a VALUES list's
 * expressions again for every outer row it scans, which made the series statement's two rows per transaction cost
 * more than all the rest of it (347 M against 204 M instructions per 2000-transaction batch, docs/benchmarks.md).
 */
const STATEMENTS = {
  clear: [
    `DELETE FROM stats_generations WHERE ${inBatch('height')}`,
    `DELETE FROM stats_series_counts WHERE ${inBatch('height')}`,
    `DELETE FROM stats_accounts WHERE ${inBatch('height')}`,
    `DELETE FROM stats_active_accounts WHERE ${inBatch('height')}`,
    `DELETE FROM stats_miner_rewards WHERE ${inBatch('height')}`,
  ],
  // the same upserts of rows counted in memory (indexer/stats-accounts.ts) as arrays $1..$3 and $4..$7
  accountsCounted: `WITH first_seen AS (
      INSERT INTO stats_accounts AS s (account, height, day)
      SELECT * FROM unnest($1::int[], $2::int[], $3::int[])
      ON CONFLICT (account) DO UPDATE SET height = excluded.height, day = excluded.day WHERE excluded.height < s.height)
    INSERT INTO stats_active_accounts AS s (interval_by, start, account, height)
    SELECT * FROM unnest($4::text[], $5::int[], $6::int[], $7::int[])
    ON CONFLICT (interval_by, start, account) DO UPDATE SET height = excluded.height WHERE excluded.height < s.height`,
  // what each key block paid each miner (the writer stores the internal transfers first), returned for the series
  // a batch counts in memory
  minerRewards: `INSERT INTO stats_miner_rewards (height, miner, reward)
    SELECT height, account_id, sum(amount) FROM internal_transfers
     WHERE ${inBatch('height')} AND kind = 'reward_block' GROUP BY 1, 2 HAVING sum(amount) <> 0
    RETURNING height, miner`,
  // an account counts from its first appearance in any transaction field (accounts by number, of kind ak: migration 1000),
  // and is active in each day, week and month it appears in; both read the batch's appearances once, each with its
  // micro block's time (a transaction's micro_time_ms: one hash join with the batch's micro blocks, not a probe of
  // transactions per appearance). The accounts are picked out after the join: PostgreSQL has no estimate for
  // `account & 7 = 1` (it takes 0.5 %), and with it in the scan it expected 22 of 2641 appearances and probed
  // micro_blocks once for each, 64 M instructions a batch against 50 M hash-joined
  accounts: `WITH seen AS (
      SELECT a.account, a.height, a.micro_index, a.tx_index, ${day('m.time_ms')} AS day
        FROM account_transactions a JOIN micro_blocks m ON (m.height, m.micro_index) = (a.height, a.micro_index)
       WHERE ${inBatch('a.height')} AND m.height BETWEEN $2 AND $3),
    first_seen AS (
      INSERT INTO stats_accounts AS s (account, height, day)
      SELECT DISTINCT ON (account) account, height, day FROM seen WHERE ${isAccountSql('account')}
       ORDER BY account, height, micro_index, tx_index
      ON CONFLICT (account) DO UPDATE SET height = excluded.height, day = excluded.day WHERE excluded.height < s.height)
    INSERT INTO stats_active_accounts AS s (interval_by, start, account, height)
    SELECT i.interval_by, i.start, x.account, min(x.height)
      FROM (SELECT account, min(height) AS height, day FROM seen WHERE ${isAccountSql('account')} GROUP BY account, day) x
     CROSS JOIN LATERAL unnest(ARRAY['day', 'week', 'month'], ARRAY[x.day, x.day / 7, stats_month_of(x.day)]) i(interval_by, start)
     GROUP BY 1, 2, 3
    ON CONFLICT (interval_by, start, account) DO UPDATE SET height = excluded.height WHERE excluded.height < s.height`,
  series: `INSERT INTO stats_series_counts (height, series, day, count)
    SELECT height, series, day, sum(count) FROM (
      SELECT k.height, s.series, ${day('k.time_ms')} AS day, s.count
        FROM key_blocks k
        JOIN unnest($1::int[], $4::numeric[], $5::numeric[]) AS p(height, difficulty, hashrate) ON p.height = k.height
       CROSS JOIN LATERAL unnest(ARRAY['blocks:key', 'blocks:all', 'difficulty', 'hashrate'],
                                 ARRAY[1, 1, p.difficulty, p.hashrate]) s(series, count)
       WHERE k.height BETWEEN $2 AND $3
      UNION ALL
      SELECT m.height, s.series, ${day('m.time_ms')}, 1
        FROM micro_blocks m CROSS JOIN (VALUES ('blocks:micro'), ('blocks:all')) s(series)
       WHERE ${inBatch('m.height')}
      UNION ALL
      -- the transactions per height and day, in all and per type: one pass, grouped before the types are named
      SELECT t.height,
             CASE WHEN grouping(t.tx_type) = 1 THEN 'transactions' ELSE 'transactions:' || ${txTypeNameSql('t')} END,
             ${day('t.micro_time_ms')}, count(*)
        FROM transactions t
       WHERE ${inBatch('t.height')}
       GROUP BY GROUPING SETS ((t.height, ${day('t.micro_time_ms')}, t.tx_type), (t.height, ${day('t.micro_time_ms')}))
      UNION ALL
      ${DERIVED_SERIES}
    ) x GROUP BY 1, 2, 3 HAVING sum(count) <> 0`,
  // the AEX-9 events a batch counts in memory, per micro block (its time is the memory's: no probe of transactions
  // by hash per event, as DERIVED_SERIES's)
  aex9Transfers: `SELECT height, micro_index, count(*)::int AS count FROM ${AEX9_TRANSFERS} x GROUP BY 1, 2`,
  // the intervals of a batch's series counted in memory, from their sums per series and day, after their rows were
  // COPYed (the insert trigger skips them: migration 1004, mdw.series_intervals is 'added' around the COPY)
  intervalsCounted: `SELECT stats_intervals_add($1::text[], $2::int[], $3::numeric[]),
           set_config('${INTERVALS_ADDED}', '', true)`,
  generations: generationsSql(false),
  // the same with the figures a batch of whole generations counted in memory ($4..$8, COUNTED_FIGURES)
  generationsCounted: generationsSql(true),
  // totals are running sums from the highest height below the batch: every stored height from the
  // batch's lowest up (after a -H reload or a backfill below stored statistics)
  totals: `UPDATE stats_generations g SET ${TOTAL_COLUMNS.map(([t]) => `${t} = r.${t}`).join(', ')},
             best_tps = r.best[1], best_tps_height = -r.best[2]
      FROM (SELECT s.height, ${TOTAL_COLUMNS.map(
        ([t, d]) => `coalesce((SELECT b.${t} FROM b), 0) + sum(${d}) OVER w AS ${t}`,
      ).join(', ')}, ${BEST} AS best
              FROM stats_generations s WHERE s.height >= $1
            WINDOW w AS (ORDER BY s.height)) r
     WHERE g.height = r.height`,
};

/** byPosition puts each height's value at its position from `lowest` (0 between heights: no key block reads it). */
function byPosition<T extends number | bigint>(heights: readonly number[], values: readonly T[], lowest: number): T[] {
  const out = new Array<T>(heights.at(-1)! - lowest + 1).fill(0 as T);
  for (let i = 0; i < heights.length; i++) out[heights[i]! - lowest] = values[i]!;
  return out;
}

/**
 * named is a statement of a batch's derivation prepared once a connection, so that PostgreSQL keeps its plan: those of
 * the batches counted in memory (a catch-up's) were planned again at every batch, the generations' about 5 ms each.
 */
const named = (
  statement: 'accountsCounted' | 'minerRewards' | 'generationsCounted' | 'aex9Transfers' | 'intervalsCounted',
  values: unknown[],
): { name: string; text: string; values: unknown[] } => ({
  name: `mdw_stats_${statement}`,
  text: STATEMENTS[statement],
  values,
});

/**
 * deriveStatsRows replaces the statistics of the given heights (ascending) with what the stored
 * chain says of them, and carries the running totals up from the lowest of them.
 */
export async function deriveStatsRows(db: Queryable, f: GenerationFigures): Promise<void> {
  if (f.heights.length === 0) return;
  const batch = [[...f.heights], f.heights[0]!, f.heights.at(-1)!];
  // a batch above every derived height (the usual case while following) has nothing to replace, and its totals
  // are complete as inserted (an UPDATE of them wrote each wide row a second time)
  // this and the settings below named: with no parameters each keeps one generic plan, where a statement with no name
  // was planned at every batch
  const { rows } = await db.query<{ top: number | null }>({
    name: 'mdw_stats_top',
    text: 'SELECT max(height) AS top FROM stats_generations',
  });
  const replacing = rows[0]?.top != null && rows[0].top >= f.heights[0]!;
  if (replacing) for (const sql of STATEMENTS.clear) await db.query(sql, batch);
  const counted = replacing ? undefined : f.counted?.();
  const accounts = counted?.accounts;
  if (accounts === undefined) await db.query(STATEMENTS.accounts, batch);
  else
    await db.query(
      named('accountsCounted', [
        arrayText(accounts.firstSeen.accounts),
        arrayText(accounts.firstSeen.heights),
        arrayText(accounts.firstSeen.days),
        arrayText(accounts.active.intervalBy),
        arrayText(accounts.active.starts),
        arrayText(accounts.active.accounts),
        arrayText(accounts.active.heights),
      ]),
    );
  const miners = await db.query<DerivedFigures['miners'][number]>(named('minerRewards', batch));
  const generations = counted?.generations;
  let generationRows: DerivedFigures['generations'] = [];
  if (generations === undefined) await db.query(STATEMENTS.generations, batch);
  else
    ({ rows: generationRows } = await db.query<DerivedFigures['generations'][number]>(
      named('generationsCounted', [
        ...batch,
        ...[generations.channelsOpened, generations.channelsClosed, generations.lockedInChannels].map((column) =>
          arrayText(byPosition<number | bigint>(generations.heights, column, f.heights[0]!)),
        ),
        arrayText(byPosition(generations.heights, generations.microTxs, f.heights[0]!)),
        arrayText(byPosition(generations.heights, generations.lastMs, f.heights[0]!)),
      ]),
    ));
  if (replacing)
    await db.query(
      `WITH b AS (SELECT * FROM stats_generations WHERE height < $1 ORDER BY height DESC LIMIT 1) ${STATEMENTS.totals}`,
      [f.heights[0]],
    );
  if (counted === undefined)
    await db.query(STATEMENTS.series, [...batch, arrayText(f.difficulties), arrayText(f.hashrates)]);
  else {
    // every series row counted in memory, those of the rows just derived too (the miners, the generations' names and
    // contracts, the AEX-9 events' micro blocks): PostgreSQL writes them, where a statement read those rows back
    const { rows: aex9Transfers } = await db.query<DerivedFigures['aex9Transfers'][number]>(
      named('aex9Transfers', batch),
    );
    const { rows: counts, daySums } = counted.series({
      miners: miners.rows,
      generations: generationRows,
      aex9Transfers,
    });
    await db.query({
      name: 'mdw_stats_intervals_added',
      text: `SELECT set_config('${INTERVALS_ADDED}', 'added', true)`,
    });
    // COPYed, where they came as arrays to an unnest of the statement: 1.0k PostgreSQL instructions a transaction
    // less (bench/postgres-instructions.ts), the parse of four arrays and the unnest's rows
    const rows = new CopyPayloads();
    for (let i = 0; i < counts.heights.length; i++) {
      rows.value('int', counts.heights[i]!);
      rows.value('text', counts.series[i]!);
      rows.value('int', counts.days[i]!);
      rows.value('numeric', String(counts.counts[i]!));
      rows.end();
    }
    await copyMany(db, 'stats_series_counts', ['height', 'series', 'day', 'count'], rows.payloads());
    await db.query(
      named('intervalsCounted', [arrayText(daySums.series), arrayText(daySums.days), arrayText(daySums.counts)]),
    );
  }
}
