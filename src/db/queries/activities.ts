/**
 * @module Read-side SQL of /v3/accounts/{id}/activities: one feed merged from sources (an id's
 * transactions, its internal transfers, and whatever a token standard adds), each walked by its
 * own index and merged in one statement.
 */
import { idKey, txTypeCode } from '../../chain/id-key.ts';
import { accountNumberSql } from './account-ids.ts';
import { creationTxHashSql } from './contracts.ts';
import { keyset, type PageReader } from './positions.ts';
import { microBlockHashSql } from './transactions.ts';
import type { TxPosition } from './positions.ts';

/**
 * A place in an id's feed: a position (−1, −1 at key-block level), then a tag and a ref that order
 * the items of one position ('' and '' for the transaction itself, which comes first).
 */
export interface ActivityKey {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly tag: string;
  readonly ref: string;
}

/** An item of the feed: its key, the source it came from and what that source needs to render it. */
export interface ActivityRow extends ActivityKey {
  readonly source: string;
  /** the source's own JSON for the item (text), or null */
  readonly data: string | null;
  readonly blockHash: string;
  readonly blockTime: string;
}

/**
 * An ActivitySql lists an id's items. Its `select` is SQL over one table giving the columns
 * height, micro_index, tx_index, tag, ref, data (text or NULL) for the id `$2`, between heights $3
 * and $4, and, where `$5` (owned_only) is true, only the items the id itself did; `id.num` (from the CTE
 * `id`) is the id's number in account_transactions (migration 1000); `$7` is the configured DEX factory
 * (text) for a source that needs it. Its `keyColumns`
 * are the expressions of those five key columns over the table, in an order one of its indexes
 * serves after the id, so a page reads only its own rows. Values are placeholders, never text.
 */
export interface ActivitySql {
  readonly source: string;
  readonly from: string;
  readonly keyColumns: readonly [string, string, string, string, string];
  readonly data: string;
  readonly where: string;
}

// the fields in which an id is the object of a tx, not its actor (ae_mdw's non-owner fields)
const NOT_OWNED = `ARRAY['recipient_id', 'responder_id', 'commitment_id']`;

/**
 * An id's transactions: every one naming it in any field (account_transactions). A name's own claims are not
 * among them, wrapped in a GAMetaTx or PayingForTx or not: CLAIM_ACTIVITIES lists those (as ae_mdw, which has no
 * NameClaimTxEvent, nor the wrapper's event, for a name).
 */
export const TRANSACTION_ACTIVITIES: ActivitySql = {
  source: 'transactions',
  from: 'account_transactions a',
  keyColumns: ['a.height', 'a.micro_index', 'a.tx_index', "''::text", "''::text"],
  // the hash through the position (account_transactions keeps none: migration 1000)
  data: '(SELECT t.hash FROM transactions t WHERE t.height = a.height AND t.micro_index = a.micro_index AND t.tx_index = a.tx_index)',
  where: `a.account = (SELECT num FROM id) AND a.height BETWEEN $3 AND $4
          AND NOT (left($2, 3) = 'nm_' AND (a.tx_type = ${txTypeCode('NameClaimTx')}
                   OR a.tx_type IN (${txTypeCode('GAMetaTx')}, ${txTypeCode('PayingForTx')})
                      AND EXISTS (SELECT 1 FROM transactions w
                                   WHERE w.height = a.height AND w.micro_index = a.micro_index
                                     AND w.tx_index = a.tx_index AND w.inner_type = 'NameClaimTx')))
          AND (NOT $5 OR EXISTS (SELECT 1 FROM unnest(string_to_array(a.fields, ' ')) f
                                  WHERE NOT regexp_replace(f, '^(tx\\.)+', '') = ANY (${NOT_OWNED})
                                    AND NOT (a.tx_type = ${txTypeCode('OracleQueryTx')} AND f = 'oracle_id')))`,
};

/**
 * The internal transfers to an id (none with owned_only, as ae_mdw has it). ae_mdw keys them by public
 * key, so a contract's (`contracts_lima`) or an oracle's are found by its ct_ or ok_ id too: the
 * transfers name the account (ak_), whose text differs from the other prefixes' in the prefix only.
 */
export const TRANSFER_ACTIVITIES: ActivitySql = {
  source: 'transfers',
  from: 'internal_transfers x',
  keyColumns: ['x.height', 'x.micro_index', 'x.tx_index', 'x.kind', 'x.ref_tx_hash'],
  data: `json_build_object('amount', x.amount, 'kind', x.kind)::text`,
  where: `x.account_id = 'ak_' || substr($2, 4) AND x.height BETWEEN $3 AND $4 AND NOT $5`,
};

/**
 * A name's claims (an nm_ id), as ae_mdw's `claims` activities list them: every NameClaimTx of the
 * name, bids in its auctions included, and a contract's AENS.claim (migration 1112: its data the calling
 * transaction's hash, a space and the internal call's transaction); owned_only changes nothing, as in ae_mdw.
 */
export const CLAIM_ACTIVITIES: ActivitySql = {
  source: 'claims',
  from: 'name_events e',
  keyColumns: ['e.height', 'e.micro_index', 'e.tx_index', "'claim'::text", "''::text"],
  data: `CASE WHEN e.local_idx IS NULL THEN e.tx_hash ELSE e.tx_hash || ' ' || (SELECT i.internal_tx::text
           FROM contract_internal_calls i WHERE i.height = e.height AND i.micro_index = e.micro_index
            AND i.tx_index = e.tx_index AND i.local_idx = e.local_idx) END`,
  where: `e.name_hash = $2 AND e.kind IN ('claim', 'bid') AND e.height BETWEEN $3 AND $4 AND ($5 OR true)`,
};

/**
 * The calls that reached a contract (a ct_ id) through another one: it emitted an event in the log
 * of a call to another contract (contract_remote_calls, migration 1003). Not with owned_only: the
 * contract did not make the call.
 */
export const REMOTE_CALL_ACTIVITIES: ActivitySql = {
  source: 'contract',
  from: 'contract_remote_calls r',
  keyColumns: ['r.height', 'r.micro_index', 'r.tx_index', "'contract'::text", "''::text"],
  data: '(SELECT t.hash FROM transactions t WHERE t.height = r.height AND t.micro_index = r.micro_index AND t.tx_index = r.tx_index)',
  where: 'r.contract_id = $2 AND r.height BETWEEN $3 AND $4 AND NOT $5',
};

/**
 * The internal calls an id concerns (a ct_, ak_, ok_ or nm_ id): those whose transaction names it, and, for a
 * contract, those its calls made (contract_internal_call_ids, migration 1110, keyed by public key as ae_mdw's
 * IdIntContractCall), after the call's own items; with owned_only those the id acted in. `data` is ae_mdw's
 * ContractCall, as /v3/contracts/calls renders it.
 */
export const INTERNAL_CALL_ACTIVITIES: ActivitySql = {
  source: 'int_calls',
  from: 'contract_internal_call_ids n',
  // the local index as text that orders as the number does
  keyColumns: ['n.height', 'n.micro_index', 'n.tx_index', "'int_call'::text", "lpad(n.local_idx::text, 10, '0')"],
  data: `(SELECT json_build_object('block_hash', ${microBlockHashSql('i')}, 'call_tx_hash', c.tx_hash,
                                   'contract_id', c.contract_id, 'contract_tx_hash', ${creationTxHashSql('c.contract_id')},
                                   'function', i.function, 'height', i.height, 'internal_tx', i.internal_tx,
                                   'local_idx', i.local_idx, 'micro_index', i.micro_index)::text
            FROM contract_internal_calls i
            JOIN contract_calls c ON c.height = i.height AND c.micro_index = i.micro_index AND c.tx_index = i.tx_index
           WHERE i.height = n.height AND i.micro_index = n.micro_index AND i.tx_index = n.tx_index
             AND i.local_idx = n.local_idx)`,
  where: 'n.id_key = substr($2, 4) AND n.height BETWEEN $3 AND $4 AND (NOT $5 OR n.owned)',
};

const OUT = ['height', 'micro_index', 'tx_index', 'tag', 'ref'];
const START = '$8, $9, $10, $11, $12';

/** The feed an activitiesPage reads: an id's items from the given sources, within heights and options. */
export interface ActivityFeed {
  readonly id: string;
  readonly sources: readonly ActivitySql[];
  readonly first: number;
  readonly last: number;
  readonly ownedOnly: boolean;
  readonly dexFactory: string;
  /** a `time:` scope's transactions: the items of a transaction only between these (key-block items: first..last) */
  readonly positions?: { from: TxPosition; to: TxPosition };
}

/** activitiesPage reads up to n items of an id's feed from its sources, walking from a key (inclusive). */
export const activitiesPage: PageReader<ActivityFeed, ActivityKey, ActivityRow> = async (
  db,
  feed,
  { walk, from, n },
) => {
  const { id, sources, positions } = feed;
  if (sources.length === 0) return [];
  const start = from === undefined ? undefined : START;
  const values: unknown[] = [n, id, feed.first, feed.last, feed.ownedOnly, idKey(id), feed.dexFactory];
  if (from) values.push(from.height, from.microIndex, from.txIndex, from.tag, from.ref);
  const p = values.length;
  if (positions) values.push(...[positions.from, positions.to].flatMap((x) => [x.height, x.microIndex, x.txIndex]));
  const within = ([h, m, t]: readonly string[]): string =>
    positions === undefined
      ? ''
      : `AND (${m} < 0 OR (${h}, ${m}, ${t}) BETWEEN ($${p + 1}::int, $${p + 2}::int, $${p + 3}::int)
                                          AND ($${p + 4}::int, $${p + 5}::int, $${p + 6}::int))`;
  // each source walks its own index to at most n items; the merge orders those
  const parts = sources.map((s) => {
    const ks = keyset(s.keyColumns, walk, start);
    // the position alone bounds the index scan (the row with tag and ref is checked on the rows it finds)
    const bound = keyset(s.keyColumns.slice(0, 3), walk, start === undefined ? undefined : '$8, $9, $10');
    const columns = s.keyColumns.map((c, i) => `${c} AS ${OUT[i]}`).join(', ');
    return `(SELECT '${s.source}'::text AS source, ${columns}, ${s.data} AS data FROM ${s.from}
              WHERE ${s.where} ${within(s.keyColumns)} AND ${bound.where} AND ${ks.where} ORDER BY ${ks.order} LIMIT $1)`;
  });
  const merged = keyset(
    OUT.map((c) => `y.${c}`),
    walk,
    undefined,
  );
  // the CTEs type $2, $6 and $7 for every statement, whether or not a source of it reads them (the transactions
  // alone read the id, as its number)
  const { rows } = await db.query<ActivityRow>(
    `WITH id AS (SELECT $2::text AS id, ${accountNumberSql('$6::bytea')} AS num), feed_parameters AS (SELECT $7::text AS dex_factory)
     SELECT y.height, y.micro_index AS "microIndex", y.tx_index AS "txIndex", y.tag, y.ref, y.source, y.data,
            coalesce(m.hash, k.hash) AS "blockHash", coalesce(m.time_ms, k.time_ms)::text AS "blockTime"
       FROM (${parts.join(' UNION ALL ')}) y
       LEFT JOIN micro_blocks m ON y.micro_index >= 0 AND m.height = y.height AND m.micro_index = y.micro_index
       LEFT JOIN key_blocks k ON y.micro_index < 0 AND k.height = y.height
      ORDER BY ${merged.order} LIMIT $1`,
    values,
  );
  return rows;
};
