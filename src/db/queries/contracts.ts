/**
 * @module Read-side SQL for contracts: the contracts table with each contract's creation (the original's rows, ae_mdw's
 * creation with its standard), their decoded calls, and event logs from the stored call infos.
 */
import type { Json } from '../../chain/json.ts';
import type { Queryable } from '../connection/pool.ts';
import { renderStoredTx } from '../../chain/stored-tx.ts';
import { keyset, logKeyset, logKeyValues, type PageReader } from './positions.ts';
import { renderPlaceholders, withTxObjects } from './stored-tx-json.ts';
import {
  microBlockHashSql,
  RAW_TX_JSON,
  renderedTxJson,
  SIGNED_TX_JSON_COLUMNS,
  txTypeNameSql,
} from './transactions.ts';
import type { TxJson, Window } from './transactions.ts';

/**
 * creationTxHashSql is the hash of the transaction that created the contract `id` (an SQL expression): its
 * ContractCreateTx or GAAttachTx, else, for a contract a call created (a DEX factory's pair), that call, as ae_mdw
 * finds it (Origin: the creating contract_call_tx); null for one created otherwise (hard forks' contracts).
 */
export function creationTxHashSql(id: string): string {
  return `coalesce((SELECT k.create_tx_hash FROM contracts k WHERE k.contract_id = ${id}),
                   (SELECT a.tx_hash FROM aexn_call_created a WHERE a.contract_id = ${id}))`;
}

/** A contract with its creating transaction. */
export interface ContractRow {
  readonly contractId: string;
  readonly createTxHash: string;
  readonly height: number;
}

/** allContracts pages every contract, newest first. */
export async function allContracts(db: Queryable, w: Window): Promise<ContractRow[]> {
  const { rows } = await db.query(
    `SELECT contract_id, create_tx_hash, height FROM contracts ORDER BY height DESC, contract_id LIMIT $1 OFFSET $2`,
    [w.limit, w.offset],
  );
  return rows.map((r) => ({ contractId: r.contract_id, createTxHash: r.create_tx_hash, height: r.height }));
}

/**
 * contractTransactions pages the create transaction and every call of a contract, in chain order: the create, then
 * the calls as their index (contract_calls_contract) walks them, so a page reads its offset and its rows, never all
 * the contract's calls sorted (issue 57). A contract's create comes before its calls on a chain; a ContractCreateTx is
 * also its first call (its init), which is the create, once. The create takes the first page's first row and moves the
 * other pages' calls by one.
 */
export async function contractTransactions(db: Queryable, contractId: string, w: Window): Promise<TxJson[]> {
  const { rows } = await db.query<TxJson>(
    `WITH created AS (SELECT t.hash, t.height, t.micro_index, t.tx_index
                        FROM contracts c JOIN transactions t ON t.hash = c.create_tx_hash WHERE c.contract_id = $1)
     SELECT ${SIGNED_TX_JSON_COLUMNS}
       FROM (SELECT hash, height, micro_index, tx_index FROM created WHERE $3::int = 0
             UNION ALL
             (SELECT tx_hash, height, micro_index, tx_index FROM contract_calls
               WHERE contract_id = $1 AND tx_hash IS DISTINCT FROM (SELECT hash FROM created)
               ORDER BY height, micro_index, tx_index
               LIMIT $2::int - (SELECT count(*) FROM created WHERE $3::int = 0)
              OFFSET greatest($3::int - (SELECT count(*) FROM created), 0))) p
       JOIN transactions t ON t.hash = p.hash
      ORDER BY p.height, p.micro_index, p.tx_index`,
    [contractId, w.limit, w.offset],
  );
  return renderedTxJson(rows);
}

/** creationTransactionJson is the transaction that created the contract, as the original's RawTx JSON text. */
export async function creationTransactionJson(
  db: Queryable,
  contractId: string,
): Promise<{ height: number; json: string } | undefined> {
  const { rows } = await db.query<{ height: number; json: string }>(
    `SELECT t.height, (${RAW_TX_JSON})::text AS json
       FROM contracts c JOIN transactions t ON t.hash = c.create_tx_hash WHERE c.contract_id = $1`,
    [contractId],
  );
  return rows[0] && { height: rows[0].height, json: renderPlaceholders(rows[0].json) };
}

/** contractCreateTx is the stored transaction that created a contract (its `tx` object), undefined when not stored. */
export async function contractCreateTx(db: Queryable, contractId: string): Promise<Json | undefined> {
  return (await contractCreateTxs(db, [contractId])).get(contractId);
}

/**
 * contractCreateTxs is contractCreateTx of each of `contractIds` that is stored, by contract id. Named: the decoder
 * asks it once a batch for the contracts it has not met yet, where asking contract by contract (tens a batch on the
 * bench's chain, over the pool's connections) planned each connection's first five anew.
 */
export async function contractCreateTxs(db: Queryable, contractIds: readonly string[]): Promise<Map<string, Json>> {
  const { rows } = await db.query<{ contract_id: string; signed: Buffer }>({
    name: 'mdw_contract_create_txs',
    text: `SELECT c.contract_id, t.signed FROM contracts c JOIN transactions t ON t.hash = c.create_tx_hash
            WHERE c.contract_id = ANY($1::text[])`,
    values: [contractIds],
  });
  return new Map(rows.map((r) => [r.contract_id, renderStoredTx(r.signed).tx]));
}

/** A contract's creation as ae_mdw shows it: the transaction that created it, and its standard. */
export interface ContractCreationRow {
  readonly contractId: string;
  readonly blockHash: string;
  readonly txHash: string;
  readonly txType: string;
  readonly tx: { [key: string]: Json };
  /** aex9 or aex141 when the contract implements the standard (aexn_contracts), else null */
  readonly aexnType: string | null;
}

/**
 * contractCreation reads a contract's creation: its create transaction, or for a contract created inside a call
 * (aexn_call_created) that call.
 */
export async function contractCreation(db: Queryable, contractId: string): Promise<ContractCreationRow | undefined> {
  const { rows } = await db.query({
    name: 'mdw_v3_contract',
    text: `SELECT c.contract_id AS "contractId", ${microBlockHashSql('t')} AS "blockHash", t.hash AS "txHash", ${txTypeNameSql('t')} AS "txType", t.signed AS tx,
                  (SELECT a.aexn_type FROM aexn_contracts a WHERE a.contract_id = c.contract_id) AS "aexnType"
             FROM (SELECT contract_id, create_tx_hash FROM contracts WHERE contract_id = $1
                   UNION ALL
                   SELECT contract_id, tx_hash FROM aexn_call_created WHERE contract_id = $1) c
             JOIN transactions t ON t.hash = c.create_tx_hash
            LIMIT 1`,
    values: [contractId],
  });
  return withTxObjects<ContractCreationRow>(rows, 'tx')[0];
}

/** A log entry of a call: where it is, the called contract, and the node's {address, topics, data}. */
export interface LogRow {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly logIdx: number;
  readonly blockHash: string;
  readonly blockTime: string;
  readonly callTxHash: string;
  readonly calledContract: string;
  readonly log: { address?: Json; topics?: Json; data?: Json };
  readonly contractTxHash: string | null;
  readonly calledContractTxHash: string | null;
}

/** A log position: the call's position and the entry's index in its log. */
export interface LogKey {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly logIdx: number;
}

/**
 * logsPage reads up to n log entries (optionally of one emitting contract) walking from a key (inclusive). A node
 * lists a call's log newest first (the FATE engine prepends each event); the oldest event is index 0, as ae_mdw
 * numbers them. The calls are walked in position order from the key's call through indexes of only the calls that hold
 * such entries (migration 1015): any with a log, or of one contract, those to it with an event of its own and those to
 * others whose log holds one of its (contract_remote_calls). Each such call holds an entry, so without an event filter
 * the page's entries lie in its first n + 1 calls (the key's own call may hold none past the key).
 */
export const logsPage: PageReader<
  { contractId?: string; topic0?: string; first?: number; last?: number },
  LogKey,
  LogRow
> = async (db, filter, { walk, from, n }) => {
  const values: unknown[] = [
    n,
    filter.contractId ?? null,
    filter.first ?? 0,
    filter.last ?? 2 ** 31 - 1,
    filter.topic0 ?? null,
  ];
  if (from) values.push(...logKeyValues(from));
  const ks = logKeyset('l', walk, from ? 6 : undefined);
  const at = (alias: string): { where: string; order: string } =>
    keyset(
      ['height', 'micro_index', 'tx_index'].map((c) => `${alias}.${c}`),
      walk,
      from ? '$6::int, $7::int, $8::int' : undefined,
    );
  // an event filter may leave a call without entries: the walk then stops only at the page's end
  const calls = filter.topic0 === undefined ? 'LIMIT $1 + 1' : '';
  const candidates =
    filter.contractId === undefined
      ? `SELECT c.height, c.micro_index, c.tx_index FROM contract_calls c
          WHERE call_has_log(c.call_info) AND c.height BETWEEN $3 AND $4 AND ${at('c').where}
          ORDER BY ${at('c').order} ${calls}`
      : `SELECT x.height, x.micro_index, x.tx_index FROM (
           (SELECT c.height, c.micro_index, c.tx_index FROM contract_calls c
             WHERE c.contract_id = $2 AND call_logs_own_event(c.call_info, c.contract_id)
               AND c.height BETWEEN $3 AND $4 AND ${at('c').where}
             ORDER BY ${at('c').order} ${calls})
           UNION ALL
           (SELECT r.height, r.micro_index, r.tx_index FROM contract_remote_calls r
             WHERE r.contract_id = $2 AND r.height BETWEEN $3 AND $4 AND ${at('r').where}
             ORDER BY ${at('r').order} ${calls})) x
          ORDER BY ${at('x').order} ${calls}`;
  const { rows } = await db.query<LogRow>(
    `SELECT l.height, l.micro_index AS "microIndex", l.tx_index AS "txIndex", l.log_idx::int AS "logIdx",
            ${microBlockHashSql('t')} AS "blockHash", t.micro_time_ms::text AS "blockTime", l.tx_hash AS "callTxHash",
            l.contract_id AS "calledContract", l.entry AS log,
            ${creationTxHashSql("l.entry->>'address'")} AS "contractTxHash",
            ${creationTxHashSql('l.contract_id')} AS "calledContractTxHash"
       FROM (SELECT c.height, c.micro_index, c.tx_index, c.tx_hash, c.contract_id, e.entry,
                    jsonb_array_length(c.call_info->'log') - e.ord AS log_idx
               FROM (${candidates}) p
               JOIN contract_calls c ON c.height = p.height AND c.micro_index = p.micro_index AND c.tx_index = p.tx_index
               CROSS JOIN LATERAL jsonb_array_elements(coalesce(c.call_info->'log', '[]'::jsonb)) WITH ORDINALITY AS e(entry, ord)) l
       JOIN transactions t ON t.hash = l.tx_hash
      WHERE ($2::text IS NULL OR l.entry->>'address' = $2) AND ($5::text IS NULL OR l.entry->'topics'->>0 = $5)
        AND ${ks.where}
      ORDER BY ${ks.order} LIMIT $1`,
    values,
  );
  return rows;
};

/** aexnTypes reads which of these contracts implement AEX-9 or AEX-141 (aexn_contracts' primary key, one statement). */
export async function aexnTypes(db: Queryable, contractIds: readonly string[]): Promise<Map<string, string>> {
  if (contractIds.length === 0) return new Map();
  const { rows } = await db.query<{ contractId: string; aexnType: string }>(
    `SELECT contract_id AS "contractId", aexn_type AS "aexnType" FROM aexn_contracts WHERE contract_id = ANY($1::text[])`,
    [contractIds],
  );
  return new Map(rows.map((r) => [r.contractId, r.aexnType]));
}
