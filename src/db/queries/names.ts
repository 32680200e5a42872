/**
 * @module Read-side SQL for names: the name_state table (a name's latest event and current claim) in the original
 * middleware's pages and in ae_mdw's (by activation, deactivation or name, with each registration's claims), a name's
 * events, and the names pointing at an id.
 */
import { idKey, txTypeCode } from '../../chain/id-key.ts';
import type { Json } from '../../chain/json.ts';
import type { Queryable } from '../connection/pool.ts';
import { accountNumberSql } from './account-ids.ts';
import { containing, escapeLike } from './like-pattern.ts';
import { keyset, positionKeyset, type PageReader, type TxPosition } from './positions.ts';
import { withTxObjects, type TxInBlockRow } from './stored-tx-json.ts';
import { microBlockHashSql, txTypeNameSql, type Window } from './transactions.ts';

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
  /** newest claim first (default), latest expiry first, or by name */
  readonly order?: 'created' | 'expires' | 'name';
  readonly reverse?: boolean;
}

// Current state per name, kept by migration 1001 (name_state_refresh over name_events, run by
// triggers in the writing transaction): a pure function of name_events, so forks and reloads roll it back.
const NAME_COLUMNS =
  's.name, s.name_hash, s.tx_hash, s.created_at_height, s.auction_end_height, s.owner, s.expires_at, s.pointers';
/** a name active at height `top`: its auction over (or none), not expired, not revoked */
const activeAt = (top: string): string =>
  `(s.auction_end_height = s.created_at_height OR s.auction_end_height < ${top}) AND s.expires_at >= ${top} AND s.kind <> 'revoke'`;

const ORDERS = {
  created: ['created_at_height DESC, name', 'created_at_height ASC, name DESC'],
  expires: ['expires_at DESC NULLS LAST, name', 'expires_at ASC NULLS FIRST, name DESC'],
  name: ['name', 'name DESC'],
} as const;

/** a name of the form `label.chain` (one dot), and one not: the predicate of migration 1070's partial index */
const LABEL_CHAIN_PATTERN = "'^[^.]*\\.chain$'";
const LABEL_CHAIN = `s.name ~ ${LABEL_CHAIN_PATTERN}`;
const NOT_LABEL_CHAIN = `s.name !~ ${LABEL_CHAIN_PATTERN}`;

const reversed = (text: string): string => [...text].reverse().join('');

/** GRAM: the longest text migration 1076's index of each name's characters and pairs of characters holds. */
const GRAM = 2;

/**
 * holdingCondition is the condition of the names holding a text (as its LIKE finds them), its patterns pushed to
 * `values`. A text of one or two characters holds no trigram: it is one of the grams of the names holding it
 * (migration 1076), whose index gives them when few do, where the table was read whole. A name of the form
 * `label.chain` holds a text holding a dot only where the text's first dot is the name's own: the text's rest is a
 * start of `.chain` and the name ends with the text's part before that dot and `.chain`. So among those names such a
 * text is found by that end, a range of their names reversed (migration 1070; `hot-spot-name-8vt.chain` and
 * `hot-spot-name-8vt.c` both give `niahc.tv8-eman-tops-toh%`), and by its LIKE among the few names of another form,
 * not by its trigrams, whose `.chain` ones every name holds. Lengths and reversal by code points, as PostgreSQL counts
 * and reverses characters.
 */
export function holdingCondition(text: string, values: unknown[]): string {
  const dot = text.indexOf('.');
  const length = [...text].length;
  if (dot < 0 && length > 0 && length <= GRAM) {
    // strpos, not LIKE: the same names, as cheap on a walk of the order (the grams are read only for the names it
    // keeps: it costs less), and estimated to hold almost every name, so the planner estimates the grams' share alone
    // (LIKE's and the grams' together, taken as independent, made a rare query of a common one: a walk of thousands).
    // In the index's collation, "C" (migration 1153), or PostgreSQL does not take the index: the same names, as texts
    // are equal in every collation where their bytes are
    values.push(text);
    return `strpos(s.name, $${values.length}) <> 0 AND name_grams(s.name) COLLATE "C" @> ARRAY[$${values.length}::text]`;
  }
  values.push(containing(text));
  const like = `s.name LIKE $${values.length}`;
  if (dot < 0) return like;
  const others = `(${NOT_LABEL_CHAIN} AND ${like})`;
  if (!'.chain'.startsWith(text.slice(dot))) return others;
  values.push(`${escapeLike(reversed(`${text.slice(0, dot)}.chain`))}%`);
  return `((${LABEL_CHAIN} AND reverse(s.name) LIKE $${values.length}) OR ${others})`;
}

/**
 * names pages the current state of names matching the filter. A name holding a text is found by LIKE, not strpos (the
 * same names): pg_trgm's index of the names (db/schema/name-search-index.ts), where the database has it, serves a LIKE, whose
 * selectivity the planner estimates from the column's statistics (strpos's is a guess). Each request's statement is
 * planned with its text (an unnamed statement): when many names hold it, a walk of the order's index that stops at the
 * page; when few do, the index's bitmap of the names holding its trigrams (for a text of one or two characters, which
 * holds no trigram, of its grams: holdingCondition), or where the index is missing, one read of the table, then the
 * few sorted. A text holding a dot (a whole name) is found by the names' ends instead (holdingCondition).
 */
export async function names(db: Queryable, filter: NameFilter, w: Window): Promise<NameRow[]> {
  const order = ORDERS[filter.order ?? 'created'][filter.reverse ? 1 : 0];
  const values: unknown[] = [filter.owner ?? null, filter.activeAt ?? null, w.limit, w.offset];
  const holding = filter.contains === undefined ? 'true' : holdingCondition(filter.contains, values);
  const { rows } = await db.query<NameRow>(
    `SELECT ${NAME_COLUMNS} FROM name_state s
      WHERE ($1::text IS NULL OR s.owner = $1) AND ($2::int IS NULL OR (${activeAt('$2')})) AND ${holding}
      ORDER BY ${order} LIMIT $3 OFFSET $4`,
    values,
  );
  return rows;
}

/**
 * namesPointingAt pages by name the names active at `top` whose current pointers hold the id: a walk of the id's
 * name_pointees rows (migration 1062, which hold what activeAt reads of name_state) in name order, in the index alone
 * for the offset and the names expired at the top, then the states of the page's names only.
 */
export async function namesPointingAt(db: Queryable, id: string, top: number, w: Window): Promise<NameRow[]> {
  const { rows } = await db.query<NameRow>(
    `SELECT ${NAME_COLUMNS}
       FROM (SELECT p.name, p.name_hash FROM name_pointees p
              WHERE p.id = $1 AND p.expires_at >= $2 AND (p.auction_end IS NULL OR p.auction_end < $2)
              ORDER BY p.name LIMIT $3 OFFSET $4) p
       JOIN name_state s ON s.name_hash = p.name_hash
      ORDER BY p.name`,
    [id, top, w.limit, w.offset],
  );
  return rows;
}

/** nameStateByHash is the current state of the name with this hash (nm_) in the original's fields, or undefined. */
export async function nameStateByHash(db: Queryable, nameHash: string): Promise<NameRow | undefined> {
  const { rows } = await db.query<NameRow>(
    `SELECT name, name_hash, tx_hash, created_at_height, auction_end_height, owner, expires_at, pointers
       FROM name_state WHERE name_hash = $1`,
    [nameHash],
  );
  return rows[0];
}

/** A name's current registration, as name_state keeps it, with what ae_mdw shows about it. */
export interface NameStateRow {
  readonly name: string;
  readonly nameHash: string;
  readonly createdAt: number;
  /** height the name is (or was) activated: its auction's end, else its claim */
  readonly activatedAt: number;
  readonly owner: string;
  readonly expiresAt: number | null;
  readonly pointers: Json;
  readonly kind: string;
  /** claims and bids of this registration, the winning (latest) one's owner, fee and tx */
  readonly claimsCount: number;
  readonly lastClaimOwner: string | null;
  readonly nameFee: string | null;
  readonly lastClaimTx: string | null;
  /** the revoking transaction, when revoked */
  readonly revokeTx: string | null;
}

/** Which names a list selects at the stored top `top`. */
export interface NameListFilter {
  readonly state?: 'active' | 'inactive';
  /** names still in auction (claimed, auction not over) instead of claimed ones */
  readonly inAuction?: boolean;
  readonly ownedBy?: string;
  readonly prefix?: string;
  readonly top: number;
  readonly order: NameOrder;
}

/** The orders of /v3/names: by activation height, by expiry height, or by name (each then by name). */
export type NameOrder = 'activation' | 'deactivation' | 'name';

/** A name list key: the order's height (absent for `name`) and the name. */
export interface NameKey {
  readonly height?: number;
  readonly name: string;
}

/**
 * A name is in auction while the auction its first bid opened has not passed its last height ($1 is the top): a node
 * hands it over when the generation after the end starts. A name claimed without an auction has its end at its claim.
 * Migration 1045's name_count_edges_of counts the active names by the same rule.
 */
const IN_AUCTION =
  "s.auction_end_height > s.created_at_height AND s.auction_end_height >= $1 AND s.kind IN ('claim', 'bid')";
const NOT_IN_AUCTION = `NOT (${IN_AUCTION})`;

const DETAILS = `s.name, s.name_hash AS "nameHash", s.created_at_height AS "createdAt", s.auction_end_height AS "activatedAt",
  s.owner, s.expires_at AS "expiresAt", s.pointers, s.kind, d.claims_count AS "claimsCount",
  d.last_claim_owner AS "lastClaimOwner", d.name_fee AS "nameFee", d.last_claim_tx AS "lastClaimTx", d.revoke_tx AS "revokeTx"`;
// The registration's claims and bids (from its claim height), and its revocation; one index range per name.
const DETAILS_JOIN = `CROSS JOIN LATERAL (
  SELECT count(*) FILTER (WHERE e.kind IN ('claim', 'bid'))::int AS claims_count,
         (array_agg(e.owner ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC) FILTER (WHERE e.kind IN ('claim', 'bid')))[1] AS last_claim_owner,
         (array_agg(e.name_fee::text ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC) FILTER (WHERE e.kind IN ('claim', 'bid')))[1] AS name_fee,
         (array_agg(e.tx_hash ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC) FILTER (WHERE e.kind IN ('claim', 'bid')))[1] AS last_claim_tx,
         (array_agg(e.tx_hash ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC) FILTER (WHERE e.kind = 'revoke'))[1] AS revoke_tx
    FROM name_events e WHERE e.name_hash = s.name_hash AND e.height >= s.created_at_height) d`;

const ORDER_COLUMNS: Record<NameOrder, readonly string[]> = {
  activation: ['s.auction_end_height', 's.name'],
  deactivation: ['s.expires_at', 's.name'],
  name: ['s.name'],
};

/** namesPage reads up to n names of the filter walking from a key (inclusive) in the order. */
export const namesPage: PageReader<NameListFilter, NameKey, NameStateRow> = async (db, f, { walk, from, n }) => {
  const values: unknown[] = [f.top, n, f.ownedBy ?? null, f.prefix ?? null];
  const where = [
    f.inAuction ? IN_AUCTION : NOT_IN_AUCTION,
    '($3::text IS NULL OR s.owner = $3)',
    '($4::text IS NULL OR starts_with(s.name, $4::text))',
  ];
  if (f.state === 'active') where.push("s.expires_at >= $1 AND s.kind <> 'revoke'");
  if (f.state === 'inactive') where.push("(s.expires_at < $1 OR s.kind = 'revoke')");
  let start: string | undefined;
  if (from !== undefined) {
    values.push(from.name);
    start = `$${values.length}`;
    if (f.order !== 'name') {
      values.push(from.height ?? 0);
      start = `$${values.length}::int, ${start}`;
    }
  }
  const columns = ORDER_COLUMNS[f.order];
  const ks = keyset(columns, walk, start);
  const { rows } = await db.query<NameStateRow>(
    `SELECT ${DETAILS} FROM name_state s ${DETAILS_JOIN}
      WHERE ${where.join(' AND ')} AND ${ks.where} ORDER BY ${ks.order} LIMIT $2`,
    values,
  );
  return rows;
};

/** nameByHash reads one name's current registration. */
export async function nameByHash(db: Queryable, nameHash: string): Promise<NameStateRow | undefined> {
  const { rows } = await db.query<NameStateRow>({
    name: 'mdw_v3_name',
    text: `SELECT ${DETAILS} FROM name_state s ${DETAILS_JOIN} WHERE s.name_hash = $1`,
    values: [nameHash],
  });
  return rows[0];
}

/**
 * countActiveNames counts the names active at the top (optionally of one owner) from the edges migration 1045 keeps:
 * the names expiring at or above the top less those whose first active height is above it. Each is a sum over the
 * heights from x up, read from migration 1060's spans: the edges below the next multiple of 100, the 100-spans below
 * the next multiple of 10 000, the 10 000-spans above it (at most about 220 rows for each x, whatever the chain).
 */
export async function countActiveNames(db: Queryable, top: number, ownedBy: string | undefined): Promise<number> {
  const { rows } = await db.query<{ n: string }>({
    name: 'mdw_v3_names_count',
    text: `SELECT (coalesce(sum(r.expiring) FILTER (WHERE v.x = $1), 0)
                   - coalesce(sum(r.activating) FILTER (WHERE v.x > $1), 0))::text AS n
             FROM (VALUES ($1::integer), ($1::integer + 1)) v(x)
            CROSS JOIN LATERAL (
                  SELECT e.expiring, e.activating FROM name_count_edges e
                   WHERE e.owner = $2 AND e.height >= v.x AND e.height < (v.x + 99) / 100 * 100
                   UNION ALL
                  SELECT s.expiring, s.activating FROM name_count_spans s
                   WHERE s.owner = $2 AND s.width = 100 AND s.span >= (v.x + 99) / 100
                     AND s.span < (v.x + 9999) / 10000 * 100
                   UNION ALL
                  SELECT s.expiring, s.activating FROM name_count_spans s
                   WHERE s.owner = $2 AND s.width = 10000 AND s.span >= (v.x + 9999) / 10000) r`,
    values: [top, ownedBy ?? ''],
  });
  return Number(rows[0]?.n ?? 0);
}

/** An event of a name with its transaction, for claims, transfers and updates. */
export interface NameEventRow {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly blockHash: string;
  readonly txHash: string;
  readonly txType: string;
  /** the name transaction, or for a contract's AENS call the transaction its internal call amounts to */
  readonly tx: { [key: string]: Json };
  readonly activeFrom: number;
  /** the event is a contract's AENS call's (ae_mdw's `internal_source`), in the call `txHash` */
  readonly internalSource?: boolean;
}

/** Which events of a name: those of some kinds (`claim`, `bid`, `transfer`, `update`, …). */
export interface NameEventFilter {
  readonly nameHash: string;
  readonly kinds: readonly string[];
}

/** nameEventsPage reads up to n events of some kinds of a name walking from a position (inclusive). */
export const nameEventsPage: PageReader<NameEventFilter, TxPosition, NameEventRow> = async (db, filter, window) => {
  const ks = positionKeyset('e', window, 4);
  const { rows } = await db.query(
    `SELECT e.height, e.micro_index AS "microIndex", e.tx_index AS "txIndex", ${microBlockHashSql('t')} AS "blockHash",
            e.tx_hash AS "txHash", ${txTypeNameSql('t')} AS "txType",
            CASE WHEN i.internal_tx IS NULL THEN t.signed END AS tx, i.internal_tx AS "internalTx",
            coalesce((SELECT s.auction_end_height FROM name_state s WHERE s.name_hash = e.name_hash AND s.created_at_height <= e.height), e.height) AS "activeFrom"
       FROM name_events e JOIN transactions t ON t.hash = e.tx_hash
       LEFT JOIN contract_internal_calls i ON e.local_idx IS NOT NULL AND i.height = e.height
        AND i.micro_index = e.micro_index AND i.tx_index = e.tx_index AND i.local_idx = e.local_idx
      WHERE e.name_hash = $1 AND e.kind = ANY($2::text[]) AND ${ks.where} ORDER BY ${ks.order} LIMIT $3`,
    [filter.nameHash, filter.kinds, window.n, ...ks.values],
  );
  return withTxObjects<NameEventRow & { internalTx: { [key: string]: Json } | null }>(rows, 'tx').map(
    ({ internalTx, ...e }) => (internalTx === null ? e : { ...e, tx: internalTx, internalSource: true }),
  );
};

/** A registration of a name that ended by expiring (not revoked, not renewed): ae_mdw's NameExpired. */
export interface NameExpiryRow {
  /** the height the name is inactive from (its last event's expiry + 1, as the statistics count it) */
  readonly expiredAt: number;
  /** the height the registration became active: its auction's end, else its claim's */
  readonly activeFrom: number;
}

/**
 * nameExpiries lists the registrations of a name that expired by `top`, in chain order: an event other than a
 * revoke whose expiry passed with no later event of the name before it.
 */
export async function nameExpiries(db: Queryable, nameHash: string, top: number): Promise<NameExpiryRow[]> {
  const { rows } = await db.query<NameExpiryRow>({
    name: 'mdw_v3_name_expiries',
    text: `SELECT e.expires_at + 1 AS "expiredAt",
                  coalesce((SELECT max(b.auction_end) FROM name_events b
                             WHERE b.name_hash = e.name_hash AND b.kind IN ('claim', 'bid')
                               AND (b.height, b.micro_index, b.tx_index) >= (c.height, c.micro_index, c.tx_index)
                               AND (b.height, b.micro_index, b.tx_index) <= (e.height, e.micro_index, e.tx_index)),
                           c.height) AS "activeFrom"
             FROM name_events e
             JOIN LATERAL (SELECT o.height, o.micro_index, o.tx_index FROM name_events o
                            WHERE o.name_hash = e.name_hash AND o.kind = 'claim'
                              AND (o.height, o.micro_index, o.tx_index) <= (e.height, e.micro_index, e.tx_index)
                            ORDER BY o.height DESC, o.micro_index DESC, o.tx_index DESC LIMIT 1) c ON true
            WHERE e.name_hash = $1 AND e.kind <> 'revoke' AND e.expires_at < $2
              AND NOT EXISTS (SELECT 1 FROM name_events l WHERE l.name_hash = e.name_hash AND l.height <= e.expires_at
                                AND (l.height, l.micro_index, l.tx_index) > (e.height, e.micro_index, e.tx_index))
            ORDER BY e.expires_at`,
    values: [nameHash, top],
  });
  return rows;
}

/**
 * A claim made by an account (any name), for /v3/accounts/{id}/names/claims: its NameClaimTx, and the AENS.claim
 * calls of contracts naming it as the claim's account (as ae_mdw's contract-call stream), by the internal calls' ids
 * (migration 1110), in chain order.
 */
export const accountClaimsPage: PageReader<string, TxPosition, NameEventRow> = async (db, account, window) => {
  // the account's claim transactions and the contracts' claim calls, each walked from the same start ($4…$6)
  const ks = positionKeyset('a', window, 4);
  const ki = positionKeyset('x', window, 4);
  const outer = keyset(['height', '"microIndex"', '"txIndex"', '"localIdx"'], window.walk, undefined);
  const { rows } = await db.query(
    `SELECT * FROM (
       (SELECT a.height, a.micro_index AS "microIndex", a.tx_index AS "txIndex", -1 AS "localIdx",
               ${microBlockHashSql('t')} AS "blockHash", t.hash AS "txHash", ${txTypeNameSql('t')} AS "txType",
               t.signed AS tx, NULL::jsonb AS "internalTx", a.height AS "activeFrom"
          FROM account_transactions a JOIN transactions t ON t.height = a.height AND t.micro_index = a.micro_index AND t.tx_index = a.tx_index
         WHERE a.account = ${accountNumberSql('$1')} AND a.tx_type = ${txTypeCode('NameClaimTx')} AND a.fields ~ '(^| )account_id( |$)' AND ${ks.where}
         ORDER BY ${ks.order} LIMIT $2)
       UNION ALL
       (SELECT x.height, x.micro_index, x.tx_index, x.local_idx, ${microBlockHashSql('t')}, t.hash, ${txTypeNameSql('t')},
               NULL, i.internal_tx, x.height
          FROM contract_internal_call_ids x
          JOIN contract_internal_calls i ON i.height = x.height AND i.micro_index = x.micro_index
           AND i.tx_index = x.tx_index AND i.local_idx = x.local_idx
          JOIN transactions t ON t.height = x.height AND t.micro_index = x.micro_index AND t.tx_index = x.tx_index
         WHERE x.id_key = substr($3, 4) AND i.function = 'AENS.claim' AND i.internal_tx ->> 'account_id' = $3 AND ${ki.where}
         ORDER BY ${ki.order} LIMIT $2)) c
     ORDER BY ${outer.order} LIMIT $2`,
    [idKey(account), window.n, account, ...ks.values],
  );
  return withTxObjects<NameEventRow & { internalTx: { [key: string]: Json } | null; localIdx: number }>(rows, 'tx').map(
    ({ internalTx, localIdx: _l, ...e }) => (internalTx === null ? e : { ...e, tx: internalTx, internalSource: true }),
  );
};

/** A name currently pointing at an id, with the update that set the pointer. */
export interface PointeeRow extends TxInBlockRow {
  readonly name: string;
  readonly key: string;
  readonly active: boolean;
}

/** Which names: those whose current pointers point at an id, active or not at the top. */
export interface PointeeFilter {
  readonly id: string;
  readonly top: number;
}

/**
 * pointeesPage reads names whose current pointers point at the id, by the update that set them: a NameUpdateTx, or a
 * contract's AENS.update (its internal call's transaction, as ae_mdw renders it).
 */
export const pointeesPage: PageReader<PointeeFilter, TxPosition, PointeeRow> = async (db, { id, top }, window) => {
  const ks = positionKeyset('p', window, 4);
  const { rows } = await db.query(
    `SELECT s.name, p.key, (s.expires_at >= $3 AND s.kind <> 'revoke') AS active, p.height, p.micro_index AS "microIndex",
            p.tx_index AS "txIndex", ${microBlockHashSql('t')} AS "blockHash", t.micro_time_ms::text AS "blockTime",
            t.hash AS "txHash", ${txTypeNameSql('t')} AS "txType", CASE WHEN i.internal_tx IS NULL THEN t.signed END AS tx,
            i.internal_tx AS "internalTx"
       FROM name_pointers p
       JOIN name_state s ON s.name_hash = p.name_hash
        AND s.pointers @> jsonb_build_array(jsonb_build_object('key', p.key, 'id', $1::text))
       JOIN transactions t ON t.height = p.height AND t.micro_index = p.micro_index AND t.tx_index = p.tx_index
       LEFT JOIN contract_internal_calls i ON p.local_idx IS NOT NULL AND i.height = p.height
        AND i.micro_index = p.micro_index AND i.tx_index = p.tx_index AND i.local_idx = p.local_idx
      WHERE p.id = $1 AND ${ks.where}
        AND NOT EXISTS (SELECT 1 FROM name_pointers q WHERE q.name_hash = p.name_hash AND q.key = p.key
                          AND (q.height, q.micro_index, q.tx_index) > (p.height, p.micro_index, p.tx_index))
      ORDER BY ${ks.order} LIMIT $2`,
    [id, window.n, top, ...ks.values],
  );
  return withTxObjects<PointeeRow & { internalTx: { [key: string]: Json } | null }>(rows, 'tx').map(
    ({ internalTx, ...p }) => (internalTx === null ? p : { ...p, tx: internalTx }),
  );
};
