/**
 * @module Read-side SQL for ae_mdw's AEX-141: collections (registered in aexn_contracts) with their
 * counts and limits, tokens and their owners (aex141_tokens), templates and transfers (aex141_events).
 */
import type { Queryable } from '../connection/pool.ts';
import type { ActivitySql } from './activities.ts';
import type { LogKey } from './contracts.ts';
import { keyset, logKeyset, logKeyValues, type PageReader } from './positions.ts';

/** A limit event's value and where it is. */
export interface LimitAt {
  readonly value: string;
  readonly txHash: string;
  readonly logIdx: number;
  readonly position: readonly [number, number, number, number];
}

/** A collection with its creation, counts and latest limits. */
export interface CollectionRow {
  readonly contractId: string;
  readonly txHash: string;
  readonly name: string | null;
  readonly symbol: string | null;
  readonly baseUrl: string | null;
  readonly metadataType: string | null;
  readonly extensions: string[];
  readonly invalid: boolean;
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly creationTime: string;
  readonly nftsAmount: number;
  readonly nftOwners: number;
  readonly tokenLimit: LimitAt | null;
  readonly templateLimit: LimitAt | null;
  /** a contract call since the collection's creation was stored without its call info (the node had pruned it) */
  readonly incomplete: boolean;
}

/** The order a list of collections walks in. */
export type CollectionOrder = 'creation' | 'name' | 'symbol';

/** A place in a list of collections: the sort value(s) and the contract id. */
export type CollectionKey = readonly (string | number)[];

/** A collection of a list, with the value it is sorted by (the lower-cased name or symbol; none by creation). */
export type SortedCollectionRow = CollectionRow & { readonly sortValue: string | null };

/**
 * sortColumns: what a list is ordered by. A name or symbol sorts lower-cased, as ae_mdw's tables of downcased names
 * key them (AexnTokens), unless an `exact` value is asked for, which ae_mdw walks in its table of names as written.
 */
function sortColumns(order: CollectionOrder, exact: boolean): { columns: string[]; types: string[] } {
  if (order === 'creation')
    return {
      columns: ['a.height', 'a.micro_index', 'a.tx_index', 'a.contract_id'],
      types: ['int', 'int', 'int', 'text'],
    };
  const value = order === 'name' ? 'a.name' : 'a.symbol';
  return { columns: [exact ? value : `lower(${value})`, 'a.contract_id'], types: ['text', 'text'] };
}

const limitAt = (kind: string): string =>
  `(SELECT json_build_object('value', e.limit_value::text, 'txHash', e.tx_hash, 'logIdx', e.log_idx,
                             'position', json_build_array(e.height, e.micro_index, e.tx_index, e.log_idx))
      FROM aex141_events e WHERE e.contract_id = a.contract_id AND e.kind = '${kind}'
     ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC, e.log_idx DESC LIMIT 1)`;

const COLLECTION_FIELDS = `a.contract_id AS "contractId", a.tx_hash AS "txHash", a.name, a.symbol, a.base_url AS "baseUrl",
       a.metadata_type AS "metadataType", a.extensions, a.meta_invalid AS invalid, a.height, a.micro_index AS "microIndex",
       a.tx_index AS "txIndex", t.micro_time_ms::text AS "creationTime",
       coalesce(n.nfts_amount, 0) AS "nftsAmount", coalesce(n.nft_owners, 0) AS "nftOwners",
       ${limitAt('token_limit')} AS "tokenLimit", ${limitAt('template_limit')} AS "templateLimit",
       EXISTS (SELECT 1 FROM contract_calls c WHERE c.call_info_pruned AND c.height >= a.height) AS incomplete
  FROM aexn_contracts a
  JOIN transactions t ON (t.height, t.micro_index, t.tx_index) = (a.height, a.micro_index, a.tx_index)
  LEFT JOIN aex141_collection_counts n ON n.contract_id = a.contract_id`;

/** collectionById reads one AEX-141 collection. */
export async function collectionById(db: Queryable, contractId: string): Promise<CollectionRow | undefined> {
  const { rows } = await db.query<CollectionRow>({
    name: 'mdw_v3_aex141_collection',
    text: `SELECT ${COLLECTION_FIELDS} WHERE a.contract_id = $1 AND a.aexn_type = 'aex141'`,
    values: [contractId],
  });
  return rows[0];
}

/** collectionsPage reads up to n collections in an order, optionally of a name or symbol prefix or exact value. */
export const collectionsPage: PageReader<
  { order: CollectionOrder; prefix?: string; exact?: string },
  CollectionKey,
  SortedCollectionRow
> = async (db, { order, prefix, exact }, { walk, from, n }) => {
  const { columns, types } = sortColumns(order, exact !== undefined);
  const start = types.map((t, i) => `$${i + 4}::${t}`).join(', ');
  const ks = keyset(columns, walk, start);
  // prefix and exact match the name, or the symbol when sorting by it; name and symbol lists leave out
  // collections whose meta info could not be read (no value to sort by). A prefix matches whatever its case, as
  // ae_mdw's (it looks it up lower-cased in a table of lower-cased names) and the AEX-9 list's do
  const matched = order === 'symbol' ? 'a.symbol' : 'a.name';
  const sortable = order === 'creation' ? 'true' : `${matched} IS NOT NULL`;
  const { rows } = await db.query<SortedCollectionRow>(
    `SELECT ${order === 'creation' ? 'NULL' : columns[0]} AS "sortValue", ${COLLECTION_FIELDS}
      WHERE a.aexn_type = 'aex141' AND ${sortable}
        AND ($2::text IS NULL OR starts_with(lower(${matched}), lower($2))) AND ($3::text IS NULL OR ${matched} = $3)
        AND ($4::${types[0]} IS NULL OR ${ks.where})
      ORDER BY ${ks.order} LIMIT $1`,
    [n, prefix ?? null, exact ?? null, ...(from ?? types.map(() => null))],
  );
  return rows;
};

/** A token and its owner (with its template mint, when minted from a template). */
export interface TokenRow {
  readonly contractId: string;
  readonly tokenId: string;
  readonly ownerId: string;
  readonly templateId: string | null;
  readonly mintTxHash: string | null;
  readonly mintLogIdx: number | null;
  readonly edition: string | null;
}

/** A token minted from a template: its template mint is known. */
export interface TemplateTokenRow extends TokenRow {
  readonly templateId: string;
  readonly mintTxHash: string;
  readonly mintLogIdx: number;
}

/**
 * templateToken is a token of a template's list as one minted from it: aex141_tokens_refresh (migration 1002) sets a
 * token's template and its mint from the same template_mint event, so a token listed by its template has its mint;
 * one without is a broken table, an error, never an answer without the mint ae_mdw's schema requires.
 */
export function templateToken(t: TokenRow): TemplateTokenRow {
  const { templateId, mintTxHash, mintLogIdx } = t;
  if (templateId === null || mintTxHash === null || mintLogIdx === null)
    throw new Error(`AEX-141 token ${t.contractId} ${t.tokenId} is listed by a template but has no template mint`);
  return { ...t, templateId, mintTxHash, mintLogIdx };
}

/** A place in a list of tokens: the collection and the token id. */
export interface TokenKey {
  readonly contractId: string;
  readonly tokenId: string;
}

const TOKEN_FIELDS = `k.contract_id AS "contractId", k.token_id::text AS "tokenId", k.owner_id AS "ownerId",
       k.template_id::text AS "templateId", k.mint_tx_hash AS "mintTxHash", k.mint_log_idx AS "mintLogIdx", k.edition`;

/** tokenById reads one existing token. */
export async function tokenById(db: Queryable, contractId: string, tokenId: string): Promise<TokenRow | undefined> {
  const { rows } = await db.query<TokenRow>({
    name: 'mdw_v3_aex141_token',
    text: `SELECT ${TOKEN_FIELDS} FROM aex141_tokens k WHERE k.contract_id = $1 AND k.token_id = $2::numeric`,
    values: [contractId, tokenId],
  });
  return rows[0];
}

/** Which tokens: of a collection (optionally of one template), or of an owner (optionally in one collection). */
export type TokenFilter =
  { readonly contract: string; readonly template?: string } | { readonly owner: string; readonly contract?: string };

/** tokensPage reads up to n tokens in (collection, token id) order walking from a key. */
export const tokensPage: PageReader<TokenFilter, TokenKey, TokenRow> = async (db, filter, { walk, from, n }) => {
  const ks = keyset(['k.contract_id', 'k.token_id'], walk, '$5::text, $6::numeric');
  const owner = 'owner' in filter ? filter.owner : null;
  const template = 'template' in filter ? (filter.template ?? null) : null;
  const { rows } = await db.query<TokenRow>(
    `SELECT ${TOKEN_FIELDS} FROM aex141_tokens k
      WHERE ($2::text IS NULL OR k.contract_id = $2) AND ($3::text IS NULL OR k.owner_id = $3)
        AND ($4::numeric IS NULL OR k.template_id = $4) AND ($5::text IS NULL OR ${ks.where})
      ORDER BY ${ks.order} LIMIT $1`,
    [n, filter.contract ?? null, owner, template, from?.contractId ?? null, from?.tokenId ?? null],
  );
  return rows;
};

/** A template (created and not deleted) with its edition: the latest edition limit and the supply minted from it. */
export interface TemplateRow {
  readonly templateId: string;
  readonly txHash: string;
  readonly logIdx: number;
  readonly editionLimit: LimitAt | null;
  readonly supply: number;
  readonly supplyTxHash: string | null;
  readonly supplyLogIdx: number | null;
}

/** templatesPage reads up to n templates of a collection in template id order walking from a template id. */
export const templatesPage: PageReader<string, string, TemplateRow> = async (db, contractId, { walk, from, n }) => {
  const ks = keyset(['c.template_id'], walk, '$3::numeric');
  const { rows } = await db.query<TemplateRow>(
    `SELECT c.template_id::text AS "templateId", c.tx_hash AS "txHash", c.log_idx AS "logIdx",
            (SELECT json_build_object('value', l.limit_value::text, 'txHash', l.tx_hash, 'logIdx', l.log_idx)
               FROM aex141_events l WHERE l.contract_id = $2 AND l.kind = 'edition_limit' AND l.template_id = c.template_id
              ORDER BY l.height DESC, l.micro_index DESC, l.tx_index DESC, l.log_idx DESC LIMIT 1) AS "editionLimit",
            s.supply, s.tx_hash AS "supplyTxHash", s.log_idx AS "supplyLogIdx"
       FROM aex141_events c
       CROSS JOIN LATERAL (SELECT count(*)::int AS supply,
                                  (array_agg(k.mint_tx_hash ORDER BY k.token_id DESC))[1] AS tx_hash,
                                  (array_agg(k.mint_log_idx ORDER BY k.token_id DESC))[1] AS log_idx
                             FROM aex141_tokens k WHERE k.contract_id = $2 AND k.template_id = c.template_id) s
      WHERE c.contract_id = $2 AND c.kind = 'template_creation'
        -- a template's first creation, not deleted since: walked in template id order (index 1052, where DISTINCT ON
        -- sorted them all), each a probe (a LIMIT, which the planner keeps where it makes a NOT EXISTS an anti-join)
        AND (SELECT 1 FROM aex141_events p
              WHERE p.contract_id = $2 AND p.kind = 'template_creation' AND p.template_id = c.template_id
                AND (p.height, p.micro_index, p.tx_index, p.log_idx) < (c.height, c.micro_index, c.tx_index, c.log_idx)
              LIMIT 1) IS NULL
        AND (SELECT 1 FROM aex141_events d
              WHERE d.contract_id = $2 AND d.kind = 'template_deletion' AND d.template_id = c.template_id
                AND (d.height, d.micro_index, d.tx_index) >= (c.height, c.micro_index, c.tx_index)
              LIMIT 1) IS NULL
        AND ($3::numeric IS NULL OR ${ks.where})
      ORDER BY ${ks.order} LIMIT $1`,
    [n, contractId, from ?? null],
  );
  return rows;
};

/** A transfer of a token. */
export interface Aex141TransferRow extends LogKey {
  readonly contractId: string;
  readonly txHash: string;
  readonly microTime: string;
  readonly fromId: string;
  readonly toId: string;
  readonly tokenId: string;
}

/** aex141TransfersPage reads up to n transfers (of a collection, from and/or to an account, as given) walking from a position. */
export const aex141TransfersPage: PageReader<
  { contract?: string; from?: string; to?: string },
  LogKey,
  Aex141TransferRow
> = async (db, filter, { walk, from: start, n }) => {
  const ks = logKeyset('e', walk, 5);
  const { rows } = await db.query<Aex141TransferRow>(
    `SELECT e.height, e.micro_index AS "microIndex", e.tx_index AS "txIndex", e.log_idx AS "logIdx",
            e.contract_id AS "contractId", e.tx_hash AS "txHash", t.micro_time_ms::text AS "microTime",
            e.from_id AS "fromId", e.to_id AS "toId", e.token_id::text AS "tokenId"
       FROM aex141_events e
       JOIN transactions t ON (t.height, t.micro_index, t.tx_index) = (e.height, e.micro_index, e.tx_index)
      WHERE ($2::text IS NULL OR e.contract_id = $2) AND e.kind = 'transfer' AND ($3::text IS NULL OR e.from_id = $3)
        AND ($4::text IS NULL OR e.to_id = $4) AND ($5::int IS NULL OR ${ks.where})
      ORDER BY ${ks.order} LIMIT $1`,
    [n, filter.contract ?? null, filter.from ?? null, filter.to ?? null, ...logKeyValues(start)],
  );
  return rows;
};

/**
 * AEX141_ACTIVITIES: the NFT transfers an account sent or received (with owned_only, sent), as
 * /v3/accounts/{id}/activities lists them: after the transaction, in log order.
 */
export const AEX141_ACTIVITIES: ActivitySql = {
  source: 'aex141',
  from: `aex141_events e
         JOIN transactions t ON (t.height, t.micro_index, t.tx_index) = (e.height, e.micro_index, e.tx_index)
         LEFT JOIN aexn_contracts c ON c.contract_id = e.contract_id`,
  keyColumns: ['e.height', 'e.micro_index', 'e.tx_index', "'aex141'::text", "lpad(e.log_idx::text, 10, '0')"],
  data: `json_build_object('sender', e.from_id, 'recipient', e.to_id, 'token_id', e.token_id, 'contract_id', e.contract_id,
                           'log_idx', e.log_idx, 'block_height', e.height, 'micro_index', e.micro_index,
                           'micro_time', t.micro_time_ms, 'tx_hash', e.tx_hash, 'token_name', c.name,
                           'token_symbol', c.symbol)::text`,
  where: `e.kind = 'transfer' AND (e.from_id = $2 OR e.to_id = $2) AND e.height BETWEEN $3 AND $4
          AND (NOT $5 OR e.from_id = $2)`,
};

/** collectionsCount is the number of AEX-141 collections. */
export async function collectionsCount(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>({
    name: 'mdw_v3_aex141_count',
    text: "SELECT count(*)::int AS n FROM aexn_contracts WHERE aexn_type = 'aex141'",
  });
  return rows[0]!.n;
}
