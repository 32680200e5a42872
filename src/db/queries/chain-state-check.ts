/**
 * @module What `mdw -v --full` checks against the chain's state (maintenance/verify-state.ts): the verified top's
 * block, the AEX-9 balances and AEX-141 owners of each token, the names, oracles and their open queries, the channels
 * and the accounts' AE balances, each read in pages (keyset) so that a mainnet-sized table keeps memory flat.
 */
import type { Json } from '../../chain/json.ts';
import type { Queryable } from '../connection/pool.ts';

/** lastBlockHashAt is the last stored block of generation `height`: its last micro block, else its key block. */
export async function lastBlockHashAt(db: Queryable, height: number): Promise<string | undefined> {
  const { rows } = await db.query<{ hash: string }>(
    `SELECT coalesce((SELECT hash FROM micro_blocks WHERE height = $1 ORDER BY micro_index DESC LIMIT 1),
                     (SELECT hash FROM key_blocks WHERE height = $1)) AS hash`,
    [height],
  );
  return rows[0]?.hash ?? undefined;
}

/** An AEX-N contract as detected; `balancesUnknown`: its balances at creation could not be read (AEX-9). */
export interface AexnContract {
  readonly contractId: string;
  readonly balancesUnknown: boolean;
  /** the micro block of its creation (of the call it was first seen in), whose state its balances were read at */
  readonly createdIn: string | null;
}

/** aexnContractsPage lists up to `n` contracts of a type after `after` (by id). */
export async function aexnContractsPage(
  db: Queryable,
  type: 'aex9' | 'aex141',
  after: string,
  n: number,
): Promise<AexnContract[]> {
  const { rows } = await db.query<AexnContract>(
    `SELECT contract_id AS "contractId", balances_unknown AS "balancesUnknown",
            (SELECT hash FROM micro_blocks m WHERE m.height = c.height AND m.micro_index = c.micro_index) AS "createdIn"
       FROM aexn_contracts c
      WHERE aexn_type = $1 AND contract_id > $2 ORDER BY contract_id LIMIT $3`,
    [type, after, n],
  );
  return rows;
}

/** aex9Holdings is each account's stored balance of an AEX-9 token (aettos as text), zero balances left out. */
export async function aex9Holdings(db: Queryable, contractId: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ account: string; amount: string }>(
    'SELECT account, amount::text AS amount FROM aex9_balances WHERE contract_id = $1 AND amount <> 0',
    [contractId],
  );
  return new Map(rows.map((r) => [r.account, r.amount]));
}

/** aex141Owners is each stored token of a collection (its id as text) with its owner. */
export async function aex141Owners(db: Queryable, contractId: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ token: string; owner: string }>(
    'SELECT token_id::text AS token, owner_id AS owner FROM aex141_tokens WHERE contract_id = $1 ORDER BY token_id',
    [contractId],
  );
  return new Map(rows.map((r) => [r.token, r.owner]));
}

/** A name as name_state keeps it: its current registration. */
export interface StoredName {
  readonly name: string;
  readonly nameHash: string;
  readonly owner: string;
  readonly expiresAt: number | null;
  readonly pointers: Json;
  readonly kind: string;
  readonly createdAt: number;
  readonly auctionEnd: number;
}

/** storedNamesPage lists up to `n` names after `after` (by name hash). */
export async function storedNamesPage(db: Queryable, after: string, n: number): Promise<StoredName[]> {
  const { rows } = await db.query<StoredName>(
    `SELECT name, name_hash AS "nameHash", owner, expires_at AS "expiresAt", pointers, kind,
            created_at_height AS "createdAt", auction_end_height AS "auctionEnd"
       FROM name_state WHERE name_hash > $1 ORDER BY name_hash LIMIT $2`,
    [after, n],
  );
  return rows;
}

/** An oracle after its latest event: its expiry, and its latest registration's fields. */
export interface StoredOracle {
  readonly oracleId: string;
  readonly expiresAt: number;
  readonly queryFee: string | null;
  readonly queryFormat: string | null;
  readonly responseFormat: string | null;
  readonly abiVersion: string | null;
}

/** storedOraclesPage lists up to `n` oracles after `after` (by id). */
export async function storedOraclesPage(db: Queryable, after: string, n: number): Promise<StoredOracle[]> {
  const { rows } = await db.query<StoredOracle>(
    `SELECT o.oracle_id AS "oracleId", l.expires_at AS "expiresAt", r.query_fee::text AS "queryFee",
            r.query_format AS "queryFormat", r.response_format AS "responseFormat", r.abi_version AS "abiVersion"
       FROM (SELECT DISTINCT oracle_id FROM oracle_events WHERE oracle_id > $1 ORDER BY oracle_id LIMIT $2) o
       CROSS JOIN LATERAL (SELECT e.expires_at FROM oracle_events e WHERE e.oracle_id = o.oracle_id
                            ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) l
       LEFT JOIN LATERAL (SELECT e.* FROM oracle_events e WHERE e.oracle_id = o.oracle_id AND e.kind = 'register'
                            ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) r ON true
      ORDER BY o.oracle_id`,
    [after, n],
  );
  return rows;
}

/** A query not answered (as far as the database knows), with what the node's OracleQuery shows of it. */
export interface StoredQuery {
  readonly queryId: string;
  readonly senderId: string;
  readonly senderNonce: string;
  readonly query: string;
  readonly fee: string;
  readonly expiresAt: number;
}

/** unansweredQueries lists the queries of oracles `oracleIds` that have no response stored, by oracle. */
export async function unansweredQueries(
  db: Queryable,
  oracleIds: readonly string[],
): Promise<Map<string, StoredQuery[]>> {
  const { rows } = await db.query<StoredQuery & { oracleId: string }>(
    `SELECT q.oracle_id AS "oracleId", q.query_id AS "queryId", q.sender_id AS "senderId",
            q.sender_nonce::text AS "senderNonce", q.query, q.fee::text AS fee, q.expires_at AS "expiresAt"
       FROM oracle_queries q
      WHERE q.oracle_id = ANY($1) AND NOT EXISTS (SELECT 1 FROM oracle_responses r WHERE r.query_id = q.query_id)
      ORDER BY q.oracle_id, q.query_id`,
    [oracleIds],
  );
  const byOracle = new Map<string, StoredQuery[]>();
  for (const { oracleId, ...q } of rows) byOracle.set(oracleId, [...(byOracle.get(oracleId) ?? []), q]);
  return byOracle;
}

/** channelIdsPage lists up to `n` channel ids after `after`. */
export async function channelIdsPage(db: Queryable, after: string, n: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT DISTINCT channel_id AS id FROM channel_events WHERE channel_id > $1 ORDER BY channel_id LIMIT $2`,
    [after, n],
  );
  return rows.map((r) => r.id);
}

/** An account's latest stored AE balance (aettos as text). */
export interface StoredBalance {
  readonly account: string;
  readonly balance: string;
}

/** balancesPage lists up to `n` accounts' latest balances after `after` (by id). */
export async function balancesPage(db: Queryable, after: string, n: number): Promise<StoredBalance[]> {
  const { rows } = await db.query<StoredBalance>(
    `SELECT account_id AS account, balance::text AS balance FROM account_wealth
      WHERE account_id > $1 ORDER BY account_id LIMIT $2`,
    [after, n],
  );
  return rows;
}

/** sampledBalances is `n` accounts drawn at random with their latest balances, by id. */
export async function sampledBalances(db: Queryable, n: number): Promise<StoredBalance[]> {
  const { rows } = await db.query<StoredBalance>(
    `SELECT account, balance FROM (SELECT account_id AS account, balance::text AS balance FROM account_wealth
                                    ORDER BY random() LIMIT $1) s ORDER BY account`,
    [n],
  );
  return rows;
}
